// libcu++ (CCCL) in device code: cuda::std containers and utilities, cuda::atomic_ref and
// cuda::atomic at each scope; and cooperative_groups::memcpy_async. Output recorded on an H200.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/tuple>
#include <cstdio>

__device__ cuda::atomic<int, cuda::thread_scope_device> device_counter{0};

__global__ void utilities(int* out, float* f) {
  cuda::std::array<int, 4> a{1, 2, 3, 4};
  cuda::std::span<int> s(out, 8);
  cuda::atomic_ref<int, cuda::thread_scope_device> sum(out[4]);
  sum.fetch_add(a[threadIdx.x % 4], cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_block> mx(out[5]);
  mx.fetch_max(static_cast<int>((threadIdx.x * 37) % 50));
  cuda::atomic_ref<unsigned, cuda::thread_scope_system> bits(reinterpret_cast<unsigned&>(out[6]));
  bits.fetch_or(1u << (threadIdx.x % 32));
  device_counter.fetch_add(1);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    s[0] = cuda::std::popcount(0xf0f0u);
    s[1] = cuda::std::countl_zero(1u);
    s[2] = static_cast<int>(cuda::std::bit_ceil(37u));
    s[3] = cuda::std::numeric_limits<short>::max();
    cuda::std::complex<float> c(1.f, 2.f);
    c = c * c + cuda::std::complex<float>(0.5f, 0.f);
    f[0] = c.real();
    f[1] = c.imag();
    f[2] = cuda::std::abs(cuda::std::complex<float>(3.f, 4.f));
    auto t = cuda::std::make_tuple(1, 2.5f, 'x');
    f[3] = cuda::std::get<1>(t) + cuda::std::get<0>(t);
    cuda::std::optional<int> o;
    out[7] = o.value_or(-7) + (o.has_value() ? 100 : 0);
  }
}

// Each block stages a tile of `in` into shared memory with cooperative_groups::memcpy_async,
// waits for it, and writes the tile reversed.
__global__ void staged_reverse(const int* in, int* out) {
  namespace cg = cooperative_groups;
  __shared__ int tile[128];
  cg::thread_block block = cg::this_thread_block();
  const int base = blockIdx.x * 128;
  cg::memcpy_async(block, tile, in + base, sizeof(tile));
  cg::wait(block);
  out[base + threadIdx.x] = tile[127 - threadIdx.x];
}

int main() {
  int* out;
  float* f;
  cudaMallocManaged(&out, 8 * sizeof(int));
  cudaMallocManaged(&f, 4 * sizeof(float));
  for (int i = 0; i < 8; ++i) out[i] = 0;
  utilities<<<2, 64>>>(out, f);
  cudaDeviceSynchronize();
  int counter = 0;
  cudaMemcpyFromSymbol(&counter, device_counter, sizeof counter);
  std::printf("popcount %d, countl_zero %d, bit_ceil %d, short max %d\n", out[0], out[1], out[2], out[3]);
  std::printf("atomic sum %d, max %d, bits %08x, counter %d, optional %d\n", out[4], out[5],
              static_cast<unsigned>(out[6]), counter, out[7]);
  std::printf("complex %g %g, abs %g, tuple %g\n", f[0], f[1], f[2], f[3]);

  const int n = 4 * 128;
  int *in, *rev;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&rev, n * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i * 3 + 1;
  staged_reverse<<<4, 128>>>(in, rev);
  cudaDeviceSynchronize();
  long long check = 0;
  for (int i = 0; i < n; ++i) check = check * 31 + rev[i];
  std::printf("staged reverse: %d %d %d %d, digest %lld\n", rev[0], rev[127], rev[128], rev[n - 1], check);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
