// The device runtime: the runtime calls a CUDA thread may make (dynamic parallelism). Launches
// and copies issued by a grid's threads become work of that grid (exec/grid.h), run after its
// blocks; device-side streams are handles that order nothing beyond that, because the work runs
// one item at a time in issue order. (cudaMemsetAsync sets nothing, as on an H200: memory.cpp.)
#include <execinfo.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_set>

#include <cuda_runtime.h>

#include "check/symbolize.h"
#include "exec/block.h"
#include "exec/current_thread.h"
#include "exec/grid.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

// A stream made in device code. Only its address matters: a handle distinct from every host
// stream (host API calls refuse it) and from the special handles. Records are never freed: an
// H200 accepts a second cudaStreamDestroy of the same handle, and runs work issued on it after.
struct device_stream {
  unsigned int flags = 0;
};

std::mutex g_streams_mutex;
std::unordered_set<const void*>& device_streams() {
  static auto* s = new std::unordered_set<const void*>;  // outlives exit
  return *s;
}

bool special(cudaStream_t s) {
  return s == nullptr || s == cudaStreamTailLaunch || s == cudaStreamFireAndForget;
}

}  // namespace

bool on_cuda_thread() noexcept { return current_executor() != nullptr; }

bool valid_device_stream(cudaStream_t s) {
  if (special(s)) return true;
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  return device_streams().count(s) != 0;
}

cudaError_t device_stream_create(cudaStream_t* stream, unsigned int flags) {
  if (!stream) return record_error(cudaErrorInvalidValue);
  // The programming guide asks for cudaStreamNonBlocking; an H200 also accepts the default flag
  // (and refuses others).
  if (flags != cudaStreamNonBlocking && flags != cudaStreamDefault)
    return record_error(cudaErrorInvalidValue);
  auto* s = new device_stream{flags};
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  device_streams().insert(s);
  *stream = reinterpret_cast<cudaStream_t>(s);
  return cudaSuccess;
}

cudaError_t device_stream_destroy(cudaStream_t stream) {
  // As an H200 answers: 0 and the special streams are invalid; unknown and already destroyed
  // handles are accepted (the handle stays valid: work issued on it later still runs there).
  if (special(stream)) return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t issue_device_op(cudaStream_t stream, std::function<void()> op) {
  if (!valid_device_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  block_executor* x = current_executor();
  launch_state* grid = x->current_launch();
  device_work w;
  w.tail = stream == cudaStreamTailLaunch;
  w.op = std::move(op);
  issue_device_work(*grid, linear_block_index(*grid), std::move(w));
  return cudaSuccess;
}

namespace {

// Ends the calling CUDA thread with a fault at the user's line that made the runtime call.
[[noreturn]] void fault_at_caller(const char* fault_class, const std::string& details,
                                  cudaError_t error) {
  void* frames[16];
  const int n = backtrace(frames, 16);
  const code_location at = first_user_location(frames, n);
  static thread_local std::string file;  // the report keeps a pointer to it
  file = at.file;
  fault_current_thread(fault_class, file.empty() ? nullptr : file.c_str(), at.line, details, error,
                       true);
}

}  // namespace

void device_free_fault(const void* p) {
  char details[160];
  std::snprintf(details, sizeof details,
                "  %p was not allocated by cudaMalloc or malloc in device code (device code "
                "may free only those)\n",
                p);
  fault_at_caller("invalid device-side free", details, cudaErrorIllegalAddress);
}

void device_call_unsupported(const char* call) {
  fault_at_caller("unsupported call in device code",
                  std::string("  ") + call +
                      ": device code cannot wait for work it launched since CUDA 12 (nvcc "
                      "refuses the call for sm_90 and later). A parent grid completes only after "
                      "its children: wait on the host, or launch the rest with "
                      "cudaStreamTailLaunch\n",
                  cudaErrorNotSupported);
}

}  // namespace cuemu::detail
