;; The JSON of a facet's values with their counts, written in a kernels' memory
;; (api/catalog/kernels.ts, facet-payload.ts): a request writes only its counts between the
;; fragments made once per build.
(module
  (import "kernel" "memory" (memory 1))

  ;; Writes at $out the values ids[0 .. size) (i32 ids) comma-separated, each as its fragment
  ;; (value v: the bytes fragments[offsets[v] .. offsets[v + 1]), i32 offsets, `{"value":…,"count":`),
  ;; its count from counts (an i32 per entry of ids) in decimal and `}`; returns the bytes written.
  (func (export "writeValues")
    (param $fragments i32) (param $offsets i32) (param $ids i32) (param $counts i32) (param $size i32) (param $out i32)
    (result i32)
    (local $p i32) (local $k i32) (local $from i32) (local $length i32) (local $c i32) (local $digits i32) (local $q i32)
    (local.set $p (local.get $out))
    (block $done
      (loop $values
        (br_if $done (i32.ge_u (local.get $k) (local.get $size)))
        (if (local.get $k)
          (then
            (i32.store8 (local.get $p) (i32.const 44)) ;; ,
            (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        ;; the fragment of ids[k]: its offset and the next one
        (local.set $length
          (i32.sub
            (i32.load offset=4
              (local.tee $from
                (i32.add
                  (local.get $offsets)
                  (i32.shl (i32.load (i32.add (local.get $ids) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 2)))))
            (local.tee $from (i32.load (local.get $from)))))
        (memory.copy (local.get $p) (i32.add (local.get $fragments) (local.get $from)) (local.get $length))
        (local.set $p (i32.add (local.get $p) (local.get $length)))
        ;; the count's digits, written from the last
        (local.set $q (local.tee $c (i32.load (i32.add (local.get $counts) (i32.shl (local.get $k) (i32.const 2))))))
        (local.set $digits (i32.const 1))
        (block $counted
          (loop $count_digits
            (br_if $counted (i32.lt_u (local.get $q) (i32.const 10)))
            (local.set $q (i32.div_u (local.get $q) (i32.const 10)))
            (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
            (br $count_digits)))
        (local.set $q (local.tee $p (i32.add (local.get $p) (local.get $digits))))
        (loop $write_digits
          (i32.store8
            (local.tee $q (i32.sub (local.get $q) (i32.const 1)))
            (i32.add (i32.rem_u (local.get $c) (i32.const 10)) (i32.const 48))) ;; 0
          (br_if $write_digits (local.tee $c (i32.div_u (local.get $c) (i32.const 10)))))
        (i32.store8 (local.get $p) (i32.const 125)) ;; }
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $values)))
    (i32.sub (local.get $p) (local.get $out)))
)
