// The emulated device: one H200-like GPU (ordinal 0) whose compute capability comes from
// CUEMU_ARCH ("sm_90", "90", ...; default 90). Properties that depend on the architecture
// (shared memory per block/SM, resident threads and blocks per SM) follow that architecture, so
// a launch that would not fit on the chosen GPU does not fit here either.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>

#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

constexpr int k_default_cc = 90;

struct arch_limits {
  std::size_t smem_optin;  // sharedMemPerBlockOptin
  std::size_t smem_sm;     // sharedMemPerMultiprocessor
  int threads_sm;          // maxThreadsPerMultiProcessor
  int blocks_sm;           // maxBlocksPerMultiProcessor
};

// From the CUDA C++ Programming Guide's table of technical specifications per compute capability.
arch_limits limits_for(int cc) {
  switch (cc) {
    case 70: case 72: return {98304, 98304, 2048, 32};
    case 75: return {65536, 65536, 1024, 16};
    case 80: return {166912, 167936, 2048, 32};
    case 86: return {101376, 102400, 1536, 16};
    case 87: return {166912, 167936, 2048, 16};
    case 89: return {101376, 102400, 1536, 24};
    case 120: case 121: return {101376, 102400, 1536, 32};
    default:
      if (cc >= 90) return {232448, 233472, 2048, 32};  // 90, 100, 103, 110
      if (cc >= 80) return {166912, 167936, 2048, 32};
      return {49152, 65536, 2048, 32};
  }
}

struct device_state {
  std::once_flag once;
  int cc = 0;
  cudaDeviceProp prop{};
};

device_state& state() {
  static device_state s;
  return s;
}

cudaDeviceProp make_properties(int cc) {
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "cuemu (CPU emulation of sm_%d)", cc);
  const char uuid[16] = {'c', 'u', 'e', 'm', 'u', '-', 'e', 'm', 'u', 'l', 'a', 't', 'o', 'r', 0, 1};
  std::memcpy(p.uuid.bytes, uuid, sizeof uuid);
  const arch_limits l = limits_for(cc);
  p.totalGlobalMem = std::size_t{143771} << 20;  // an H200's 141 GB
  p.sharedMemPerBlock = 49152;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.totalConstMem = 65536;
  p.major = cc / 10;
  p.minor = cc % 10;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = 132;
  p.integrated = 0;
  p.canMapHostMemory = 1;
  p.maxTexture1D = 131072;
  p.maxTexture1DMipmap = 32768;
  p.maxTexture2D[0] = 131072;
  p.maxTexture2D[1] = 65536;
  p.maxTexture2DMipmap[0] = 32768;
  p.maxTexture2DMipmap[1] = 32768;
  p.maxTexture2DLinear[0] = 131072;
  p.maxTexture2DLinear[1] = 65000;
  p.maxTexture2DLinear[2] = 2097120;
  p.maxTexture2DGather[0] = 32768;
  p.maxTexture2DGather[1] = 32768;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxTexture3DAlt[0] = 8192;
  p.maxTexture3DAlt[1] = 8192;
  p.maxTexture3DAlt[2] = 32768;
  p.maxTextureCubemap = 32768;
  p.maxTexture1DLayered[0] = 32768;
  p.maxTexture1DLayered[1] = 2048;
  p.maxTexture2DLayered[0] = 32768;
  p.maxTexture2DLayered[1] = 32768;
  p.maxTexture2DLayered[2] = 2048;
  p.maxTextureCubemapLayered[0] = 32768;
  p.maxTextureCubemapLayered[1] = 2046;
  p.maxSurface1D = 32768;
  p.maxSurface2D[0] = 131072;
  p.maxSurface2D[1] = 65536;
  p.maxSurface3D[0] = p.maxSurface3D[1] = p.maxSurface3D[2] = 16384;
  p.maxSurface1DLayered[0] = 32768;
  p.maxSurface1DLayered[1] = 2048;
  p.maxSurface2DLayered[0] = 32768;
  p.maxSurface2DLayered[1] = 32768;
  p.maxSurface2DLayered[2] = 2048;
  p.maxSurfaceCubemap = 32768;
  p.maxSurfaceCubemapLayered[0] = 32768;
  p.maxSurfaceCubemapLayered[1] = 2046;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 1;
  p.ECCEnabled = 1;
  p.pciBusID = 0;
  p.pciDeviceID = 0;
  p.pciDomainID = 0;
  p.tccDriver = 0;
  p.asyncEngineCount = 2;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 6144;
  p.l2CacheSize = 52428800;
  p.persistingL2CacheMaxSize = 39321600;
  p.maxThreadsPerMultiProcessor = l.threads_sm;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = l.smem_sm;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.isMultiGpuBoard = 0;
  p.multiGpuBoardGroupID = 0;
  p.hostNativeAtomicSupported = 0;
  p.pageableMemoryAccess = 0;
  p.concurrentManagedAccess = 1;
  p.computePreemptionSupported = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = l.smem_optin;
  p.pageableMemoryAccessUsesHostPageTables = 0;
  p.directManagedMemAccessFromHost = 0;
  p.maxBlocksPerMultiProcessor = l.blocks_sm;
  p.accessPolicyMaxWindowSize = 134213632;
  p.reservedSharedMemPerBlock = cc >= 80 ? 1024 : 0;
  p.hostRegisterSupported = 1;
  p.sparseCudaArraySupported = 1;
  p.hostRegisterReadOnlySupported = 1;
  p.timelineSemaphoreInteropSupported = 1;
  p.memoryPoolsSupported = 1;
  p.gpuDirectRDMASupported = 0;
  p.gpuDirectRDMAFlushWritesOptions = 0;
  p.gpuDirectRDMAWritesOrdering = 0;
  // POSIX file descriptors and fabric handles, as an H100 with driver 580 reports (pools shared
  // through descriptors are emulated, runtime/memory_pool.cpp; fabric handles are refused).
  p.memoryPoolSupportedHandleTypes = cudaMemHandleTypePosixFileDescriptor | cudaMemHandleTypeFabric;
  p.deferredMappingCudaArraySupported = 1;
  p.ipcEventSupported = 1;
  p.clusterLaunch = cc >= 90 ? 1 : 0;
  p.unifiedFunctionPointers = 0;
  p.deviceNumaConfig = 0;
  p.deviceNumaId = -1;
  p.mpsEnabled = 0;
  p.hostNumaId = -1;
  p.gpuPciDeviceID = 0x233510DEu;  // H200 SXM device id : NVIDIA vendor id
  p.gpuPciSubsystemID = 0;
  p.hostNumaMultinodeIpcSupported = 0;
  return p;
}

