// The bench's workloads as OpenCL C kernels on PoCL (Debian's pocl-opencl-icd: a work-group runs
// as loops over its work-items between barriers), timed like cuemu_bench and its HIP-CPU twin:
// the same sizes, inputs, serial baselines and table (bench_common.h). Built and run by
// run_pocl.sh; POCL_MAX_PTHREAD_COUNT=1 for one core.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../bench_common.h"

namespace {

#define CK(x)                                                               \
  do {                                                                      \
    cl_int e_ = (x);                                                        \
    if (e_ != CL_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

// The kernels of cuemu_bench.cu, in OpenCL C: one row per 32 work-items, and the 256-item tree.
const char* kSource = R"CLC(
__kernel void row_copy(__global const uint4* src, __global uint4* dst, __global const int* idx,
                       int rows) {
  const int lane = get_local_id(0) % 32;
  const int row = (get_group_id(0) * get_local_size(0) + get_local_id(0)) / 32;
  if (row >= rows) return;
  __global const uint4* s = src + (size_t)row * 128;
  __global uint4* d = dst + (size_t)idx[row] * 128;
  for (int j = lane; j < 128; j += 32) d[j] = s[j];
}

__kernel void tree_reduce(__global const float* in, __global float* out) {
  __local float s[256];
  const uint t = get_local_id(0);
  s[t] = in[get_group_id(0) * 256 + t];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 256 / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) out[get_group_id(0)] = s[0];
}
)CLC";

struct cl {
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;
  cl_program prog = nullptr;
  cl_device_id dev = nullptr;
};

cl open_pocl() {
  cl c;
  cl_uint n = 0;
  CK(clGetPlatformIDs(0, nullptr, &n));
  std::vector<cl_platform_id> ps(n);
  CK(clGetPlatformIDs(n, ps.data(), nullptr));
  for (cl_platform_id p : ps) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find("Portable Computing Language") == std::string::npos) continue;
    CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &c.dev, nullptr));
    char dname[256] = {}, ver[256] = {};
    clGetDeviceInfo(c.dev, CL_DEVICE_NAME, sizeof dname, dname, nullptr);
    clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof ver, ver, nullptr);
    std::printf("PoCL: %s, device %s\n", ver, dname);
  }
  if (!c.dev) {
    std::fprintf(stderr, "pocl_bench: no PoCL platform (apt-get install pocl-opencl-icd)\n");
    std::exit(2);
  }
  cl_int e;
  c.ctx = clCreateContext(nullptr, 1, &c.dev, nullptr, nullptr, &e);
  CK(e);
  c.q = clCreateCommandQueueWithProperties(c.ctx, c.dev, nullptr, &e);
  CK(e);
  c.prog = clCreateProgramWithSource(c.ctx, 1, &kSource, nullptr, &e);
  CK(e);
  if (clBuildProgram(c.prog, 1, &c.dev, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(c.prog, c.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "pocl_bench: build failed:\n%s\n", log);
    std::exit(2);
  }
  return c;
}

template <class T>
cl_mem buffer(const cl& c, const std::vector<T>& h) {
  cl_int e;
  cl_mem m = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.size() * sizeof(T),
                            const_cast<T*>(h.data()), &e);
  CK(e);
  return m;
}

template <class T>
std::vector<T> read(const cl& c, cl_mem m, size_t n) {
  std::vector<T> h(n);
  CK(clEnqueueReadBuffer(c.q, m, CL_TRUE, 0, n * sizeof(T), h.data(), 0, nullptr, nullptr));
  return h;
}

template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) return "FAIL at " + std::to_string(i);
  return "ok";
}

struct u4 {
  uint32_t x, y, z, w;
};

bench::result bench_row_copy(const cl& c) {
  using namespace bench;
  result r{"row_copy 16Kx2KiB"};
  const size_t nvec = static_cast<size_t>(kRows) * kVecsPerRow;
  std::vector<u4> src(nvec), want(nvec), zero(nvec);
  uint64_t s = 1;
  for (auto& v : src) v = u4{static_cast<uint32_t>(mix(s)), static_cast<uint32_t>(mix(s)),
                             static_cast<uint32_t>(mix(s)), static_cast<uint32_t>(mix(s))};
  std::vector<int> idx(kRows);
  for (int i = 0; i < kRows; ++i) idx[i] = static_cast<int>((i * 7919ull) % kRows);
  cl_mem dsrc = buffer(c, src), ddst = buffer(c, zero), didx = buffer(c, idx);
  cl_int e;
  cl_kernel k = clCreateKernel(c.prog, "row_copy", &e);
  CK(e);
  const int rows = kRows;
  CK(clSetKernelArg(k, 0, sizeof dsrc, &dsrc));
  CK(clSetKernelArg(k, 1, sizeof ddst, &ddst));
  CK(clSetKernelArg(k, 2, sizeof didx, &didx));
  CK(clSetKernelArg(k, 3, sizeof rows, &rows));
  const size_t local = kRowThreads, global = static_cast<size_t>(kRows) * 32;
  time_pair(
      r,
      [&] {
        CK(clEnqueueNDRangeKernel(c.q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
        CK(clFinish(c.q));
      },
      [&] { serial_row_copy(src.data(), want.data(), idx.data(), kRows); });
  r.check = compare(read<u4>(c, ddst, nvec), want);
  clReleaseKernel(k);
  for (cl_mem m : {dsrc, ddst, didx}) clReleaseMemObject(m);
  return r;
}

bench::result bench_tree_reduce(const cl& c) {
  using namespace bench;
  result r{"tree_reduce 1M f32 x256"};
  std::vector<float> in(kReduceN), want(kReduceN / kReduceBlock);
  uint64_t s = 2;
  for (auto& v : in) v = static_cast<float>(mix(s) % 2000001) / 1000.0f - 1000.0f;
  cl_mem din = buffer(c, in), dout = buffer(c, want);
  cl_int e;
  cl_kernel k = clCreateKernel(c.prog, "tree_reduce", &e);
  CK(e);
  CK(clSetKernelArg(k, 0, sizeof din, &din));
  CK(clSetKernelArg(k, 1, sizeof dout, &dout));
  const size_t local = kReduceBlock, global = kReduceN;
  time_pair(
      r,
      [&] {
        CK(clEnqueueNDRangeKernel(c.q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
        CK(clFinish(c.q));
      },
      [&] { serial_tree_reduce(in.data(), want.data(), kReduceN); });
  r.sync_ops = static_cast<double>(kReduceN) * kReduceBarriers;
  r.check = compare(read<float>(c, dout, want.size()), want);
  clReleaseKernel(k);
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
  return r;
}

}  // namespace

int main() {
  const cl c = open_pocl();
  std::printf("PoCL, %d samples per median (threads: POCL_MAX_PTHREAD_COUNT=%s)\n", bench::reps(),
              std::getenv("POCL_MAX_PTHREAD_COUNT") ? std::getenv("POCL_MAX_PTHREAD_COUNT") : "default");
  bench::print_header("pocl_ms");
  int fails = 0;
  for (const bench::result& r : {bench_row_copy(c), bench_tree_reduce(c)}) {
    bench::print_row(r);
    if (r.check != "ok") ++fails;
  }
  return fails ? 1 : 0;
}
