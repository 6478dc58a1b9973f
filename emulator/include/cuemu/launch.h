// The hooks that translated .cu code calls (see emulator/src/translate): a launch
// `k<<<g, b, s, st>>>(args)` becomes
//   ((void)::cuemu::detail::push_call_configuration(g, b, s, st), k(args))
// and every __global__ function body starts with a prologue that, when called from host code,
// hands its (already converted) parameters to launch_from_stub instead of running the body.
// This is how CUDA's own host stubs work (__cudaPushCallConfiguration + stub).
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include <driver_types.h>
#include <vector_types.h>

namespace cuemu::detail {

// Type-erased kernel entry: runs fn(args...) for the calling CUDA thread.
struct kernel_entry {
  void (*invoke)(const void* fn, const void* params) = nullptr;  // calls fn with *params
  const void* fn = nullptr;                                      // the __global__ function
  const void* params = nullptr;                                  // a std::tuple of parameters
  const char* name = nullptr;         // as spelled in the source, e.g. "ns::k"
  const char* signature = nullptr;    // __PRETTY_FUNCTION__ of the kernel
};

// Called by a translated launch: records grid/block/shared memory/stream for the next stub call
// on this host thread, and the launch's source location for error reports.
int push_call_configuration(dim3 grid, dim3 block, std::size_t shared_mem = 0,
                            cudaStream_t stream = nullptr,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());

// The block executor of this OS thread while it runs a block (set by the scheduler), else null.
class block_executor;
inline thread_local block_executor* t_current_executor = nullptr;

// True when a __global__ function is entered from host code (a launch), false on a CUDA thread.
// Inline: every CUDA thread asks it once, at the top of the kernel.
inline bool is_host_call() noexcept { return t_current_executor == nullptr; }

// Validates the configuration popped from push_call_configuration and runs the grid.
cudaError_t launch(const kernel_entry& entry);

template <class... P>
void invoke_kernel(const void* fn, const void* params) {
  auto f = reinterpret_cast<void (*)(P...)>(const_cast<void*>(fn));
  std::apply(f, *static_cast<const std::tuple<std::decay_t<P>...>*>(params));
}

template <class... P, class... A>
void launch_from_stub(void (*fn)(P...), const char* name, const char* signature, A&&... args) {
  const std::tuple<std::decay_t<P>...> params(std::forward<A>(args)...);
  kernel_entry e;
  e.invoke = &invoke_kernel<P...>;
  e.fn = reinterpret_cast<const void*>(fn);
  e.params = &params;
  e.name = name;
  e.signature = signature;
  launch(e);
}

// cudaLaunchKernel((const void*)k, ...) needs the parameter types of k: every non-template
// __global__ function definition registers itself (emitted by the translator).
struct registered_kernel {
  void (*launch_with_args)(const void* fn, void** args) = nullptr;  // calls the stub
  const char* name = nullptr;
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
    register_kernel(reinterpret_cast<const void*>(fn), k);
  }
};

// cudaLaunchKernel through the registry; `file`/`line` name the call for error messages.
cudaError_t launch_registered(const void* fn, dim3 grid, dim3 block, void** args,
                              std::size_t shared_mem, cudaStream_t stream, const char* file,
                              int line);
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
