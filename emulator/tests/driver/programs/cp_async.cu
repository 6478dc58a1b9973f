// cp.async (sm_80) into shared memory declared `__shared__ alignas(16)`: 16-, 8- and 4-byte
// copies, a partial source (the rest zero-filled), commit and wait; then the block's sums.
// Shared addresses are passed as 64-bit values (the emulator's shared memory is ordinary memory).
#include <cstdio>

__global__ void copy_in(const int* src, int* out) {
  __shared__ alignas(16) int tile[4][64];
  const int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) tile[r][t] = -1;
  __syncthreads();
  const size_t row0 = __cvta_generic_to_shared(&tile[0][t / 4 * 4]);
  if (t % 4 == 0)  // 16 bytes: four ints
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"l"(row0), "l"(src + t));
  const size_t row1 = __cvta_generic_to_shared(&tile[1][t / 2 * 2]);
  if (t % 2 == 0)  // 8 bytes, only the first 4 from the source
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, 4;\n" ::"l"(row1), "l"(src + 64 + t));
  const size_t row2 = __cvta_generic_to_shared(&tile[2][t]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"l"(row2), "l"(src + 128 + t));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  for (int r = 0; r < 4; ++r) out[r * 64 + t] = tile[r][t];
}

int main() {
  int h[192], *src, *out;
  for (int i = 0; i < 192; ++i) h[i] = i * 7 + 3;
  cudaMalloc(&src, sizeof h);
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice);
  copy_in<<<1, 64>>>(src, out);
  int r[256];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int row = 0; row < 4; ++row) {
    long long sum = 0;
    for (int i = 0; i < 64; ++i) sum += r[row * 64 + i];
    std::printf("row %d: %d %d %d %d ... %d  sum %lld\n", row, r[row * 64], r[row * 64 + 1],
                r[row * 64 + 2], r[row * 64 + 3], r[row * 64 + 63], sum);
  }
  return 0;
}
