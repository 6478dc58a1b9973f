// Launch configuration errors as a GPU with a CUDA 13 runtime gives them (H200), and the ways
// to launch: <<<>>>, cudaLaunchKernel, cudaLaunchKernelEx, templates, function pointers.
#include "device_buffer.h"

#include <cstring>

__global__ void touch(int* flag) {
  if (threadIdx.x + blockIdx.x + blockIdx.y + blockIdx.z == 0) flag[0] = 1;  // one writer
}

static void expect_invalid(dim3 grid, dim3 block, size_t smem, const char* what) {
  device_buffer<int> flag(1);
  touch<<<grid, block, smem>>>(flag.ptr);
  const cudaError_t e = cudaGetLastError();
  EXPECT_EQ(e, cudaErrorInvalidValue) << what;
  EXPECT_STREQ(cudaGetErrorString(e), "invalid argument") << what;
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << what << ": cudaGetLastError reads it once";
  EXPECT_EQ(flag.to_host()[0], 0) << what << ": the kernel must not run";
}

TEST(Launch, ConfigurationErrorsLikeAnH200) {
  expect_invalid(1, 1025, 0, "a block of 1025 threads");
  expect_invalid(dim3(1, 70000), 32, 0, "gridDim.y of 70000");
  expect_invalid(1, dim3(32, 32, 2), 0, "a block of 32x32x2");
  expect_invalid(1, dim3(1, 1, 65), 0, "blockDim.z of 65");
  expect_invalid(1, 32, 100 * 1024, "100 KiB of dynamic shared memory without the attribute");
  expect_invalid(0, 32, 0, "a grid of 0 blocks");
  EXPECT_EQ(cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024),
            cudaErrorInvalidValue);
  expect_invalid(1, 32, 300 * 1024, "300 KiB with the attribute");
}

TEST(Launch, LargestValidConfigurationsRun) {
  device_buffer<int> flag(1);
  touch<<<dim3(1, 65535, 1), dim3(1024, 1, 1)>>>(flag.ptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue - cudaErrorInvalidValue);  // cudaSuccess
  EXPECT_EQ(flag.to_host()[0], 1);
}

__global__ void axpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

TEST(Launch, CudaLaunchKernelWithAVoidPointer) {
  const int n = 300;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) hx[i] = static_cast<float>(i), hy[i] = 1.f;
  device_buffer<float> x(hx), y(hy);
  float a = 2.f;
  int nn = n;
  void* args[] = {&a, &x.ptr, &y.ptr, &nn};
  ASSERT_EQ(cudaLaunchKernel((const void*)axpy, dim3(3), dim3(128), args, 0, nullptr), cudaSuccess);
  auto r = y.to_host();
  for (int i = 0; i < n; ++i) EXPECT_EQ(r[i], 1.f + 2.f * i);
  // Typed form, and a bad configuration through it.
  ASSERT_EQ(cudaLaunchKernel(axpy, dim3(3), dim3(128), args), cudaSuccess);
  EXPECT_EQ(y.to_host()[5], 1.f + 4.f * 5);
  EXPECT_EQ(cudaLaunchKernel((const void*)axpy, dim3(3), dim3(2048), args, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

namespace ns {
template <class T, int Scale>
__global__ void scale(T* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * static_cast<T>(Scale);
}
}  // namespace ns

template <class T>
void run_scale(T* p, int n) {
  ns::scale<T, (8 >> 1)><<<(n + 63) >> 6, 1 << 6>>>(p, n);
}

#define LAUNCH_BY_MACRO(kernel, n, ...) kernel<<<((n) + 31) / 32, 32>>>(__VA_ARGS__)

TEST(Launch, TemplatesMacrosAndShiftsInTheConfiguration) {
  std::vector<double> h(100, 1.5);
  device_buffer<double> d(h);
  run_scale(d.ptr, 100);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (double v : d.to_host()) EXPECT_EQ(v, 6.0);
  LAUNCH_BY_MACRO((ns::scale<double, 2>), 100, d.ptr, 100);
  for (double v : d.to_host()) EXPECT_EQ(v, 12.0);
}

TEST(Launch, ThroughAFunctionPointerAndLaunchKernelEx) {
  std::vector<float> hx(64, 1.f), hy(64, 0.f);
  device_buffer<float> x(hx), y(hy);
  void (*fp)(float, const float*, float*, int) = axpy;
  fp<<<1, 64>>>(3.f, x.ptr, y.ptr, 64);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  cudaLaunchConfig_t cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.gridDim = dim3(2);
  cfg.blockDim = dim3(32);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  ASSERT_EQ(cudaLaunchKernelEx(&cfg, axpy, 1.f, (const float*)x.ptr, y.ptr, 64), cudaSuccess);
  for (float v : y.to_host()) EXPECT_EQ(v, 4.f);
}

__constant__ float coefficients[4];
__device__ int device_counter;

__global__ void use_symbols(float* out) {
  out[threadIdx.x] = coefficients[threadIdx.x % 4] * static_cast<float>(threadIdx.x);
  atomicAdd(&device_counter, 1);
}

TEST(Launch, ConstantAndDeviceVariablesThroughSymbols) {
  const float c[4] = {1.f, 2.f, 3.f, 4.f};
  ASSERT_EQ(cudaMemcpyToSymbol(coefficients, c, sizeof c), cudaSuccess);
  const int zero = 0;
  ASSERT_EQ(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero), cudaSuccess);
  device_buffer<float> out(64);
  use_symbols<<<2, 64>>>(out.ptr);
  auto r = out.to_host();
  for (int t = 0; t < 64; ++t) EXPECT_EQ(r[t], c[t % 4] * t);
  int count = 0;
  ASSERT_EQ(cudaMemcpyFromSymbol(&count, device_counter, sizeof count), cudaSuccess);
  EXPECT_EQ(count, 128);
}

// Parameters are per thread: a kernel that changes its by-value parameters (a scalar and a
// struct) changes only its own copies, whichever path starts its threads.
struct window {
  int base, count;
};

__global__ void consume_parameters(int* out, int n, window w) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = n * 1000 + w.base * 10 + w.count;
  n = -1;  // a GPU thread's own copy
  w.base = -1;
  w.count += i;
  if (i == 0) out[blockDim.x * gridDim.x] = n + w.base;
}

TEST(Launch, ByValueParametersAreEachThreadsOwn) {
  const unsigned blocks = 3, threads = 70;  // partial warps
  device_buffer<int> out(blocks * threads + 1);
  consume_parameters<<<blocks, threads>>>(out.ptr, 7, window{4, 2});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  auto h = out.to_host();
  for (unsigned i = 0; i < blocks * threads; ++i) ASSERT_EQ(h[i], 7042) << "thread " << i;
  EXPECT_EQ(h[blocks * threads], -2);
}
