// Variables of over-aligned types live across a barrier: each thread's copy on the loop path is
// aligned as its type asks (the region form's arena aligns addresses, not offsets).
#include <cstdint>
#include <cstdio>

struct alignas(256) wide {
  int v[4];
};
struct alignas(32) pair32 {
  double a, b;
};

__global__ void kept(int* bad, int* out) {
  __shared__ int s[128];
  char c = 1;  // a byte first: the next copy would sit at an odd offset if nothing aligned it
  wide w;
  w.v[0] = static_cast<int>(threadIdx.x);
  pair32 p{1.0, 2.0};
  s[threadIdx.x] = c;
  __syncthreads();
  if (reinterpret_cast<std::uintptr_t>(&w) % alignof(wide) != 0 ||
      reinterpret_cast<std::uintptr_t>(&p) % alignof(pair32) != 0)
    atomicAdd(bad, 1);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x] + w.v[0] + static_cast<int>(p.a + p.b) + c;
}

int main() {
  int *bad, *out;
  cudaMallocManaged(&bad, sizeof(int));
  cudaMallocManaged(&out, 4 * 128 * sizeof(int));
  *bad = 0;
  kept<<<4, 128>>>(bad, out);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < 4 * 128; ++i) wrong += out[i] != 1 + i % 128 + 3 + 1;
  std::printf("misaligned copies: %d, wrong results: %d\n", *bad, wrong);
  return 0;
}