// The records of cuda_runtime.h, one per .cu (padding between them, if any, reads 0).
extern "C" const int __start_cuemu_unit_arch[] __attribute__((weak));
extern "C" const int __stop_cuemu_unit_arch[] __attribute__((weak));

int linked_units_arch() {
  int cc = 0;
  if (!__start_cuemu_unit_arch || !__stop_cuemu_unit_arch) return 0;
  for (const int* r = __start_cuemu_unit_arch; r < __stop_cuemu_unit_arch; ++r)
    if (*r >= 50 && *r < 1000 && *r > cc) cc = *r;
  return cc;
}

void init_once() {
  device_state& s = state();
  std::call_once(s.once, [&s] {
    int cc = 0;
    if (const char* env = std::getenv("CUEMU_ARCH")) cc = parse_compute_capability(env);
    if (cc == 0) cc = linked_units_arch();
    if (cc == 0) cc = k_default_cc;
    s.cc = cc;
    s.prop = make_properties(cc);
  });
}

// --- mutable device state ---
std::mutex g_mutex;
std::size_t g_limits[7] = {
    1024,     // cudaLimitStackSize
    1048576,  // cudaLimitPrintfFifoSize
    8388608,  // cudaLimitMallocHeapSize
    2,        // cudaLimitDevRuntimeSyncDepth
    2048,     // cudaLimitDevRuntimePendingLaunchCount
    64,       // cudaLimitMaxL2FetchGranularity
    0,        // cudaLimitPersistingL2CacheSize
};
cudaFuncCache g_cache_config = cudaFuncCachePreferNone;
cudaSharedMemConfig g_shmem_config = cudaSharedMemBankSizeFourByte;
unsigned int g_device_flags = 0;
thread_local int t_device = 0;

cudaError_t sticky_or_success() { return sticky_error(); }

}  // namespace

const cudaDeviceProp& device_properties() {
  init_once();
  return state().prop;
}

int emulated_compute_capability() {
  init_once();
  return state().cc;
}

void set_emulated_compute_capability(int cc) {
  init_once();
  if (cc <= 0) return;
  state().cc = cc;
  state().prop = make_properties(cc);
}

