// Which product nvcc fuses in p * c[j + 1] + q * c[j] over a thread's own array, in a loop after a
// barrier (cuda-samples' binomialOptions): the left one, p * c[j + 1] (nvcc's PTX: mul of q and
// c[j], then fma with p and c[j + 1]). g++ keeps such a loop rolled and carries c[j + 1] into the
// next iteration, which must not change the choice: on every executor the program prints, per
// trip count, how many results are the first product fused, the second, neither, or either (both
// candidates equal), like fused_product.cu.
#include <cmath>
#include <cstdio>
#include <cstring>

#define T 128
#define M 17

__global__ void step(const float* in, float* out, float p, float q, int n) {
  __shared__ float x[T];
  float c[M + 1];
  for (int j = 0; j <= M; ++j) c[j] = in[threadIdx.x * (M + 1) + j];
  x[threadIdx.x] = c[0];
  __syncthreads();
  c[M] += x[(threadIdx.x + 1) % T] * 0.0f;
  __syncthreads();
  for (int j = 0; j < n; ++j) c[j] = p * c[j + 1] + q * c[j];
  for (int j = 0; j < M; ++j) out[threadIdx.x * M + j] = c[j];
}

int main() {
  static float h[T * (M + 1)], o[T * M];
  for (int i = 0; i < T * (M + 1); ++i) h[i] = 1.0f + static_cast<float>(i) * 0.001234f;
  const float p = 0.4999123f, q = 0.4987654f;
  float *d, *r;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&r, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  for (int n : {M, 5}) {
    step<<<1, T>>>(d, r, p, q, n);
    cudaMemcpy(o, r, sizeof o, cudaMemcpyDeviceToHost);
    int first = 0, second = 0, none = 0, either = 0;
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < n; ++j) {
        const float c0 = h[t * (M + 1) + j], c1 = h[t * (M + 1) + j + 1];
        const float a = std::fma(p, c1, q * c0), b = std::fma(q, c0, p * c1), g = o[t * M + j];
        if (std::memcmp(&a, &b, 4) == 0) ++either;
        else if (std::memcmp(&g, &a, 4) == 0) ++first;
        else if (std::memcmp(&g, &b, 4) == 0) ++second;
        else ++none;
      }
    std::printf("rolled_loop_%-2d first %4d second %4d none %4d ambiguous %4d\n", n, first, second, none, either);
  }
  return 0;
}
