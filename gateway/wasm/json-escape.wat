;; The escape of a JSON text as a JSON string, in WebAssembly with 128-bit SIMD: what
;; JSON.stringify(text) writes between its quotes, for the UTF-8 bytes of `text`. An MCP result
;; carries the answer twice, as a value and as this string, and V8's JSON.stringify (Node 20)
;; escapes a one-byte string at ~22 instructions a byte (113k of the 144k instructions an MCP
;; `records.get` cost beyond REST's, by callgrind). Here 16 bytes are tested at a time and only the
;; bytes that need an escape are visited one by one.
;;
;; Compiled by `npm run generate` (scripts/wasm.ts, with wabt) into json-escape.wasm.ts, which
;; gateway/json-escape.ts loads; that file is checked in and a test fails when it is stale.
;;
;; The bytes to escape are `"` (0x22), `\` (0x5c) and the controls 0x00-0x1f; every other byte,
;; 0x7f and the bytes of multi-byte UTF-8 sequences included, is copied as it is, as
;; JSON.stringify leaves those characters unescaped. Controls get the short escapes \b \t \n \f \r
;; or \u00xx with lowercase hex, as JSON.stringify writes them.
(module
  ;; The caller writes the text's bytes from 0 and reserves room after them (see escape).
  (memory (export "memory") 1)

  ;; Writes the escape of byte $b (a quote, a backslash or a control) at $o; returns the end.
  (func $emit (param $o i32) (param $b i32) (result i32)
    (local $short i32)
    (i32.store8 (local.get $o) (i32.const 92))
    (if (i32.ge_u (local.get $b) (i32.const 32))
      (then
        (i32.store8 offset=1 (local.get $o) (local.get $b))
        (return (i32.add (local.get $o) (i32.const 2)))))
    (local.set $short
      (select (i32.const 98)
        (select (i32.const 116)
          (select (i32.const 110)
            (select (i32.const 102)
              (select (i32.const 114) (i32.const 0) (i32.eq (local.get $b) (i32.const 13)))
              (i32.eq (local.get $b) (i32.const 12)))
            (i32.eq (local.get $b) (i32.const 10)))
          (i32.eq (local.get $b) (i32.const 9)))
        (i32.eq (local.get $b) (i32.const 8))))
    (if (local.get $short)
      (then
        (i32.store8 offset=1 (local.get $o) (local.get $short))
        (return (i32.add (local.get $o) (i32.const 2)))))
    ;; \u00XX, lowercase hex as JSON.stringify writes it
    (i32.store8 offset=1 (local.get $o) (i32.const 117))
    (i32.store8 offset=2 (local.get $o) (i32.const 48))
    (i32.store8 offset=3 (local.get $o) (i32.const 48))
    (i32.store8 offset=4 (local.get $o) (i32.add (i32.const 48) (i32.shr_u (local.get $b) (i32.const 4))))
    (i32.store8 offset=5 (local.get $o)
      (i32.add (i32.and (local.get $b) (i32.const 15))
        (select (i32.const 87) (i32.const 48) (i32.ge_u (i32.and (local.get $b) (i32.const 15)) (i32.const 10)))))
    (i32.add (local.get $o) (i32.const 6)))

  ;; Escapes bytes [0, $n) as the inside of a JSON string into memory from $out; returns the end.
  ;; Memory must hold $n + 16 bytes before $out (the 16-byte load of the last run may read 15
  ;; bytes past the text) and 6 * $n + 16 from it (each run is copied as a whole 16-byte store).
  (func (export "escape") (param $n i32) (param $out i32) (result i32)
    (local $i i32) (local $o i32) (local $s i32) (local $p i32) (local $bits i32) (local $v v128) (local $b i32)
    (local.set $o (local.get $out))
    (block $chunks_done
      (loop $chunks
        (br_if $chunks_done (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $n)))
        (local.set $v (v128.load (local.get $i)))
        (local.set $bits
          (i8x16.bitmask
            (v128.or
              (v128.or
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
              (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32))))))
        (if (i32.eqz (local.get $bits))
          (then
            (v128.store (local.get $o) (local.get $v))
            (local.set $o (i32.add (local.get $o) (i32.const 16))))
          (else
            (local.set $s (local.get $i))
            (loop $specials
              (local.set $p (i32.add (local.get $i) (i32.ctz (local.get $bits))))
              (v128.store (local.get $o) (v128.load (local.get $s)))
              (local.set $o (i32.add (local.get $o) (i32.sub (local.get $p) (local.get $s))))
              (local.set $o (call $emit (local.get $o) (i32.load8_u (local.get $p))))
              (local.set $s (i32.add (local.get $p) (i32.const 1)))
              (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
              (br_if $specials (local.get $bits)))
            (v128.store (local.get $o) (v128.load (local.get $s)))
            (local.set $o (i32.add (local.get $o) (i32.sub (i32.add (local.get $i) (i32.const 16)) (local.get $s))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $chunks)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $b (i32.load8_u (local.get $i)))
        (if (i32.or (i32.or (i32.eq (local.get $b) (i32.const 34)) (i32.eq (local.get $b) (i32.const 92))) (i32.lt_u (local.get $b) (i32.const 32)))
          (then (local.set $o (call $emit (local.get $o) (local.get $b))))
          (else
            (i32.store8 (local.get $o) (local.get $b))
            (local.set $o (i32.add (local.get $o) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (local.get $o))
)
