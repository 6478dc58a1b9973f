// Where the streams checker (--check=streams, check/streamcheck.cpp) attaches to the runtime: the
// work items streams run, what the host waits for, the memory the runtime's own copies and
// memsets touch for a work item, and memory given back. In the racecheck runtime, which runs
// stream work at the call, these feed the checker; elsewhere they are empty inline functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/runtime.h"

namespace cuemu::detail {

// A work item issued to a stream, as the checker sees it.
struct stream_work {
  const CUstream_st* queue = nullptr;  // the resolved queue
  unsigned long long stream_id = 0;    // cudaStreamGetId's value
  bool legacy = false;                 // the legacy default stream
  bool blocking = false;               // synchronises with the legacy default stream
  std::uint64_t position = 0;          // its place: the queue's count of items, it included
  const stream_position* after = nullptr;  // positions it also waits for (cudaStreamWaitEvent)
  std::size_t after_count = 0;
  const char* what = nullptr;          // "kernel", "cudaMemcpyAsync", ... (nullptr: "stream work")
  const std::string* name = nullptr;   // a kernel's name
};

namespace hooks {

#if defined(CUEMU_RACECHECK)
bool streams_checked();  // --check=streams
void stream_work_begin(const stream_work& w);  // on the issuing thread, before the work runs
void stream_work_end();
// The host waited for the item at p and, with it, its stream's earlier work.
void host_waited(const stream_position& p);
// The host waited for everything issued to queue q so far (the legacy stream: also every blocking
// stream's earlier work), or to every stream.
void host_waited_stream(const CUstream_st* q);
void host_waited_device();
// The runtime's own access (a copy, a memset) to [p, p + n) for the running work item.
void work_accessed(const void* p, std::size_t n, bool write);
// [p, p + n) is given back (cudaFree, cudaFreeHost, a block's __shared__ objects): what work did
// there is forgotten.
void memory_released(const void* p, std::size_t n);
#else
inline bool streams_checked() { return false; }
inline void stream_work_begin(const stream_work&) {}
inline void stream_work_end() {}
inline void host_waited(const stream_position&) {}
inline void host_waited_stream(const CUstream_st*) {}
inline void host_waited_device() {}
inline void work_accessed(const void*, std::size_t, bool) {}
inline void memory_released(const void*, std::size_t) {}
#endif

}  // namespace hooks
}  // namespace cuemu::detail