int parse_compute_capability(const char* s) {
  if (!s) return 0;
  while (*s && !std::isdigit(static_cast<unsigned char>(*s))) ++s;  // sm_, compute_, ...
  if (!*s) return 0;
  int major = 0;
  while (std::isdigit(static_cast<unsigned char>(*s))) major = major * 10 + (*s++ - '0');
  if (*s == '.') {  // "9.0"
    ++s;
    if (!std::isdigit(static_cast<unsigned char>(*s))) return 0;
    return major * 10 + (*s - '0');
  }
  return major >= 10 ? major : 0;  // "90", "sm_90a", "100"
}

std::size_t device_limit(cudaLimit limit) {
  std::lock_guard lock(g_mutex);
  const int i = static_cast<int>(limit);
  return i >= 0 && i < 7 ? g_limits[i] : 0;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

#define CUEMU_STICKY_CHECK()                                            \
  do {                                                                  \
    if (cudaError_t s_ = sticky_error(); s_ != cudaSuccess) return s_;  \
  } while (0)

extern "C" cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return record_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int* device) {
  if (!device) return record_error(cudaErrorInvalidValue);
  *device = t_device;
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  t_device = device;
  return cudaSuccess;
}

extern "C" cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  if (flags & ~static_cast<unsigned int>(cudaInitDeviceFlagsAreValid) ||
      deviceFlags & ~static_cast<unsigned int>(cudaDeviceMask))
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetValidDevices(int* device_arr, int len) {
  if (len < 0 || (len > 0 && !device_arr)) return record_error(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i)
    if (device_arr[i] != 0) return record_error(cudaErrorInvalidDevice);
  return cudaSuccess;
}

