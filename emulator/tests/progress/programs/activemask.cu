// What __activemask() and cg::coalesced_threads() report in divergent code, one warp:
//  - lanes 0-15 call __syncwarp(0x0000ffff), lanes 16-31 __syncwarp(0xffff0000), then each records
//    __activemask();
//  - in a branch taken by the even lanes: coalesced_threads().size(), its ballot(true) (in the
//    group's rank space), its ballot(rank is odd), thread_rank(), and __activemask();
//  - __activemask() right after a __syncwarp() of the whole warp.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

enum { kHalf, kEvenSize, kEvenBallotTrue, kEvenBallotOdd, kEvenRank, kEvenMask, kTop, kFields };

__global__ void masks(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  unsigned* o = out + lane * kFields;
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    o[kHalf] = __activemask();
  } else {
    __syncwarp(0xffff0000u);
    o[kHalf] = __activemask();
  }
  if (lane % 2 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    o[kEvenSize] = g.size();
    o[kEvenBallotTrue] = g.ballot(true);
    o[kEvenBallotOdd] = g.ballot(g.thread_rank() % 2 == 1);
    o[kEvenRank] = g.thread_rank();
    o[kEvenMask] = __activemask();
  }
  __syncwarp();
  o[kTop] = __activemask();
}

int main() {
  const int n = 32 * kFields;
  unsigned* d;
  cudaMalloc(&d, n * sizeof(unsigned));
  cudaMemset(d, 0, n * sizeof(unsigned));
  masks<<<1, 32>>>(d);
  const cudaError_t err = cudaDeviceSynchronize();
  unsigned out[32 * kFields];
  cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
  std::printf("kernel: %s\n", cudaGetErrorName(err));
  std::printf("lane  half-mask  even:size ballot(1) ballot(odd) rank  even:mask   top-mask   cpu\n");
  bool all_ok = err == cudaSuccess;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned* o = out + lane * kFields;
    unsigned want[kFields] = {lane < 16 ? 0x0000ffffu : 0xffff0000u, 0, 0, 0, 0, 0, 0xffffffffu};
    if (lane % 2 == 0) {
      want[kEvenSize] = 16;
      want[kEvenBallotTrue] = 0x0000ffffu;
      want[kEvenBallotOdd] = 0x0000aaaau;
      want[kEvenRank] = lane / 2;
      want[kEvenMask] = 0x55555555u;
    }
    bool ok = true;
    for (int f = 0; f < kFields; ++f) ok = ok && o[f] == want[f];
    all_ok &= ok;
    std::printf("%4u  0x%08x  %9u 0x%08x  0x%08x %4u  0x%08x  0x%08x  %s\n", lane, o[kHalf], o[kEvenSize],
                o[kEvenBallotTrue], o[kEvenBallotOdd], o[kEvenRank], o[kEvenMask], o[kTop], ok ? "ok" : "MISMATCH");
    if (!ok)
      std::printf(" cpu  0x%08x  %9u 0x%08x  0x%08x %4u  0x%08x  0x%08x\n", want[kHalf], want[kEvenSize],
                  want[kEvenBallotTrue], want[kEvenBallotOdd], want[kEvenRank], want[kEvenMask], want[kTop]);
  }
  std::printf("%s\n", all_ok ? "all ok" : "MISMATCH");
  return 0;
}
