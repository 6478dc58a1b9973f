// nvcuda::wmma on every shape and type the emulator provides: loads in both layouts, stores in
// both, fill, element-wise work on fragments, mma_sync with C and D the same fragment, several
// warps per block. Inputs are small integers (exact products and sums in any order), so every
// printed value is the GPU's exactly; __float_to_tf32 is checked on values that round.
#include <cstdio>
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

using namespace nvcuda;

template <class T> __host__ __device__ T from_int(int v) { return static_cast<T>(v); }
template <> __host__ __device__ __half from_int<__half>(int v) { return __int2half_rn(v); }
template <> __host__ __device__ __nv_bfloat16 from_int<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <class T> __host__ __device__ double to_double(T v) { return static_cast<double>(v); }
template <> __host__ __device__ double to_double<__half>(__half v) { return __half2float(v); }

// One warp per tile of D: D = alpha * (A B) + C, then D[i] += 1 element-wise on the fragment.
// A is M x K (row-major if LA is row_major), B is K x N, C and D are M x N row-major.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class Load>
__global__ void tiles(const Load* a, const Load* b, const TC* c, TC* d, int tiles_n, bool col_store) {
  const int warp = (threadIdx.x + blockDim.x * blockIdx.x) / 32;
  const int tm = warp / tiles_n, tn = warp % tiles_n;
  const int lda = std::is_same<LA, wmma::row_major>::value ? K : M * 2;
  const int ldb = std::is_same<LB, wmma::row_major>::value ? N * tiles_n : K;
  wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TB, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> acc;
  const Load* pa = std::is_same<LA, wmma::row_major>::value ? a + tm * M * K : a + tm * M;
  const Load* pb = std::is_same<LB, wmma::row_major>::value ? b + tn * N : b + tn * N * K;
  wmma::load_matrix_sync(fa, pa, lda);
  wmma::load_matrix_sync(fb, pb, ldb);
  wmma::load_matrix_sync(acc, c + tm * M * N * tiles_n + tn * N, N * tiles_n, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = acc.x[i] + from_int<TC>(1);
  if (col_store)
    wmma::store_matrix_sync(d + tn * N * M * 2 + tm * M, acc, M * 2, wmma::mem_col_major);
  else
    wmma::store_matrix_sync(d + tm * M * N * tiles_n + tn * N, acc, N * tiles_n, wmma::mem_row_major);
}

// Two tile rows (tm = 0, 1) and tiles_n = 2 tile columns: four warps in one block of 128.
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class Load = TA>
void run(const char* name, bool col_store) {
  const int tiles_n = 2, rows = 2 * M, cols = tiles_n * N;
  Load *a, *b;
  TC *c, *d;
  cudaMallocManaged(&a, sizeof(Load) * rows * K);
  cudaMallocManaged(&b, sizeof(Load) * K * cols);
  cudaMallocManaged(&c, sizeof(TC) * rows * cols);
  cudaMallocManaged(&d, sizeof(TC) * rows * cols);
  const bool a_row = std::is_same<LA, wmma::row_major>::value;
  const bool b_row = std::is_same<LB, wmma::row_major>::value;
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < K; ++k)
      a[a_row ? i * K + k : k * rows + i] = from_int<Load>((i * 3 + k * 5) % 7 - 3);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < cols; ++j)
      b[b_row ? k * cols + j : j * K + k] = from_int<Load>((k * 2 + j * 3) % 5 - 2);
  for (int i = 0; i < rows * cols; ++i) c[i] = from_int<TC>(i % 9 - 4);
  tiles<M, N, K, TA, LA, TB, LB, TC, Load><<<1, 128>>>(a, b, c, d, tiles_n, col_store);
  const cudaError_t e = cudaDeviceSynchronize();
  double sum = 0, wsum = 0;
  int wrong = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      double ref = to_double(c[i * cols + j]) + 1;
      for (int k = 0; k < K; ++k)
        ref += to_double(a[a_row ? i * K + k : k * rows + i]) *
               to_double(b[b_row ? k * cols + j : j * K + k]);
      const double got = to_double(d[col_store ? j * rows + i : i * cols + j]);
      wrong += got != ref;
      sum += got;
      wsum += got * ((i * 31 + j * 17) % 13);
    }
  printf("%-34s %s: sum %.1f weighted %.1f, %d of %d differ from the host\n", name,
         cudaGetErrorName(e), sum, wsum, wrong, rows * cols);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
}

__global__ void tf32_round(const float* in, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = wmma::__float_to_tf32(in[i]);
}

int main() {
  using R = wmma::row_major;
  using C = wmma::col_major;
  run<16, 16, 16, __half, R, __half, C, float>("half m16n16k16 row/col float", false);
  run<16, 16, 16, __half, C, __half, R, float>("half m16n16k16 col/row float, col", true);
  run<16, 16, 16, __half, R, __half, R, __half>("half m16n16k16 row/row half", false);
  run<32, 8, 16, __half, R, __half, C, float>("half m32n8k16", false);
  run<8, 32, 16, __half, R, __half, C, float>("half m8n32k16", true);
  run<16, 16, 16, __nv_bfloat16, R, __nv_bfloat16, C, float>("bf16 m16n16k16", false);
  run<32, 8, 16, __nv_bfloat16, C, __nv_bfloat16, C, float>("bf16 m32n8k16 col/col", false);
  run<16, 16, 8, wmma::precision::tf32, R, wmma::precision::tf32, C, float, float>(
      "tf32 m16n16k8", false);
  run<8, 8, 4, double, R, double, C, double>("double m8n8k4", false);
  run<8, 8, 4, double, C, double, R, double>("double m8n8k4 col/row, col", true);
  run<16, 16, 16, signed char, R, signed char, C, int>("s8 m16n16k16", false);
  run<32, 8, 16, unsigned char, R, unsigned char, C, int, unsigned char>("u8 m32n8k16", false);
  run<8, 32, 16, signed char, R, signed char, R, int>("s8 m8n32k16 row/row, col", true);

  const float in[] = {1.0f, 1.00048828125f, 1.000732421875f, 1.0009765625f, -2.3456789f,
                      3.14159265f, 1e-40f, 65504.0f, 3.4e38f};
  const int n = sizeof in / sizeof in[0];
  float *din, *dout;
  cudaMallocManaged(&din, sizeof in);
  cudaMallocManaged(&dout, sizeof in);
  for (int i = 0; i < n; ++i) din[i] = in[i];
  tf32_round<<<1, 1>>>(din, dout, n);
  cudaDeviceSynchronize();
  printf("__float_to_tf32:");
  for (int i = 0; i < n; ++i) {
    unsigned u;
    memcpy(&u, &dout[i], 4);
    printf(" %08x", u);
  }
  printf("\n");
  return 0;
}
