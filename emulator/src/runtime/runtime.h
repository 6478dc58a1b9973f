// Internal interface of the runtime (src/runtime): the error state, the allocation table and
// the device description, shared by the API functions and by the launch path / checkers.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <driver_types.h>

namespace cuemu::detail {

// The emulated device's SM clock (an H200: 1980 MHz), cudaDevAttrClockRate.
inline constexpr int kDeviceClockKHz = 1980000;
// Its cycle counter (device_clock.cpp).
long long device_clock_cycles() noexcept;

// --- errors (errors.cpp) ---
// Records e as the last error when e != cudaSuccess and returns e. A sticky error (a fault in a
// kernel) is returned by every later call until the process ends, like a GPU context.
cudaError_t record_error(cudaError_t e);
// The first sticky error wins; later ones are only recorded as the last error.
void set_sticky_error(cudaError_t e);
cudaError_t sticky_error();  // cudaSuccess when there is none
// For the runtime's own tests only: forget the sticky error and this thread's last error.
void reset_errors_for_testing();

// --- allocations (memory.cpp) ---
enum class memory_kind {
  device,           // cudaMalloc, cudaMallocPitch, cudaMalloc3D, cudaMallocAsync
  host_pinned,      // cudaMallocHost, cudaHostAlloc
  managed,          // cudaMallocManaged
  host_registered,  // cudaHostRegister (memory owned by the program)
  symbol,           // a __device__/__constant__ variable named to a symbol API call
};
struct allocation {
  std::uintptr_t base = 0;
  std::size_t size = 0;  // for a symbol registered without a known size: 0
  memory_kind kind = memory_kind::device;
  bool freed = false;
  unsigned int flags = 0;  // cudaHostAlloc / cudaHostRegister / cudaMallocManaged flags
};
// The live (or most recently freed) allocation containing p, or nullptr. The record stays
// valid (it is never deallocated) but may change from live to freed concurrently; use
// lookup_allocation for a consistent copy.
const allocation* find_allocation(const void* p);
// A copy of the record find_allocation would return, taken under the table's lock.
std::optional<allocation> lookup_allocation(const void* p);
// Memory cudaMalloc made in device code (the device heap; freed records stay poisoned under
// memcheck while they last).
bool is_device_heap(const allocation& a);
// Makes a __device__/__constant__/__managed__ variable known to the table (kind symbol), so that
// copies involving its address are checked like device memory. size 0: unknown extent.
void register_symbol(const void* p, std::size_t size);
// Bytes currently allocated with cudaMalloc* / cudaMallocManaged (what cudaMemGetInfo reports
// as used).
std::size_t device_bytes_in_use();
// allocation::flags of device memory a pool handed out (cudaMallocAsync, cudaMallocFromPoolAsync).
inline constexpr unsigned int k_pool_memory = 0x10000000u;
// allocation::flags of another process's device memory mapped by cudaIpcOpenMemHandle.
inline constexpr unsigned int k_ipc_mapping = 0x08000000u;
// Allocates size bytes of kind (size 0: nullptr), counted against the device's memory.
// Device memory that cudaMalloc and its kin make is page-aligned and whole pages (outside
// memcheck builds, whose sanitizer wants the exact size), so that cudaIpcGetMemHandle can move
// its pages into a shared file.
cudaError_t allocate_memory(void** out, std::size_t size, memory_kind kind, unsigned int flags);
// cudaFree's work without its synchronisation: p must be the base of live device or managed
// memory.
cudaError_t release_device_memory(void* p);
// Adds / removes the record of another process's memory mapped at [base, base + size) (device
// memory to kernels and copies, not counted as this process's; cudaFree refuses it).
void register_ipc_mapping(void* base, std::size_t size);
void unregister_ipc_mapping(void* base);
// Memory of a graph's allocation node: reserved (not live) until set live by a launch; freed for
// good by drop_graph_memory. A cudaFree of it only marks it freed.
cudaError_t reserve_graph_memory(void** out, std::size_t size);
void set_graph_memory_live(void* p, bool live);
void drop_graph_memory(void* p, std::size_t size);
// p is the base of a graph allocation (live or not: a launch queued before may make it live).
bool is_graph_memory(const void* p);
// Whether the program may name graph memory in API calls now (graph launches issued so far
// allocate it and have not freed it; cudaFree/cudaFreeAsync clear it).
void set_graph_memory_mapped(void* p, bool mapped);
bool graph_memory_mapped(const void* p);
// While one exists on this thread, the memory checks of the API accept graph memory that is not
// allocated (a node being made names it before any launch).
class graph_node_scope {
 public:
  explicit graph_node_scope(bool on);
  ~graph_node_scope();
  graph_node_scope(const graph_node_scope&) = delete;
  graph_node_scope& operator=(const graph_node_scope&) = delete;

