// The launch path: the configuration pushed by a translated <<<...>>>, validation as a GPU does
// it (CUDA 13 on an H200), per-kernel attributes, cudaLaunchKernel, and the run itself.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <cuda_runtime.h>

#include "exec/block.h"
#include "exec/grid.h"
#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

struct call_configuration {
  dim3 grid, block;
  std::size_t shared_mem;
  cudaStream_t stream;
  source_location where;
  bool cooperative = false;
};
thread_local std::vector<call_configuration> t_configurations;
thread_local cudaError_t t_last_launch = cudaSuccess;
// make_kernel_launch: the launch the stub makes goes here instead of running.
thread_local std::shared_ptr<const kernel_launch>* t_launch_sink = nullptr;

constexpr int kDefaultDynamicShared = 48 * 1024;

struct kernel_attributes {
  int max_dynamic_shared = kDefaultDynamicShared;
  int carveout = -1;
};

std::mutex g_kernels_mutex;
std::unordered_map<const void*, kernel_attributes>& attributes() {
  static std::unordered_map<const void*, kernel_attributes> m;
  return m;
}
std::unordered_map<const void*, registered_kernel>& registry() {
  static std::unordered_map<const void*, registered_kernel> m;
  return m;
}

// Bumped (under g_kernels_mutex) by every change of a kernel's attributes.
std::atomic<unsigned> g_attributes_generation{0};

// A loop of launches of one kernel looks its attributes up once per thread, not once per launch.
kernel_attributes attributes_of(const void* fn) {
  thread_local const void* cached_fn = nullptr;
  thread_local unsigned cached_generation = 0;
  thread_local kernel_attributes cached;
  if (fn == cached_fn && g_attributes_generation.load(std::memory_order_acquire) == cached_generation)
    return cached;
  std::lock_guard<std::mutex> lock(g_kernels_mutex);
  auto it = attributes().find(fn);
  cached = it == attributes().end() ? kernel_attributes{} : it->second;
  cached_fn = fn;
  cached_generation = g_attributes_generation.load(std::memory_order_relaxed);
  return cached;
}

cudaError_t validate(const call_configuration& c, const void* fn, int& max_dynamic_shared) {
  const cudaDeviceProp& p = device_properties();
  const dim3 g = c.grid, b = c.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0)
    return cudaErrorInvalidValue;
  if (b.x > static_cast<unsigned>(p.maxThreadsDim[0]) ||
      b.y > static_cast<unsigned>(p.maxThreadsDim[1]) ||
      b.z > static_cast<unsigned>(p.maxThreadsDim[2]))
    return cudaErrorInvalidValue;
  if (static_cast<unsigned long long>(b.x) * b.y * b.z >
      static_cast<unsigned long long>(p.maxThreadsPerBlock))
    return cudaErrorInvalidValue;
  if (g.x > static_cast<unsigned>(p.maxGridSize[0]) || g.y > static_cast<unsigned>(p.maxGridSize[1]) ||
      g.z > static_cast<unsigned>(p.maxGridSize[2]))
    return cudaErrorInvalidValue;
  max_dynamic_shared = attributes_of(fn).max_dynamic_shared;
  if (c.shared_mem > static_cast<std::size_t>(max_dynamic_shared)) return cudaErrorInvalidValue;
  if (c.stream && !valid_stream(c.stream)) return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

// What a launch runs: the kernel with its parameters (not copied here), its name, shape and
// call site.
void describe_launch(launch_state& L, const call_configuration& c, const kernel_entry& e,
                     int max_dynamic_shared) {
  L.entry = e;
  L.max_dynamic_shared = max_dynamic_shared;
  L.kernel_name = kernel_display_name(e.name, e.signature);
  L.grid = c.grid;
  L.block = c.block;
  L.dynamic_shared = c.shared_mem;
  L.site = c.where;
}

