// The hooks that translated .cu code calls (see emulator/src/translate): a launch
// `k<<<g, b, s, st>>>(args)` becomes
//   ((void)::cuemu::detail::push_call_configuration(g, b, s, st), k(args))
// and every __global__ function body starts with a prologue that, when called from host code,
// hands its (already converted) parameters to launch_from_stub<&k> instead of running the body.
// This is how CUDA's own host stubs work (__cudaPushCallConfiguration + stub).
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include <device_launch_parameters.h>
#include <driver_types.h>
#include <vector_types.h>

namespace cuemu::detail {

// The sync-free fast path. The executor hands a runner the not yet started lanes of one warp,
// slots [first, end) in schedule order, and the kernel's own loop (run_lane_batch, instantiated
// per kernel so that the kernel is called directly, its parameters unpacked once) runs them as
// plain calls, one after another. A lane that reaches a synchronisation point ends the batch
// (the executor takes over its bookkeeping and bumps `epoch`): its runner stays with it, the
// remaining lanes start on another runner, and this loop returns once that lane has finished.
// The loop stores one thing per lane, its threadIdx (the executor finds the running lane from
// it): a memory-bound kernel's own stores queue behind every store the loop adds.
struct lane_batch {
  const uint3* tid = nullptr;   // threadIdx by slot
  void* current = nullptr;      // the record of the CUDA thread running now, off the batch loop
  unsigned first = 0, end = 0;  // the batch: slots [first, end)
  // Slot s is thread (s, 0, 0): a one-dimensional block in the default order. The loop then
  // stores threadIdx.x alone.
  bool linear = false;
  // 64 bits wide: a kernel's stores to 32-bit data cannot alias it, so for a kernel inlined
  // without calls the compiler drops the check below.
  unsigned long long epoch = 0;
};

// Type-erased kernel entry: runs fn(args...) for the calling CUDA thread.
struct kernel_entry {
  void (*invoke)(const void* fn, const void* params) = nullptr;  // calls fn with *params
  void (*run_batch)(lane_batch& b, const void* params) = nullptr; // the kernel's batch loop
  const void* fn = nullptr;                                      // the __global__ function
  const void* params = nullptr;                                  // a std::tuple of parameters
  const char* name = nullptr;         // as spelled in the source, e.g. "ns::k"
  const char* signature = nullptr;    // __PRETTY_FUNCTION__ of the kernel
  // A launch queued on a stream keeps its own copy of the parameters (the stub's go away).
  void* (*copy_params)(const void* params) = nullptr;
  void (*free_params)(void* params) = nullptr;
  // The kernel has a region form (cuemu/regions.h): a block can run as loops over its threads.
  bool regions = false;
};

template <class Tuple>
void* copy_kernel_params(const void* params) {
  return new Tuple(*static_cast<const Tuple*>(params));
}
template <class Tuple>
void free_kernel_params(void* params) {
  delete static_cast<Tuple*>(params);
}

// Called by a translated launch: records grid/block/shared memory/stream for the next stub call
// on this host thread, and the launch's source location for error reports. As with nvcc,
// `k<<<grid>>>(...)` launches blocks of one thread.
int push_call_configuration(dim3 grid, dim3 block = dim3(1), std::size_t shared_mem = 0,
                            cudaStream_t stream = nullptr,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());

// Marks the configuration pushed last as a cooperative launch (this_grid().sync() allowed; the
// grid must fit the device's residency, else cudaErrorCooperativeLaunchTooLarge).
void make_configuration_cooperative() noexcept;

// The block executor of this OS thread while it runs a block (set by the scheduler), else null.
class block_executor;
inline thread_local block_executor* t_current_executor = nullptr;

// Set by push_call_configuration on a CUDA thread: the __global__ function called next is a
// launch from device code (dynamic parallelism), not the body of a CUDA thread.
inline thread_local bool t_device_launch_pending = false;

// True when a __global__ function is entered as a launch (from host code, or by a <<<...>>> in
// device code), false when the executor calls it as a CUDA thread's body. Inline: every CUDA
// thread asks it once, at the top of the kernel.
inline bool is_launch_call() noexcept {
  return t_current_executor == nullptr || t_device_launch_pending;
}

// Validates the configuration popped from push_call_configuration and runs the grid.
cudaError_t launch(const kernel_entry& entry);

// PTX's `exit` (CUB's ThreadExit): the calling CUDA thread ends here, as if its kernel returned.
// Thrown to the lane's kernel call, which returns normally.
struct thread_exit_signal {};
[[noreturn]] inline void exit_thread() { throw thread_exit_signal{}; }

template <class... P>
void invoke_kernel(const void* fn, const void* params) {
  auto f = reinterpret_cast<void (*)(P...)>(const_cast<void*>(fn));
  try {
    std::apply(f, *static_cast<const std::tuple<std::decay_t<P>...>*>(params));
  } catch (const thread_exit_signal&) {
  }
}

template <class F> struct kernel_parameters;
template <class... P> struct kernel_parameters<void (*)(P...)> {
  using tuple = std::tuple<std::decay_t<P>...>;
};

// The batch loop inlines the kernel's whole call tree (flatten). Not under AddressSanitizer
// (memcheck): its checks on every access of a flattened test harness took g++ past 400 s and
// 1.2 GB for one of libcu++'s pipeline tests (7 s without flatten).
// It takes the kernel's contraction of a*b+c into fused multiply-adds along (the translator's
// kernel attribute, translate::kernel_fp_attribute): without it, the kernel inlined here would
// lose it. Without FMA instructions (-fmad=false) the option changes nothing.
#if defined(__GNUC__) && !defined(__clang__)
#define CUEMU_KERNEL_FP gnu::optimize("fp-contract=fast", "expensive-optimizations", "no-tree-vectorize")
#else
#define CUEMU_KERNEL_FP
#endif
// And the GPU's NaN results (the g++ plugin emulator/src/gpu_fp, when the driver uses it).
#if defined(__CUEMU_GPU_FP__)
#define CUEMU_KERNEL_NAN __attribute__((cuemu_gpu_fp))
#else
#define CUEMU_KERNEL_NAN
#endif
#if defined(__CUEMU_MEMCHECK__) || defined(__SANITIZE_ADDRESS__)
#define CUEMU_BATCH_LOOP [[CUEMU_KERNEL_FP]] CUEMU_KERNEL_NAN
#else
#define CUEMU_BATCH_LOOP [[gnu::flatten, CUEMU_KERNEL_FP]] CUEMU_KERNEL_NAN
#endif

template <auto F>
CUEMU_BATCH_LOOP void run_lane_batch(lane_batch& b, const void* params) {
  // Locals (the parameters copied once per batch, like a GPU's parameter space): stores of the
  // kernel cannot alias them, so nothing is reloaded per lane. The batch only changes in a lane's
  // synchronisation, which also changes b.epoch.
  auto args = *static_cast<const typename kernel_parameters<decltype(F)>::tuple*>(params);
  const uint3* const tid = b.tid;
  const bool linear = b.linear;
  const unsigned end = b.end;
  const unsigned long long epoch = b.epoch;
  if (linear) threadIdx = uint3{b.first, 0, 0};
  for (unsigned slot = b.first; slot < end; ++slot) {
    if (linear) threadIdx.x = slot;
    else threadIdx = tid[slot];
    // On a CUDA thread: lets the compiler drop the kernel prologue's host path (a call) here.
    if (is_launch_call()) __builtin_unreachable();
    try {
      std::apply(F, args);
    } catch (const thread_exit_signal&) {
    }
    if (b.epoch != epoch) return;  // that lane synchronised: the executor accounts for it
  }
}

// The size of a kernel's parameter block as CUDA lays it out (each parameter at its alignment).
template <class... P>
constexpr std::size_t kernel_parameter_bytes() {
  std::size_t offset = 0;
  ((offset = (offset + alignof(P) - 1) / alignof(P) * alignof(P) + sizeof(P)), ...);
  return offset;
}
// CUDA's limit since 12.1 (4 KiB before); nvcc refuses a kernel whose parameters exceed it.
inline constexpr std::size_t kMaxKernelParameterBytes = 32764;

// The host side of a __global__ function F, called by its prologue with the arguments.
template <auto F, bool Regions, class... P, class... A>
void launch_with(void (*)(P...), const char* name, const char* signature, A&&... args) {
  static_assert(kernel_parameter_bytes<std::decay_t<P>...>() <= kMaxKernelParameterBytes,
                "cuemu: this kernel's parameters take more than 32764 bytes, CUDA's limit for a "
                "__global__ function's parameters (nvcc refuses it too): pass large data through "
                "device memory");
  const std::tuple<std::decay_t<P>...> params(std::forward<A>(args)...);
  kernel_entry e;
  e.invoke = &invoke_kernel<P...>;
  e.run_batch = &run_lane_batch<F>;
  e.fn = reinterpret_cast<const void*>(F);
  e.params = &params;
  e.copy_params = &copy_kernel_params<std::tuple<std::decay_t<P>...>>;
  e.free_params = &free_kernel_params<std::tuple<std::decay_t<P>...>>;
  e.name = name;
  e.signature = signature;
  e.regions = Regions;
  launch(e);
}

// Out of line and cold: the kernel's prologue stays small, so the kernel can be inlined into its
// run_lane_batch loop.
template <auto F, bool Regions = false, class... A>
[[gnu::noinline, gnu::cold]] void launch_from_stub(const char* name, const char* signature,
                                                   A&&... args) {
  launch_with<F, Regions>(F, name, signature, std::forward<A>(args)...);
}

// cudaLaunchKernel((const void*)k, ...) needs the parameter types of k: every non-template
// __global__ function definition registers itself (emitted by the translator).
struct registered_kernel {
  void (*launch_with_args)(const void* fn, void** args) = nullptr;  // calls the stub
  const char* name = nullptr;
  std::size_t param_count = 0;  // args may be null when it is 0
};
void register_kernel(const void* fn, const registered_kernel& k);
const registered_kernel* find_registered_kernel(const void* fn);

template <class... P, std::size_t... I>
void call_stub_with_args(void (*f)(P...), void** args, std::index_sequence<I...>) {
  f(*static_cast<std::decay_t<P>*>(args[I])...);
}

struct kernel_registrar {
  template <class... P>
  kernel_registrar(void (*fn)(P...), const char* name) {
    registered_kernel k;
    k.launch_with_args = [](const void* f, void** args) {
      call_stub_with_args(reinterpret_cast<void (*)(P...)>(const_cast<void*>(f)), args,
                          std::index_sequence_for<P...>{});
    };
    k.name = name;
    k.param_count = sizeof...(P);
    register_kernel(reinterpret_cast<const void*>(fn), k);
  }
};

// cudaLaunchKernel through the registry; `file`/`line` name the call for error messages.
cudaError_t launch_registered(const void* fn, dim3 grid, dim3 block, void** args,
                              std::size_t shared_mem, cudaStream_t stream, const char* file,
                              int line,
                              bool cooperative = false);
// The result of the most recent launch on this host thread (the stub returns void).
cudaError_t last_launch_result() noexcept;

// Base of this block's dynamic shared memory (extern __shared__ T name[];).
void* dynamic_shared_memory() noexcept;

// At namespace scope `extern __shared__ T name[];` becomes a thread_local pointer, initialised
// lazily; the translator adds one of these beside it so that the runtime initialises it on each
// worker before a block's CUDA threads run (see exec/shared_memory.cpp).
void register_worker_tls_init(const void* (*touch)()) noexcept;
struct worker_tls_init {
  explicit worker_tls_init(const void* (*touch)()) noexcept { register_worker_tls_init(touch); }
};

}  // namespace cuemu::detail