 private:
  bool was_;
};
// Bytes of graph memory live (a launch passed its allocation, not its free) and reserved, with
// their high watermarks (cudaDeviceGetGraphMemAttribute).
// As CUDA's graph allocator: physical memory is mapped in 32 MiB granules as live graph
// allocations need it and stays with the graphs (used = reserved) until cudaDeviceGraphMemTrim.
struct graph_memory_counts {
  std::size_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  std::size_t live = 0;  // bytes of live graph allocations
};
void trim_graph_memory();
graph_memory_counts graph_memory_footprint();
void reset_graph_memory_high(bool used, bool reserved);
// cudaDeviceReset: frees every runtime allocation, destroys every stream and event.
void free_all_allocations();
void destroy_all_streams();
void destroy_all_events();

// --- the device runtime: runtime calls made by CUDA threads (device_runtime.cpp) ---
// True on a CUDA thread (a lane of a running block): the call is device code's.
bool on_cuda_thread() noexcept;
// Device-side streams (dynamic parallelism): 0 (the block's implicit stream),
// cudaStreamTailLaunch, cudaStreamFireAndForget, or one made by cudaStreamCreateWithFlags in
// device code and not yet destroyed.
bool valid_device_stream(cudaStream_t s);
cudaError_t device_stream_create(cudaStream_t* stream, unsigned int flags);
cudaError_t device_stream_destroy(cudaStream_t stream);
// Queues op as work of the calling CUDA thread's grid, on device-side stream s.
cudaError_t issue_device_op(cudaStream_t stream, std::function<void()> op);
// cudaMemcpyAsync / cudaMemsetAsync from a CUDA thread: checked now, queued as work of its grid
// (memory.cpp).
cudaError_t device_memcpy_async(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                                cudaStream_t stream);
cudaError_t device_memset_async(void* dst, int value, std::size_t count, cudaStream_t stream);
// cudaFree in device code of memory device code did not allocate: a fault (an H200 ends the
// grid with cudaErrorIllegalAddress; compute-sanitizer: "Invalid pointer to device-side free").
[[noreturn]] void device_free_fault(const void* p);
// Calls the device runtime does not have since CUDA 12 (cudaDeviceSynchronize): a fault naming
// the call (nvcc refuses to compile it for sm_90).
[[noreturn]] void device_call_unsupported(const char* call);

// --- the device (device.cpp) ---
const cudaDeviceProp& device_properties();  // of the current device
int emulated_compute_capability();           // e.g. 90 for sm_90 (CUEMU_ARCH, default 90)
// Overrides CUEMU_ARCH (e.g. from a command-line option); call before any launch.
void set_emulated_compute_capability(int cc);
// Parses "sm_90", "sm_90a", "compute_86", "90", "9.0"; returns 0 when it cannot.
int parse_compute_capability(const char* s);
// The value set with cudaDeviceSetLimit (or the default).
std::size_t device_limit(cudaLimit limit);

// --- streams (stream.cpp) ---
// True for 0, cudaStreamLegacy, cudaStreamPerThread and every created, not yet destroyed stream.
bool valid_stream(cudaStream_t s);
// A place in a stream's work: reached once its first `count` items completed. A null stream is
// always reached (work that ran at the call).
struct stream_position {
  CUstream_st* stream = nullptr;
  std::uint64_t count = 0;
};
// --streams=sync (and the racecheck runtime): work runs inside the call that issues it.
bool streams_synchronous();
// Queues work on a valid stream handle (0: the default stream) behind the stream's earlier work,
// CUDA's implicit ordering with the legacy default stream, and the positions in `after`; returns
// its position. Synchronous streams: runs it now, on this thread (its position is then reached
// at once). `what` and `name` describe it in the streams checker's reports ("kernel", its name).
stream_position enqueue(cudaStream_t stream, std::function<void()> work,
                        std::vector<stream_position> after = {}, const char* what = nullptr,
                        const std::string* name = nullptr);
stream_position stream_tail(cudaStream_t stream);  // after the work queued so far
// The host waits for the work queued so far on a stream (the legacy stream: also for blocking
// streams' earlier work, as an item there would), on every stream, or up to a position.
void synchronize_stream(cudaStream_t stream);
void synchronize_device();
bool reached(const stream_position& p);
void wait_for(const stream_position& p);
// Code compiled with --default-stream per-thread (CUDA_API_PER_THREAD_DEFAULT_STREAM).
void set_per_thread_default_stream();
// Around user code that a stream's thread runs (host functions, callbacks, graph host nodes):
// the thread's usual scheduling policy, which threads it starts inherit (stream threads are
// SCHED_BATCH otherwise, so that waking one does not preempt the host).
class host_code_scope {
 public:
  host_code_scope();
  ~host_code_scope();
  host_code_scope(const host_code_scope&) = delete;
  host_code_scope& operator=(const host_code_scope&) = delete;
};

// The queue a handle names (0 resolved to the legacy or this thread's default stream); the
// handle must be valid.
CUstream_st* resolve_stream(cudaStream_t s);
// What a resolved queue is: the legacy default stream; a stream that synchronises with it.
bool is_legacy_stream(const CUstream_st* s);
bool is_blocking_stream(const CUstream_st* s);

// --- events (event.cpp) ---
bool valid_event(cudaEvent_t e);
stream_position event_position(cudaEvent_t e);  // of its latest record (a valid event)
// For an interprocess event: the work that waits for its latest record so far (made by any
// process); empty for the others.
std::function<void()> interprocess_wait(cudaEvent_t e);

// --- device printf (device_printf.cpp) ---
// A GPU keeps a kernel's printf output in a buffer that the host writes out at synchronising
// calls (device, stream and event synchronize, blocking copies, host functions, cudaDeviceReset)
// and drops at exit. This writes the buffered output to stdout (checked inline: every launch and
// synchronisation asks, and most find nothing).
extern std::atomic<bool> g_device_output_pending;
void write_device_output();
inline void flush_device_output() {
  if (g_device_output_pending.load(std::memory_order_acquire)) write_device_output();
}

}  // namespace cuemu::detail