// A <<<...>>> in device code: checked like a host launch (the stream must be one of the device
// runtime's), then queued as work of the calling thread's grid with a copy of the parameters.
// What an H200 answers: a bad configuration is cudaErrorInvalidConfiguration (the host gets
// cudaErrorInvalidValue for the same); there is no nesting limit as such, but every grid still
// running holds one of cudaLimitDevRuntimePendingLaunchCount's slots, so a chain of launches fails
// with cudaErrorLaunchPendingCountExceeded at that depth.
cudaError_t launch_from_device(const call_configuration& c, const kernel_entry& e) {
  call_configuration host_checked = c;
  host_checked.stream = nullptr;
  int max_dynamic_shared = 0;
  if (validate(host_checked, e.fn, max_dynamic_shared) != cudaSuccess)
    return cudaErrorInvalidConfiguration;
  if (!valid_device_stream(c.stream)) return cudaErrorInvalidResourceHandle;
  if (c.cooperative) return cudaErrorNotSupported;
  launch_state* parent = current_executor()->current_launch();
  if (static_cast<std::size_t>(parent->depth) >=
      device_limit(cudaLimitDevRuntimePendingLaunchCount))
    return cudaErrorLaunchPendingCountExceeded;
  std::shared_ptr<launch_state> L(new launch_state, [](launch_state* l) {
    if (l->entry.params) l->entry.free_params(const_cast<void*>(l->entry.params));
    delete l;
  });
  describe_launch(*L, c, e, max_dynamic_shared);
  L->entry.params = e.copy_params(e.params);
  L->depth = parent->depth + 1;
  device_work w;
  w.tail = c.stream == cudaStreamTailLaunch;
  w.grid = std::move(L);
  issue_device_work(*parent, linear_block_index(*parent), std::move(w));
  return cudaSuccess;
}

}  // namespace

int push_call_configuration(dim3 grid, dim3 block, std::size_t shared_mem, cudaStream_t stream,
                            const char* file, int line) {
  // On a CUDA thread: the kernel called next is launched (dynamic parallelism). Nothing can
  // switch lanes between this and that call (the arguments are evaluated in between, and the
  // stub's prologue reads the flag first thing).
  if (current_executor()) t_device_launch_pending = true;
  t_configurations.push_back({grid, block, shared_mem, stream, {file, line}, false});
  return 0;
}

void make_configuration_cooperative() noexcept {
  if (!t_configurations.empty()) t_configurations.back().cooperative = true;
}

cudaError_t launch(const kernel_entry& e) {
  if (t_configurations.empty()) {
    std::fprintf(stderr,
                 "cuemu: kernel %s was called from host code without <<<...>>> or "
                 "cudaLaunchKernel\n",
                 e.name ? e.name : "?");
    return t_last_launch = record_error(cudaErrorInvalidConfiguration);
  }
  const call_configuration c = t_configurations.back();
  t_configurations.pop_back();
  if (current_executor()) {
    t_device_launch_pending = false;
    return t_last_launch = record_error(launch_from_device(c, e));
  }
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return t_last_launch = record_error(s);
  int max_dynamic_shared = 0;
  if (cudaError_t v = validate(c, e.fn, max_dynamic_shared); v != cudaSuccess)
    return t_last_launch = record_error(v);

  if (c.cooperative) {
    launch_state probe;
    probe.block = c.block;
    probe.dynamic_shared = c.shared_mem;
    probe.max_dynamic_shared = max_dynamic_shared;
    if (static_cast<std::size_t>(c.grid.x) * c.grid.y * c.grid.z > resident_grid_limit(probe))
      return t_last_launch = record_error(cudaErrorCooperativeLaunchTooLarge);
  }

  if (!t_launch_sink)
    if (cudaError_t x = capture_forbids_legacy(c.stream); x != cudaSuccess)
      return t_last_launch = record_error(x);
  if (t_launch_sink || capturing(c.stream)) {
    // Kept by a graph node: its own copy of the parameters, run at each graph launch.
    auto k = std::make_shared<kernel_launch>();
    k->entry = e;
    k->entry.params = e.copy_params(e.params);
    k->grid = c.grid;
    k->block = c.block;
    k->shared_mem = c.shared_mem;
    k->max_dynamic_shared = max_dynamic_shared;
    k->cooperative = c.cooperative;
    k->site = c.where;
    if (t_launch_sink) {
      *t_launch_sink = std::move(k);
      return t_last_launch = cudaSuccess;
    }
    node_body b;
    b.type = cudaGraphNodeTypeKernel;
    b.kernel_params.func = const_cast<void*>(e.fn);
    b.kernel_params.gridDim = c.grid;
    b.kernel_params.blockDim = c.block;
    b.kernel_params.sharedMemBytes = static_cast<unsigned>(c.shared_mem);
    b.kernel = std::move(k);
    return t_last_launch = record_error(capture_node(c.stream, std::move(b)));
  }

  auto L = std::make_unique<launch_state>();
  describe_launch(*L, c, e, max_dynamic_shared);
  L->cooperative = c.cooperative;
  if (c.cooperative) L->grid_sync = std::make_unique<launch_state::grid_barrier>();
  // A GPU writes out earlier kernels' printf output at a launch.
  flush_device_output();
  if (streams_synchronous()) {
    enqueue(c.stream, [&L] { run_grid(*L); }, {}, "kernel", &L->kernel_name);
  } else {
    // Queued: the launch owns a copy of the parameters until its grid has run. The work holds a
    // plain pointer (small enough for std::function to keep without an allocation of its own)
    // and is run exactly once.
    L->entry.params = e.copy_params(e.params);
    launch_state* owned = L.get();
    const std::string* name = &L->kernel_name;
    enqueue(c.stream, [owned] {
      std::unique_ptr<launch_state> l(owned);
      run_grid(*l);
      l->entry.free_params(const_cast<void*>(l->entry.params));
      l->entry.params = nullptr;
    }, {}, "kernel", name);
    (void)L.release();
  }
  // A fault is reported and sticky; like an asynchronous GPU launch, the launch itself succeeded.
  return t_last_launch = cudaSuccess;
}

