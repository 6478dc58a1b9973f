#include <cstdio>

// Ordered PTX vector accesses are single accesses, as on a GPU (cuemu/ptx.h): block 0 stores pairs
// {i, i} with st.relaxed.gpu.v2.u32 (and st.volatile) while block 1 loads them, counting loads
// whose halves differ. CUB's decoupled look-back relies on it (a tile's status and value in one
// uint2). Element by element, the weak form of this program tears in most runs on two cores.
__global__ void race(unsigned* pair, unsigned* started, unsigned* torn, unsigned iters, int ordered) {
  if (blockIdx.x == 0) {
    while (atomicAdd(started, 0) == 0) {
    }
    for (unsigned i = 1; i <= iters; ++i) {
      if (ordered) asm volatile("st.relaxed.gpu.v2.u32 [%0], {%1, %1};" ::"l"(pair), "r"(i) : "memory");
      else asm volatile("st.volatile.global.v2.u32 [%0], {%1, %1};" ::"l"(pair), "r"(i) : "memory");
    }
  } else {
    atomicExch(started, 1u);
    unsigned t = 0, a = 0, b = 0;
    while (a != iters || b != iters) {
      if (ordered) asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(pair) : "memory");
      else asm volatile("ld.volatile.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(pair) : "memory");
      t += a != b;
    }
    *torn = t;
  }
}
// The same with 16-byte vectors (CUB's tile state for 8-byte values is a ulonglong2).
__global__ void race64(unsigned long long* pair, unsigned* started, unsigned* torn, unsigned iters) {
  if (blockIdx.x == 0) {
    while (atomicAdd(started, 0) == 0) {
    }
    for (unsigned long long i = 1; i <= iters; ++i)
      asm volatile("st.release.gpu.v2.u64 [%0], {%1, %1};" ::"l"(pair), "l"(i) : "memory");
  } else {
    atomicExch(started, 1u);
    unsigned t = 0;
    unsigned long long a = 0, b = 0;
    while (a != iters || b != iters) {
      asm volatile("ld.acquire.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(pair) : "memory");
      t += a != b;
    }
    *torn = t;
  }
}

int main() {
  unsigned *pair, *started, *torn;
  cudaMalloc(&pair, 8); cudaMalloc(&started, 4); cudaMalloc(&torn, 4);
  for (int ordered = 1; ordered >= 0; --ordered) {
    cudaMemset(pair, 0, 8); cudaMemset(started, 0, 4);
    race<<<2, 1>>>(pair, started, torn, 5000000u, ordered);
    unsigned h = 0;
    cudaMemcpy(&h, torn, 4, cudaMemcpyDeviceToHost);
    printf("%s: torn %u\n", ordered ? "ordered" : "volatile", h);
  }
  unsigned long long* pair64;
  cudaMalloc(&pair64, 16);
  cudaMemset(pair64, 0, 16);
  cudaMemset(started, 0, 4);
  race64<<<2, 1>>>(pair64, started, torn, 2000000u);
  unsigned h = 0;
  cudaMemcpy(&h, torn, 4, cudaMemcpyDeviceToHost);
  printf("16-byte: torn %u\n", h);
}
