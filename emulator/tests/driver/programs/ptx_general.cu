// Inline PTX beyond a fixed table: each instruction's result as PTX defines it, compared with an
// H200's (expected/ptx_general.txt). One warp; lane-dependent results are printed per lane.
#include <cstdio>

__device__ unsigned prmt(unsigned a, unsigned b, unsigned c, int mode) {
  unsigned d = 0;
  switch (mode) {
    case 0: asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 1: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 5: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  }
  return d;
}

__global__ void scalar(unsigned long long* out, int* counters) {
  int k = 0;
  const unsigned a = 0x89abcdefu, b = 0x01234567u;
  for (int mode = 0; mode < 7; ++mode)
    for (unsigned c : {0x3210u, 0x7654u, 0x0189u, 1u, 2u, 3u}) out[k++] = prmt(a, b, c, mode);
  for (int x : {0, 1, static_cast<int>(0x80000000u), -1, -2, 12345, -12345}) {
    unsigned d, e;
    asm("bfind.s32 %0, %1;" : "=r"(d) : "r"(x));
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(e) : "r"(x));
    out[k++] = d;
    out[k++] = e;
  }
  for (unsigned s : {0u, 1u, 31u, 32u, 33u, 100u}) {
    unsigned l, r;
    int sr;
    asm("shl.b32 %0, %1, %2;" : "=r"(l) : "r"(0x80000001u), "r"(s));
    asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(0x80000001u), "r"(s));
    asm("shr.s32 %0, %1, %2;" : "=r"(sr) : "r"(-100), "r"(s));
    out[k++] = l;
    out[k++] = r;
    out[k++] = static_cast<unsigned>(sr);
  }
  for (unsigned pos : {0u, 4u, 28u, 40u})
    for (unsigned len : {0u, 8u, 16u, 40u}) {
      unsigned u;
      int s;
      asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(0xf0e1d2c3u), "r"(pos), "r"(len));
      asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(0xf0e1d2c3u), "r"(pos), "r"(len));
      unsigned i;
      asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(i) : "r"(0xabcdu), "r"(0x11111111u), "r"(pos), "r"(len));
      out[k++] = u;
      out[k++] = static_cast<unsigned>(s);
      out[k++] = i;
    }
  {
    unsigned d;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(0xf0f0f0f0u), "r"(0xccccccccu), "r"(0xaaaaaaaau));
    out[k++] = d;
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(0xf0f0f0f0u), "r"(0xccccccccu), "r"(0xaaaaaaaau));
    out[k++] = d;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(0x12345678u), "r"(0xff00ff00u), "r"(0x0f0f0f0fu), "n"(0x3c));
    out[k++] = d;
  }
  {
    unsigned hi;
    unsigned long long wide;
    int shi;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(hi) : "r"(0xfffffff0u), "r"(0x12345678u));
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(0xfffffff0u), "r"(0x12345678u));
    asm("mul.hi.s32 %0, %1, %2;" : "=r"(shi) : "r"(-123456789), "r"(987654321));
    out[k++] = hi;
    out[k++] = wide;
    out[k++] = static_cast<unsigned>(shi);
    unsigned m;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(4u), "r"(8u));
    out[k++] = m;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(30u), "r"(8u));
    out[k++] = m;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(m) : "r"(36u), "r"(40u));
    out[k++] = m;
    unsigned long long packed;
    asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(0x11223344u), "r"(0x55667788u));
    out[k++] = packed;
    unsigned lo, hi2;
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi2) : "l"(0x0123456789abcdefull));
    out[k++] = lo;
    out[k++] = hi2;
    unsigned sel;
    asm("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, %2;\n\tselp.u32 %0, 7, 9, p;\n\t}" : "=r"(sel) : "r"(-5), "r"(3));
    out[k++] = sel;
    asm("{\n\t.reg .pred p;\n\tsetp.lo.u32 p, %1, %2;\n\tselp.u32 %0, 7, 9, p;\n\t}" : "=r"(sel) : "r"(-5), "r"(3));
    out[k++] = sel;
  }
  // Atomics: inc/dec wrap, cas, signed min/max, red.
  for (int i = 0; i < 5; ++i) {
    unsigned old;
    asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(counters), "r"(2u) : "memory");
    out[k++] = old;
    asm volatile("atom.global.dec.u32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 1), "r"(2u) : "memory");
    out[k++] = old;
  }
  {
    int old;
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(counters + 2), "r"(0), "r"(42) : "memory");
    out[k++] = static_cast<unsigned>(old);
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(counters + 2), "r"(0), "r"(43) : "memory");
    out[k++] = static_cast<unsigned>(old);
    asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 3), "r"(-7) : "memory");
    asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 4), "r"(-7) : "memory");
    asm volatile("red.global.add.s32 [%0], %1;" :: "l"(counters + 5), "r"(-3) : "memory");
    asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(counters + 5), "r"(10) : "memory");
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(counters + 5) : "memory");
    out[k++] = static_cast<unsigned>(v);
    asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" :: "l"(counters + 6), "r"(99) : "memory");
    asm volatile("ld.volatile.global.s32 %0, [%1];" : "=r"(v) : "l"(counters + 6) : "memory");
    out[k++] = static_cast<unsigned>(v);
  }
  out[0xff] = k;
}