kernel_launch::~kernel_launch() {
  if (entry.params && entry.free_params) entry.free_params(const_cast<void*>(entry.params));
}

cudaError_t make_kernel_launch(const void* fn, dim3 grid, dim3 block, void** args,
                               std::size_t shared_mem, std::shared_ptr<const kernel_launch>& out) {
  if (!fn) return cudaErrorInvalidDeviceFunction;
  const registered_kernel* k = find_registered_kernel(fn);
  if (!k) {
    std::fprintf(stderr,
                 "cuemu: a graph kernel node names %p, which is not a known __global__ function "
                 "(a template instance must be launched once with <<<>>>, passed without a cast, "
                 "or explicitly instantiated)\n",
                 fn);
    return cudaErrorInvalidDeviceFunction;
  }
  if (!args && k->param_count != 0) return cudaErrorInvalidValue;
  push_call_configuration(grid, block, shared_mem, nullptr, "<graph kernel node>", 0);
  std::shared_ptr<const kernel_launch> made;
  t_launch_sink = &made;
  t_last_launch = cudaSuccess;
  k->launch_with_args(fn, args);
  t_launch_sink = nullptr;
  if (t_last_launch != cudaSuccess) return t_last_launch;
  if (!made) return cudaErrorInvalidValue;
  out = std::move(made);
  return cudaSuccess;
}

void run_kernel_launch(const kernel_launch& k) {
  launch_state L;
  L.entry = k.entry;
  L.cooperative = k.cooperative;
  if (k.cooperative) L.grid_sync = std::make_unique<launch_state::grid_barrier>();
  L.max_dynamic_shared = k.max_dynamic_shared;
  L.kernel_name = kernel_display_name(k.entry.name, k.entry.signature);
  L.grid = k.grid;
  L.block = k.block;
  L.dynamic_shared = k.shared_mem;
  L.site = k.site;
  run_grid(L);
}

void register_kernel(const void* fn, const registered_kernel& k) {
  std::lock_guard<std::mutex> lock(g_kernels_mutex);
  registry()[fn] = k;
}

const registered_kernel* find_registered_kernel(const void* fn) {
  std::lock_guard<std::mutex> lock(g_kernels_mutex);
  auto it = registry().find(fn);
  return it == registry().end() ? nullptr : &it->second;
}

int resident_blocks_per_multiprocessor(unsigned block_threads, std::size_t dynamic_shared,
                                       int max_dynamic_shared) {
  const cudaDeviceProp& p = device_properties();
  if (block_threads == 0 || block_threads > static_cast<unsigned>(p.maxThreadsPerBlock)) return 0;
  if (dynamic_shared > static_cast<std::size_t>(max_dynamic_shared)) return 0;
  const int warps = static_cast<int>((block_threads + 31) / 32);
  const int by_threads = p.maxThreadsPerMultiProcessor / (warps * 32);
  // Each resident block also reserves 1 KiB of shared memory for the system on sm_80 and later.
  const int by_shared = static_cast<int>(p.sharedMemPerMultiprocessor / (dynamic_shared + 1024));
  return std::min({by_threads, by_shared, p.maxBlocksPerMultiProcessor});
}

std::size_t resident_grid_limit(const launch_state& l) {
  const int per_sm = resident_blocks_per_multiprocessor(l.block.x * l.block.y * l.block.z,
                                                        l.dynamic_shared, l.max_dynamic_shared);
  return static_cast<std::size_t>(per_sm) *
         static_cast<std::size_t>(device_properties().multiProcessorCount);
}