extern "C" cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (!device || !prop) return record_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  *prop = device_properties();
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = device_properties();
  const auto clamp = [](std::size_t v) { return v > 2147483647u ? 2147483647 : static_cast<int>(v); };
  int v = 0;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = clamp(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: v = clamp(p.totalConstMem); break;
    case cudaDevAttrWarpSize: v = p.warpSize; break;
    case cudaDevAttrMaxPitch: v = clamp(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = kDeviceClockKHz; break;
    case cudaDevAttrTextureAlignment: v = clamp(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: v = 1; break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: v = 0; break;
    case cudaDevAttrIntegrated: v = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: v = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: v = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: v = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: v = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: v = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: v = p.maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: v = p.maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: v = p.maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: v = p.maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: v = clamp(p.surfaceAlignment); break;
    case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: v = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
    case cudaDevAttrTccDriver: v = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: v = 2619000; break;  // kHz
    case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: v = p.maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: v = p.maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: v = p.maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: v = p.maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: v = p.maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: v = p.maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: v = p.maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: v = p.pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: v = clamp(p.texturePitchAlignment); break;
    case cudaDevAttrMaxTextureCubemapWidth: v = p.maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: v = p.maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: v = p.maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: v = p.maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: v = p.maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: v = p.maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: v = p.maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: v = p.maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: v = p.maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: v = p.maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: v = p.maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: v = p.maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: v = p.maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: v = p.maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: v = p.maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: v = p.maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: v = p.maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: v = 268435456; break;
    case cudaDevAttrMaxTexture2DLinearWidth: v = p.maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: v = p.maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: v = p.maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: v = p.maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: v = p.maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: v = p.maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = clamp(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = 2; break;
    case cudaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: v = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: v = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = clamp(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCanFlushRemoteWrites: v = 0; break;
    case cudaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
      v = p.pageableMemoryAccessUsesHostPageTables;
      break;
    case cudaDevAttrDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = clamp(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSparseCudaArraySupported: v = p.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: v = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: v = p.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: v = p.gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
      v = static_cast<int>(p.gpuDirectRDMAFlushWritesOptions);
      break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: v = p.gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes:
      v = static_cast<int>(p.memoryPoolSupportedHandleTypes);
      break;
    case cudaDevAttrClusterLaunch: v = p.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: v = p.deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: v = p.ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: v = p.major >= 9 ? 4 : 1; break;
    case cudaDevAttrNumaConfig: v = p.deviceNumaConfig; break;
    case cudaDevAttrNumaId: v = p.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: v = p.mpsEnabled; break;
    case cudaDevAttrHostNumaId: v = p.hostNumaId; break;
    case cudaDevAttrD3D12CigSupported: v = 0; break;
    case cudaDevAttrVulkanCigSupported: v = 0; break;
    case cudaDevAttrGpuPciDeviceId: v = static_cast<int>(p.gpuPciDeviceID); break;
    case cudaDevAttrGpuPciSubsystemId: v = static_cast<int>(p.gpuPciSubsystemID); break;
    case cudaDevAttrHostNumaMemoryPoolsSupported: v = 0; break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: v = p.hostNumaMultinodeIpcSupported; break;
    case cudaDevAttrHostMemoryPoolsSupported: v = 0; break;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: v = 0; break;
    default: {
      // Attributes the runtime's header calls reserved and the driver API names: what an H100
      // answers (driver 580; emulator/tests/ipc/expected/device_attributes.txt). Those of
      // Hopper's own features (tensor maps, fabric handles, unified function pointers) are 0
      // below compute capability 9.0.
      const bool hopper = p.major >= 9;
      switch (static_cast<int>(attr)) {
        case 44: v = 1; break;   // CAN_TEX2D_GATHER (deprecated)
        case 92: v = 0; break;   // CAN_USE_STREAM_MEM_OPS_V1 (deprecated)
        case 93: v = 0; break;   // CAN_USE_64_BIT_STREAM_MEM_OPS_V1 (deprecated)
        case 94: v = 0; break;   // CAN_USE_STREAM_WAIT_VALUE_NOR_V1 (deprecated)
        case 96: v = 1; break;   // COOPERATIVE_MULTI_DEVICE_LAUNCH (deprecated)
        case 102: v = 1; break;  // VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        case 103: v = 1; break;  // HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED
        case 104: v = 0; break;  // HANDLE_TYPE_WIN32_HANDLE_SUPPORTED
        case 105: v = 0; break;  // HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED
        case 107: v = 1; break;  // GENERIC_COMPRESSION_SUPPORTED
        case 110: v = 1; break;  // GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED
        case 122: v = 1; break;  // CAN_USE_64_BIT_STREAM_MEM_OPS
        case 123: v = 1; break;  // CAN_USE_STREAM_WAIT_VALUE_NOR
        case 124: v = 1; break;  // DMA_BUF_SUPPORTED
        case 127: v = hopper; break;  // TENSOR_MAP_ACCESS_SUPPORTED
        case 128: v = hopper; break;  // HANDLE_TYPE_FABRIC_SUPPORTED
        case 129: v = hopper; break;  // UNIFIED_FUNCTION_POINTERS
        case 132: v = 0; break;  // MULTICAST_SUPPORTED
        case 136: v = 0; break;  // MEM_DECOMPRESS_ALGORITHM_MASK
        case 137: v = 0; break;  // MEM_DECOMPRESS_MAXIMUM_LENGTH
        case 141: v = 1; break;  // HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        case 145: v = 1; break;  // HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        case 146: v = 0; break;  // HOST_ALLOC_DMA_BUF_SUPPORTED
        default: return record_error(cudaErrorInvalidValue);
      }
      break;
    }
  }
  *value = v;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (!pciBusId || len <= 0) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  const cudaDeviceProp& p = device_properties();
  std::snprintf(pciBusId, static_cast<std::size_t>(len), "%08X:%02X:%02X.0", p.pciDomainID,
                p.pciBusID, p.pciDeviceID);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (!device || !pciBusId) return record_error(cudaErrorInvalidValue);
  unsigned int domain = 0, bus = 0, dev = 0;
  if (std::sscanf(pciBusId, "%x:%x:%x", &domain, &bus, &dev) != 3 &&
      std::sscanf(pciBusId, "%x:%x", &bus, &dev) != 2)
    return record_error(cudaErrorInvalidValue);
  const cudaDeviceProp& p = device_properties();
  if (domain != static_cast<unsigned int>(p.pciDomainID) ||
      bus != static_cast<unsigned int>(p.pciBusID) || dev != static_cast<unsigned int>(p.pciDeviceID))
    return record_error(cudaErrorInvalidDevice);
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (!canAccessPeer) return record_error(cudaErrorInvalidValue);
  if (device != 0 || peerDevice != 0) return record_error(cudaErrorInvalidDevice);
  *canAccessPeer = 0;
  return cudaSuccess;
}

// One device: there is no pair of two different devices to describe. An H200 alone answers
// cudaErrorInvalidDevice for (0, 0), (0, 1) and an unknown attribute alike.
extern "C" cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice,
                                                 int dstDevice) {
  (void)attr;
  (void)srcDevice;
  (void)dstDevice;
  if (!value) return record_error(cudaErrorInvalidValue);
  return record_error(cudaErrorInvalidDevice);
}

// There is no other device, and a device is not its own peer: an H200 alone answers
// cudaErrorPeerAccessUnsupported (enable) and cudaErrorPeerAccessNotEnabled (disable) for device 0,
// cudaErrorInvalidDevice for any other.
extern "C" cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (flags != 0) return record_error(cudaErrorInvalidValue);
  return record_error(peerDevice == 0 ? cudaErrorPeerAccessUnsupported : cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  CUEMU_STICKY_CHECK();
  return record_error(peerDevice == 0 ? cudaErrorPeerAccessNotEnabled : cudaErrorInvalidDevice);
}

extern "C" cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if (flags & ~static_cast<unsigned int>(cudaDeviceMask)) return record_error(cudaErrorInvalidValue);
  const unsigned int sched = flags & cudaDeviceScheduleMask;
  if (sched != cudaDeviceScheduleAuto && sched != cudaDeviceScheduleSpin &&
      sched != cudaDeviceScheduleYield && sched != cudaDeviceScheduleBlockingSync)
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  g_device_flags = flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (!flags) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  *flags = g_device_flags | cudaDeviceMapHost;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return record_error(cudaErrorInvalidValue);
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (!runtimeVersion) return record_error(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

// Waits for the work of every stream; the result is the sticky error of a fault, if any.
extern "C" cudaError_t cudaCtxResetPersistingL2Cache(void) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return cudaSuccess;  // no cache is modelled: no persisting lines
}

extern "C" cudaError_t cudaDeviceSynchronize(void) {
  if (on_cuda_thread()) device_call_unsupported("cudaDeviceSynchronize()");
  if (cudaError_t c = capture_forbids_unsafe_call(); c != cudaSuccess) return record_error(c);
  synchronize_device();
  flush_device_output();
  return sticky_or_success();
}

// Frees every allocation, stream and event and forgets this thread's last error. A sticky error
// stays (the emulated process had a fault, which it reports when it exits) and is returned.
extern "C" cudaError_t cudaDeviceReset(void) {
  destroy_all_streams();  // after their work is done
  flush_device_output();
  free_all_allocations();
  destroy_all_events();
  {
    std::lock_guard lock(g_mutex);
    g_limits[0] = 1024;
    g_limits[1] = 1048576;
    g_limits[2] = 8388608;
    g_cache_config = cudaFuncCachePreferNone;
    g_shmem_config = cudaSharedMemBankSizeFourByte;
    g_device_flags = 0;
  }
  (void)cudaGetLastError();
  return sticky_error();
}

extern "C" cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  CUEMU_STICKY_CHECK();
  const int i = static_cast<int>(limit);
  if (i < 0 || i > cudaLimitPersistingL2CacheSize) return record_error(cudaErrorUnsupportedLimit);
  if (limit == cudaLimitMaxL2FetchGranularity && value != 0 && value != 32 && value != 64 &&
      value != 128)
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  g_limits[i] = value;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t* pValue, cudaLimit limit) {
  CUEMU_STICKY_CHECK();
  if (!pValue) return record_error(cudaErrorInvalidValue);
  const int i = static_cast<int>(limit);
  if (i < 0 || i > cudaLimitPersistingL2CacheSize) return record_error(cudaErrorUnsupportedLimit);
  std::lock_guard lock(g_mutex);
  *pValue = g_limits[i];
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  CUEMU_STICKY_CHECK();
  if (!pCacheConfig) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  *pCacheConfig = g_cache_config;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  CUEMU_STICKY_CHECK();
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
    return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  g_cache_config = cacheConfig;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
  CUEMU_STICKY_CHECK();
  if (!pConfig) return record_error(cudaErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  *pConfig = g_shmem_config;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  CUEMU_STICKY_CHECK();
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;  // the bank size is fixed (four bytes), as on every GPU since Maxwell
}

extern "C" cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  CUEMU_STICKY_CHECK();
  if (!func) return record_error(cudaErrorInvalidDeviceFunction);
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return cudaSuccess;
}

extern "C" cudaError_t cudaProfilerStart(void) {
  CUEMU_STICKY_CHECK();
  return cudaSuccess;
}

extern "C" cudaError_t cudaProfilerStop(void) {
  CUEMU_STICKY_CHECK();
  return cudaSuccess;
}
