;; The count of each value of a facet among the members of a context, the bitset at $ctx in a
;; kernels' memory (api/catalog/kernels.ts), into counts (an i32 per value id, 0 before). The ids
;; of the values counted go into touched; each kernel returns how many it listed there. Arrays are
;; i32 arrays given by their byte offset; lo and hi are 32-bit words, outside which ctx is empty.
(module
  (import "kernel" "memory" (memory 1))

  ;; A place's values, each the listings of a range [start[id], end[id]): counts[id] is the members
  ;; of ctx in it (0 for none: its counter was 0). Visits the ids of byStart from index $first
  ;; while their ranges start before word hi, and lists those counted above 0. Places mostly
  ;; follow one another: a range's start is then the last one's end, counted already.
  ;; `prefix` is prefixCounts' over ctx's words [lo, hi), `total` ctx's members.
  (func (export "countRanges")
    (param $ctx i32) (param $lo i32) (param $hi i32) (param $prefix i32) (param $total i32)
    (param $start i32) (param $end i32) (param $byStart i32) (param $first i32) (param $size i32)
    (param $counts i32) (param $touched i32) (result i32)
    (local $k i32) (local $id i32) (local $from i32) (local $s i32) (local $lastEnd i32)
    (local $beforeLastEnd i32) (local $c i32) (local $found i32) (local $w i32)
    (local.set $lastEnd (i32.const -1))
    (local.set $k (local.get $first))
    (block $done
      (loop $ranges
        (br_if $done (i32.ge_u (local.get $k) (local.get $size)))
        (local.set $id (i32.load (i32.add (local.get $byStart) (i32.shl (local.get $k) (i32.const 2)))))
        (br_if $done
          (i32.ge_u
            (local.tee $s (i32.load (i32.add (local.get $start) (i32.shl (local.get $id) (i32.const 2)))))
            (i32.shl (local.get $hi) (i32.const 5))))
        ;; the members of ctx before listing s, then before the range's end: those of the words
        ;; before its word (prefix) and of its word before it (popcount). Written out twice, not
        ;; called: a call for each doubles this kernel's time (19 µs to 40 µs at 5,000 places).
        (local.set $from (local.get $beforeLastEnd))
        (if (i32.ne (local.get $s) (local.get $lastEnd))
          (then
            (local.set $from
              (if (result i32) (i32.lt_u (local.tee $w (i32.shr_u (local.get $s) (i32.const 5))) (local.get $lo))
                (then (i32.const 0))
                (else
                  (if (result i32) (i32.ge_u (local.get $w) (local.get $hi))
                    (then (local.get $total))
                    (else
                      (i32.add
                        (i32.load (i32.add (local.get $prefix) (i32.shl (i32.sub (local.get $w) (local.get $lo)) (i32.const 2))))
                        (i32.popcnt
                          (i32.and
                            (i32.load (i32.add (local.get $ctx) (i32.shl (local.get $w) (i32.const 2))))
                            (i32.sub (i32.shl (i32.const 1) (local.get $s)) (i32.const 1))))))))))))
        (local.set $lastEnd (i32.load (i32.add (local.get $end) (i32.shl (local.get $id) (i32.const 2)))))
        (local.set $beforeLastEnd
          (if (result i32) (i32.lt_u (local.tee $w (i32.shr_u (local.get $lastEnd) (i32.const 5))) (local.get $lo))
            (then (i32.const 0))
            (else
              (if (result i32) (i32.ge_u (local.get $w) (local.get $hi))
                (then (local.get $total))
                (else
                  (i32.add
                    (i32.load (i32.add (local.get $prefix) (i32.shl (i32.sub (local.get $w) (local.get $lo)) (i32.const 2))))
                    (i32.popcnt
                      (i32.and
                        (i32.load (i32.add (local.get $ctx) (i32.shl (local.get $w) (i32.const 2))))
                        (i32.sub (i32.shl (i32.const 1) (local.get $lastEnd)) (i32.const 1))))))))))
        (i32.store
          (i32.add (local.get $counts) (i32.shl (local.get $id) (i32.const 2)))
          (local.tee $c (i32.sub (local.get $beforeLastEnd) (local.get $from))))
        ;; listed whether counted or not, kept if so: a branch on it would be mispredicted as often
        ;; as not, which costs more than the store
        (i32.store (i32.add (local.get $touched) (i32.shl (local.get $found) (i32.const 2))) (local.get $id))
        (local.set $found (i32.add (local.get $found) (i32.ne (local.get $c) (i32.const 0))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $ranges)))
    (local.get $found))

  ;; Adds 1 to counts[valueIds[i]] for each member i of ctx (valueIds: an i32 per listing, never
  ;; negative), listing nothing: collectTouched lists the values after.
  (func (export "tallyMembers") (param $ctx i32) (param $lo i32) (param $hi i32) (param $valueIds i32) (param $counts i32)
    (local $w i32) (local $x i32) (local $at i32)
    (local.set $w (local.get $lo))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $w) (local.get $hi)))
        (local.set $x (i32.load (i32.add (local.get $ctx) (i32.shl (local.get $w) (i32.const 2)))))
        (block $word_done
          (loop $members
            (br_if $word_done (i32.eqz (local.get $x)))
            (local.set $at
              (i32.add
                (local.get $counts)
                (i32.shl
                  (i32.load
                    (i32.add
                      (local.get $valueIds)
                      (i32.shl (i32.add (i32.shl (local.get $w) (i32.const 5)) (i32.ctz (local.get $x))) (i32.const 2))))
                  (i32.const 2))))
            (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
            ;; the next member: x less its lowest bit
            (local.set $x (i32.and (local.get $x) (i32.sub (local.get $x) (i32.const 1))))
            (br $members)))
        (local.set $w (i32.add (local.get $w) (i32.const 1)))
        (br $words))))

  ;; tallyMembers that lists each value as it counts it from 0, but $none (the id of the listings
  ;; without a value): for a context with few members, whose values are not worth a look at
  ;; every value (collectTouched).
  (func (export "countMembers")
    (param $ctx i32) (param $lo i32) (param $hi i32) (param $valueIds i32) (param $counts i32) (param $touched i32) (param $none i32)
    (result i32)
    (local $w i32) (local $x i32) (local $v i32) (local $at i32) (local $c i32) (local $found i32)
    (local.set $w (local.get $lo))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $w) (local.get $hi)))
        (local.set $x (i32.load (i32.add (local.get $ctx) (i32.shl (local.get $w) (i32.const 2)))))
        (block $word_done
          (loop $members
            (br_if $word_done (i32.eqz (local.get $x)))
            (local.set $at
              (i32.add
                (local.get $counts)
                (i32.shl
                  (local.tee $v
                    (i32.load
                      (i32.add
                        (local.get $valueIds)
                        (i32.shl (i32.add (i32.shl (local.get $w) (i32.const 5)) (i32.ctz (local.get $x))) (i32.const 2)))))
                  (i32.const 2))))
            (i32.store (local.get $at) (i32.add (local.tee $c (i32.load (local.get $at))) (i32.const 1)))
            (if (i32.eqz (local.get $c))
              (then
                (if (i32.ne (local.get $v) (local.get $none))
                  (then
                    (i32.store (i32.add (local.get $touched) (i32.shl (local.get $found) (i32.const 2))) (local.get $v))
                    (local.set $found (i32.add (local.get $found) (i32.const 1)))))))
            (local.set $x (i32.and (local.get $x) (i32.sub (local.get $x) (i32.const 1))))
            (br $members)))
        (local.set $w (i32.add (local.get $w) (i32.const 1)))
        (br $words)))
    (local.get $found))

  ;; Lists the values v < $size with counts[v] above 0.
  (func (export "collectTouched") (param $counts i32) (param $size i32) (param $touched i32) (result i32)
    (local $v i32) (local $found i32)
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $v) (local.get $size)))
        ;; listed whether counted or not, kept if so (countRanges says why)
        (i32.store (i32.add (local.get $touched) (i32.shl (local.get $found) (i32.const 2))) (local.get $v))
        (local.set $found
          (i32.add
            (local.get $found)
            (i32.ne (i32.load (i32.add (local.get $counts) (i32.shl (local.get $v) (i32.const 2)))) (i32.const 0))))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $values)))
    (local.get $found))

  ;; Each of $size values by a look at each of its listings, members[starts[v] .. starts[v + 1]):
  ;; counts[v] is those in ctx (0 for none: it was 0); lists the values counted above 0.
  (func (export "countGroups")
    (param $ctx i32) (param $starts i32) (param $members i32) (param $size i32) (param $counts i32) (param $touched i32)
    (result i32)
    (local $v i32) (local $j i32) (local $end i32) (local $i i32) (local $c i32) (local $found i32)
    (local.set $j (i32.load (local.get $starts)))
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $v) (local.get $size)))
        (local.set $end (i32.load (i32.add (local.get $starts) (i32.shl (i32.add (local.get $v) (i32.const 1)) (i32.const 2)))))
        (local.set $c (i32.const 0))
        (block $listings_done
          (loop $listings
            (br_if $listings_done (i32.ge_u (local.get $j) (local.get $end)))
            ;; c += bit i of ctx (a shift by i is one by i mod 32)
            (local.set $c
              (i32.add
                (local.get $c)
                (i32.and
                  (i32.shr_u
                    (i32.load
                      (i32.add
                        (local.get $ctx)
                        (i32.shl
                          (i32.shr_u
                            (local.tee $i (i32.load (i32.add (local.get $members) (i32.shl (local.get $j) (i32.const 2)))))
                            (i32.const 5))
                          (i32.const 2))))
                    (local.get $i))
                  (i32.const 1))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $listings)))
        (i32.store (i32.add (local.get $counts) (i32.shl (local.get $v) (i32.const 2))) (local.get $c))
        (i32.store (i32.add (local.get $touched) (i32.shl (local.get $found) (i32.const 2))) (local.get $v))
        (local.set $found (i32.add (local.get $found) (i32.ne (local.get $c) (i32.const 0))))
        (local.set $v (i32.add (local.get $v) (i32.const 1)))
        (br $values)))
    (local.get $found))
)