__global__ void warp(unsigned* out) {
  const unsigned lane = threadIdx.x;
  unsigned v = lane * 10 + 1, up, ok = 0, x, ballot, lt, pred_any;
  asm volatile(
      "{\n\t.reg .pred p;\n\tshfl.sync.up.b32 %0|p, %2, 3, 0, -1;\n\tselp.u32 %1, 1, 0, p;\n\t}"
      : "=r"(up), "=r"(ok) : "r"(v));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 5, 0x1f, -1;" : "=r"(x) : "r"(v));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, -1;\n\t}"
               : "=r"(ballot) : "r"(lane % 3));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 17;\n\tvote.sync.any.pred q, p, -1;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(pred_any) : "r"(lane));
  unsigned seg;  // width-8 segments: c = ((32 - 8) << 8) | 0x1f
  asm volatile("shfl.sync.idx.b32 %0, %1, 2, 0x181f, -1;" : "=r"(seg) : "r"(v));
  out[lane * 7 + 0] = up;
  out[lane * 7 + 1] = ok;
  out[lane * 7 + 2] = x;
  out[lane * 7 + 3] = ballot;
  out[lane * 7 + 4] = lt;
  out[lane * 7 + 5] = pred_any;
  out[lane * 7 + 6] = seg;
}

int main() {
  unsigned long long* out;
  int* counters;
  unsigned* w;
  cudaMallocManaged(&out, 256 * sizeof(unsigned long long));
  cudaMallocManaged(&counters, 8 * sizeof(int));
  cudaMallocManaged(&w, 32 * 7 * sizeof(unsigned));
  for (int i = 0; i < 8; ++i) counters[i] = 0;
  counters[3] = 5;
  counters[4] = -9;
  scalar<<<1, 1>>>(out, counters);
  warp<<<1, 32>>>(w);
  cudaDeviceSynchronize();
  const int n = static_cast<int>(out[0xff]);
  for (int i = 0; i < n; ++i) std::printf("%d: %llx\n", i, out[i]);
  std::printf("counters %d %d %d %d %d %d %d\n", counters[0], counters[1], counters[2], counters[3], counters[4],
              counters[5], counters[6]);
  for (int lane = 0; lane < 32; ++lane)
    std::printf("lane %2d: up %u ok %u bfly %u ballot %08x lt %08x any %u seg %u\n", lane, w[lane * 7],
                w[lane * 7 + 1], w[lane * 7 + 2], w[lane * 7 + 3], w[lane * 7 + 4], w[lane * 7 + 5], w[lane * 7 + 6]);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
