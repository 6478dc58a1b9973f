// Seed: inline PTX in the forms libraries use (the general translation, translate/ptx.cpp).
__device__ unsigned f(unsigned a, unsigned b, int* p, unsigned long long* q) {
  unsigned d, e;
  asm volatile("atom.add.acquire.gpu.u32 %0,[%1],%2;" : "=r"(d) : "l"(p), "r"(a) : "memory");
  asm volatile("atom.cas.relaxed.sys.b64 %0,[%1],%2,%3;" : "=l"(*q) : "l"(q), "l"(*q), "l"(1ull) : "memory");
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(p), "r"(b) : "memory");
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(e) : "r"(a), "r"(b), "r"(d));
  asm("{\n\t.reg .pred p;\n\t.reg .b32 r<2>;\n\tsetp.ne.b32 p, %1, 0;\n\t@p add.s32 r0, %1, 3;\n\t@!p mov.b32 r0, 7;\n\tselp.u32 %0, r0, 1, p;\n\t}"
      : "=r"(d) : "r"(a));
  asm volatile("{\n\t.reg .s32 r0;\n\t.reg .pred p;\n\tshfl.sync.up.b32 r0|p, %1, %2, %3, %4;\n\t@p add.s32 r0, r0, %1;\n\tmov.s32 %0, r0;\n\t}"
               : "=r"(d) : "r"(a), "r"(1), "r"(0), "r"(0xffffffffu));
  asm("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4+16];" : "=r"(a), "=r"(b), "=r"(d), "=r"(e) : "l"(p));
  asm("mov.b64 {%0, %1}, %2;" : "=r"(a), "=r"(b) : "l"(*q));
  asm("bfind.shiftamt.u64 %0, %1;" : "=r"(d) : "l"(*q));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(e));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(e));
  asm volatile("elect.sync _|%0, %1;" : "=r"(e) : "r"(0xffffffffu));
  asm volatile("exit;");
  return d + e;
}
