// The driver API beside the runtime (cuda.h): initialisation, version, device queries and the
// names and descriptions of result codes, as cuda-samples' helper_cuda_drvapi.h uses them. The
// device's own values are compared with the runtime's answers (this program prints the same on
// any GPU), the result codes printed by name.
#include <cstdio>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>

namespace {

const char* name(CUresult r) {
  const char* s = nullptr;
  return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "(no name)";
}

}  // namespace

int main() {
  std::printf("cuInit(0): %s\n", name(cuInit(0)));
  std::printf("cuInit(1): %s\n", name(cuInit(1)));
  int version = 0, runtime_driver = 0;
  std::printf("cuDriverGetVersion: %s\n", name(cuDriverGetVersion(&version)));
  cudaDriverGetVersion(&runtime_driver);
  std::printf("  the runtime's cudaDriverGetVersion: %s\n", version == runtime_driver ? "same" : "differs");
  std::printf("cuDriverGetVersion(null): %s\n", name(cuDriverGetVersion(nullptr)));

  int count = 0, runtime_count = 0;
  std::printf("cuDeviceGetCount: %s\n", name(cuDeviceGetCount(&count)));
  cudaGetDeviceCount(&runtime_count);
  std::printf("  the runtime's count: %s\n", count == runtime_count ? "same" : "differs");
  CUdevice dev = -1;
  const CUresult got = cuDeviceGet(&dev, 0);
  std::printf("cuDeviceGet(0): %s, device %d\n", name(got), dev);
  CUdevice other = -1;
  std::printf("cuDeviceGet(count): %s\n", name(cuDeviceGet(&other, count)));
  std::printf("cuDeviceGet(-1): %s\n", name(cuDeviceGet(&other, -1)));
  std::printf("cuDeviceGet(null): %s\n", name(cuDeviceGet(nullptr, 0)));

  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  char device_name[256] = {0};
  const CUresult named = cuDeviceGetName(device_name, sizeof device_name, dev);
  std::printf("cuDeviceGetName: %s\n", name(named));
  std::printf("  the runtime's name: %s\n", std::strcmp(device_name, prop.name) == 0 ? "same" : "differs");
  char short_name[8];
  std::memset(short_name, 'x', sizeof short_name);
  const CUresult short_named = cuDeviceGetName(short_name, sizeof short_name, dev);
  std::printf("cuDeviceGetName into 8 bytes: %s, terminated: %s\n", name(short_named),
              std::memchr(short_name, 0, sizeof short_name) ? "yes" : "no");
  std::printf("  the runtime's name starts so: %s\n",
              std::strncmp(short_name, prop.name, std::strlen(short_name)) == 0 ? "yes" : "no");
  std::printf("cuDeviceGetName(device 7): %s\n", name(cuDeviceGetName(device_name, sizeof device_name, 7)));

  std::size_t bytes = 0;
  const CUresult total = cuDeviceTotalMem(&bytes, dev);
  std::printf("cuDeviceTotalMem: %s, the runtime's totalGlobalMem: %s\n", name(total),
              bytes == prop.totalGlobalMem ? "same" : "differs");
  int major = 0, minor = 0;
  const CUresult cc = cuDeviceComputeCapability(&major, &minor, dev);
  std::printf("cuDeviceComputeCapability: %s, the runtime's: %s\n", name(cc),
              major == prop.major && minor == prop.minor ? "same" : "differs");

  // Every attribute: the driver's answer against the runtime's (same values, same meaning).
  int asked = 0, same = 0, both_refuse = 0;
  for (int a = 1; a <= 160; ++a) {
    int v = -12345, w = -12345;
    const CUresult r = cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(a), dev);
    const cudaError_t e = cudaDeviceGetAttribute(&w, static_cast<cudaDeviceAttr>(a), 0);
    cudaGetLastError();
    ++asked;
    if (r == CUDA_SUCCESS && e == cudaSuccess && v == w) ++same;
    else if (r != CUDA_SUCCESS && e != cudaSuccess) ++both_refuse;
    else std::printf("  attribute %d: driver %s %d, runtime %s %d\n", a, name(r), v, cudaGetErrorName(e), w);
  }
  std::printf("attributes 1..160: %d asked, %d equal, %d refused by both\n", asked, same, both_refuse);
  int v = 0;
  std::printf("cuDeviceGetAttribute(0): %s\n", name(cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(0), dev)));
  std::printf("cuDeviceGetAttribute(null): %s\n", name(cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev)));
  cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
  std::printf("warp size %d (CU_DEVICE_ATTRIBUTE_WARP_SIZE = %d)\n", v,
              static_cast<int>(CU_DEVICE_ATTRIBUTE_WARP_SIZE));

  const int codes[] = {0, 1, 2, 3, 4, 100, 101, 200, 201, 209, 300, 400, 500, 600, 700, 701, 702,
                       710, 719, 801, 999, 12345};
  for (int c : codes) {
    const char* n = nullptr;
    const char* s = nullptr;
    const CUresult rn = cuGetErrorName(static_cast<CUresult>(c), &n);
    const CUresult rs = cuGetErrorString(static_cast<CUresult>(c), &s);
    std::printf("%d: %s %s | %s %s\n", c, name(rn), n ? n : "(null)", name(rs), s ? s : "(null)");
  }
  return 0;
}