cudaError_t launch_registered(const void* fn, dim3 grid, dim3 block, void** args,
                              std::size_t shared_mem, cudaStream_t stream, const char* file,
                              int line, bool cooperative) {
  if (!fn) return record_error(cudaErrorInvalidDeviceFunction);
  const registered_kernel* k = find_registered_kernel(fn);
  if (!k) {
    std::fprintf(stderr,
                 "cuemu: %s:%d: cudaLaunchKernel: %p is not a known __global__ function (a "
                 "template instance must be launched once with <<<>>>, passed without a cast, or "
                 "explicitly instantiated)\n",
                 file, line, fn);
    return record_error(cudaErrorInvalidDeviceFunction);
  }
  if (!args && k->param_count != 0) {
    std::fprintf(stderr, "cuemu: %s:%d: cudaLaunchKernel: %s takes %zu parameter(s) and args is null\n",
                 file, line, k->name ? k->name : "the kernel", k->param_count);
    return record_error(cudaErrorInvalidValue);
  }
  push_call_configuration(grid, block, shared_mem, stream, file, line);
  if (cooperative) make_configuration_cooperative();
  t_last_launch = cudaSuccess;
  k->launch_with_args(fn, args);
  return t_last_launch;
}

cudaError_t last_launch_result() noexcept { return t_last_launch; }

}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return launch_registered(func, gridDim, blockDim, args, sharedMem, stream, "<cudaLaunchKernel>", 0);
}

extern "C" cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!func) return record_error(cudaErrorInvalidDeviceFunction);
  const cudaDeviceProp& p = device_properties();
  std::lock_guard<std::mutex> lock(g_kernels_mutex);
  kernel_attributes& a = attributes()[func];
  g_attributes_generation.fetch_add(1, std::memory_order_release);
  switch (attr) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || static_cast<std::size_t>(value) > p.sharedMemPerBlockOptin)
        return record_error(cudaErrorInvalidValue);
      a.max_dynamic_shared = value;
      return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return record_error(cudaErrorInvalidValue);
      a.carveout = value;
      return cudaSuccess;
    default:
      return cudaSuccess;  // accepted and without effect on a CPU (cluster/scheduling hints)
  }
}

extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!attr) return record_error(cudaErrorInvalidValue);
  if (!func) return record_error(cudaErrorInvalidDeviceFunction);
  const kernel_attributes a = attributes_of(func);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = device_properties().maxThreadsPerBlock;
  attr->maxDynamicSharedSizeBytes = a.max_dynamic_shared;
  attr->preferredShmemCarveout = a.carveout;
  attr->ptxVersion = emulated_compute_capability();
  attr->binaryVersion = emulated_compute_capability();
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks,
                                                                     const void* func,
                                                                     int blockSize,
                                                                     size_t dynamicSMemSize) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!numBlocks || blockSize <= 0) return record_error(cudaErrorInvalidValue);
  if (!func) return record_error(cudaErrorInvalidDeviceFunction);
  *numBlocks = resident_blocks_per_multiprocessor(static_cast<unsigned>(blockSize), dynamicSMemSize,
                                                  attributes_of(func).max_dynamic_shared);
  return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize, unsigned int) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize);
}

extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func,
                                           void** args) {
  if (!config) return record_error(cudaErrorInvalidValue);
  // Launch attributes (programmatic dependent launch, priorities, clusters) change only how a
  // GPU schedules; launches here run to completion in order, which satisfies all of them. The
  // cooperative attribute makes it a cooperative launch.
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs && config->attrs; ++i)
    if (config->attrs[i].id == cudaLaunchAttributeCooperative && config->attrs[i].val.cooperative)
      cooperative = true;
  return launch_registered(func, config->gridDim, config->blockDim, args,
                           config->dynamicSmemBytes, config->stream, "<cudaLaunchKernelEx>", 0,
                           cooperative);
}

extern "C" cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim,
                                                   void** args, size_t sharedMem,
                                                   cudaStream_t stream) {
  return launch_registered(func, gridDim, blockDim, args, sharedMem, stream,
                           "<cudaLaunchCooperativeKernel>", 0, /*cooperative=*/true);
}

extern "C" cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                                 const void* func, int numBlocks,
                                                                 int blockSize) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return record_error(cudaErrorInvalidValue);
  if (!func) return record_error(cudaErrorInvalidDeviceFunction);
  const cudaDeviceProp& p = device_properties();
  if (blockSize > p.maxThreadsPerBlock ||
      numBlocks * ((blockSize + 31) / 32 * 32) > p.maxThreadsPerMultiProcessor) {
    *dynamicSmemSize = 0;
    return cudaSuccess;
  }
  const std::size_t per_block = p.sharedMemPerMultiprocessor / static_cast<std::size_t>(numBlocks);
  const std::size_t avail = per_block > 1024 ? per_block - 1024 : 0;
  *dynamicSmemSize = std::min(avail, static_cast<std::size_t>(p.sharedMemPerBlockOptin));
  return cudaSuccess;
}
