;; Set algebra over the bitsets in a kernels' memory (api/catalog/kernels.ts): their 32-bit words
;; read and written two at a time, as an i64, over byte ranges [lo, hi) that are multiples of 8.
(module
  (import "kernel" "memory" (memory 1))

  ;; For each of $count bitsets, $stride bytes apart from $sets: |ctx ∩ set| over the bytes
  ;; [lo, hi) (where ctx may have members), stored as an i32 at out, out + 4, …
  (func (export "countEach")
    (param $ctx i32) (param $sets i32) (param $count i32) (param $stride i32) (param $lo i32) (param $hi i32) (param $out i32)
    (local $p i32) (local $sum i64)
    (block $done
      (loop $each
        (br_if $done (i32.eqz (local.get $count)))
        (local.set $sum (i64.const 0))
        (local.set $p (local.get $lo))
        (block $words_done
          (loop $words
            (br_if $words_done (i32.ge_u (local.get $p) (local.get $hi)))
            (local.set $sum
              (i64.add
                (local.get $sum)
                (i64.popcnt
                  (i64.and
                    (i64.load (i32.add (local.get $ctx) (local.get $p)))
                    (i64.load (i32.add (local.get $sets) (local.get $p)))))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (br $words)))
        (i32.store (local.get $out) (i32.wrap_i64 (local.get $sum)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $sets (i32.add (local.get $sets) (local.get $stride)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $each))))

  ;; The bitset at $target := target ∩ the bitset at $other, over the bytes [lo, hi).
  (func (export "andInto") (param $target i32) (param $other i32) (param $lo i32) (param $hi i32)
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $lo) (local.get $hi)))
        (i64.store
          (i32.add (local.get $target) (local.get $lo))
          (i64.and
            (i64.load (i32.add (local.get $target) (local.get $lo)))
            (i64.load (i32.add (local.get $other) (local.get $lo)))))
        (local.set $lo (i32.add (local.get $lo) (i32.const 8)))
        (br $words))))

  ;; The bitset at $out := the bitset at $a less the one at $b, over the bytes [lo, hi).
  (func (export "andNot") (param $out i32) (param $a i32) (param $b i32) (param $lo i32) (param $hi i32)
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $lo) (local.get $hi)))
        (i64.store
          (i32.add (local.get $out) (local.get $lo))
          (i64.and
            (i64.load (i32.add (local.get $a) (local.get $lo)))
            (i64.xor
              (i64.load (i32.add (local.get $b) (local.get $lo)))
              (i64.const -1))))
        (local.set $lo (i32.add (local.get $lo) (i32.const 8)))
        (br $words))))

  ;; The members of the bitset at $ctx in the bytes [lo, hi).
  (func (export "countBits") (param $ctx i32) (param $lo i32) (param $hi i32) (result i32)
    (local $sum i64)
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $lo) (local.get $hi)))
        (local.set $sum
          (i64.add
            (local.get $sum)
            (i64.popcnt (i64.load (i32.add (local.get $ctx) (local.get $lo))))))
        (local.set $lo (i32.add (local.get $lo) (i32.const 8)))
        (br $words)))
    (i32.wrap_i64 (local.get $sum)))

  ;; prefix[k]: the members of ctx in its words [lo, lo + k), for k in [0, hi - lo] (i32 words,
  ;; not bytes: countRanges reads them by a listing's word).
  (func (export "prefixCounts") (param $ctx i32) (param $lo i32) (param $hi i32) (param $prefix i32)
    (local $w i32) (local $sum i32)
    (i32.store (local.get $prefix) (i32.const 0))
    (local.set $w (local.get $lo))
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $w) (local.get $hi)))
        (i32.store
          (local.tee $prefix (i32.add (local.get $prefix) (i32.const 4)))
          (local.tee $sum
            (i32.add
              (local.get $sum)
              (i32.popcnt (i32.load (i32.add (local.get $ctx) (i32.shl (local.get $w) (i32.const 2))))))))
        (local.set $w (i32.add (local.get $w) (i32.const 1)))
        (br $words))))
)
