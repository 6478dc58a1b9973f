; libdevice's multi-word integer inline PTX, for the x86-64 prototype (see rewrite.py).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; { mad.lo.cc.u32 $0, a, b, c; madc.hi.u32 $1, a, b, 0 }: the 64-bit a*b + c as {lo, hi}.
define { i32, i32 } @__asm_mad_wide_u32(i32 %a, i32 %b, i32 %c) alwaysinline {
  %a64 = zext i32 %a to i64
  %b64 = zext i32 %b to i64
  %c64 = zext i32 %c to i64
  %p = mul i64 %a64, %b64
  %s = add i64 %p, %c64
  %lo = trunc i64 %s to i32
  %sh = lshr i64 %s, 32
  %hi = trunc i64 %sh to i32
  %r0 = insertvalue { i32, i32 } undef, i32 %lo, 0
  %r1 = insertvalue { i32, i32 } %r0, i32 %hi, 1
  ret { i32, i32 } %r1
}

define internal { i64, i64 } @split128(i128 %v) alwaysinline {
  %lo = trunc i128 %v to i64
  %sh = lshr i128 %v, 64
  %hi = trunc i128 %sh to i64
  %r0 = insertvalue { i64, i64 } undef, i64 %lo, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %hi, 1
  ret { i64, i64 } %r1
}

define internal i128 @join128(i64 %lo, i64 %hi) alwaysinline {
  %l = zext i64 %lo to i128
  %h = zext i64 %hi to i128
  %hs = shl i128 %h, 64
  %v = or i128 %hs, %l
  ret i128 %v
}

; 128-bit a + b and a - b, operands as {lo, hi} pairs.
define { i64, i64 } @__asm_add_u128(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi) alwaysinline {
  %a = call i128 @join128(i64 %alo, i64 %ahi)
  %b = call i128 @join128(i64 %blo, i64 %bhi)
  %s = add i128 %a, %b
  %r = call { i64, i64 } @split128(i128 %s)
  ret { i64, i64 } %r
}

define { i64, i64 } @__asm_sub_u128(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi) alwaysinline {
  %a = call i128 @join128(i64 %alo, i64 %ahi)
  %b = call i128 @join128(i64 %blo, i64 %bhi)
  %s = sub i128 %a, %b
  %r = call { i64, i64 } @split128(i128 %s)
  ret { i64, i64 } %r
}

; The 128-bit a * b + c of 64-bit operands, and a * b.
define { i64, i64 } @__asm_mad_u128(i64 %a, i64 %b, i64 %c) alwaysinline {
  %a2 = zext i64 %a to i128
  %b2 = zext i64 %b to i128
  %c2 = zext i64 %c to i128
  %p = mul i128 %a2, %b2
  %s = add i128 %p, %c2
  %r = call { i64, i64 } @split128(i128 %s)
  ret { i64, i64 } %r
}

define { i64, i64 } @__asm_mul_u128(i64 %a, i64 %b) alwaysinline {
  %a2 = zext i64 %a to i128
  %b2 = zext i64 %b to i128
  %p = mul i128 %a2, %b2
  %r = call { i64, i64 } @split128(i128 %p)
  ret { i64, i64 } %r
}
