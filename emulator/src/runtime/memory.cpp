// Memory: allocation (device, pinned host, managed, registered), the allocation table, copies,
// memsets and symbols.
//
// Device memory is host memory here (256-byte aligned), tracked in a table keyed by base address
// so that copies can be checked against their direction and bounds like a GPU checks them, and
// so that checkers can name the allocation an address belongs to. Copies and memsets are
// validated at the call and run on their stream (runtime/stream.cpp) with CUDA's host
// synchronisation rules: a blocking cudaMemcpy returns when its copy is done; an asynchronous
// copy from pageable host memory reads its source at the call (staged), one to pageable host
// memory returns when done; cudaMemset is asynchronous unless it writes pinned host memory.
// cudaFree and its kin wait for the device first, as CUDA's do.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#ifdef CUEMU_MEMCHECK
#include <sanitizer/asan_interface.h>
#endif

#include <cuda_runtime_api.h>

#include <driver_functions.h>

#include "check/stream_events.h"
#include "runtime/array.h"
#include "runtime/graph.h"
#include "runtime/interprocess.h"
#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

constexpr std::size_t k_alignment = 256;
constexpr std::size_t k_pitch_alignment = 512;
constexpr std::size_t k_max_freed_records = 1u << 16;
constexpr std::size_t k_unknown_size = std::numeric_limits<std::size_t>::max();
// allocation::flags of memory reserved by a graph's allocation node.
constexpr unsigned int k_graph_memory = 0x80000000u;
// A graph allocation the program may name in API calls: the graph launches issued so far leave
// it allocated (set at the call, not when the stream reaches the work, as CUDA maps it).
constexpr unsigned int k_graph_mapped = 0x40000000u;
// allocation::flags of the device heap: cudaMalloc in device code (only device code frees it).
constexpr unsigned int k_device_heap = 0x20000000u;
// Set while a call builds a graph node (capture, or the graph API): its memory need not be
// allocated yet.
thread_local bool t_for_graph = false;

struct table {
  std::shared_mutex mutex;
  std::deque<allocation> records;                  // never shrinks: pointers stay valid
  std::map<std::uintptr_t, allocation*> by_base;   // live and recently freed records
  std::deque<std::uintptr_t> freed_bases;          // oldest first, to bound the freed records
  std::size_t device_bytes = 0;                    // live device + managed bytes
  std::size_t heap_bytes = 0;                      // live device-heap bytes
  graph_memory_counts graph;                       // graph allocations
};

table& the_table() {
  static table* t = new table;  // never destroyed: used by checkers until the very end
  return *t;
}

// The record whose range contains p (an allocation of size 0 contains only its base).
allocation* find_locked(table& t, std::uintptr_t p) {
  auto it = t.by_base.upper_bound(p);
  if (it == t.by_base.begin()) return nullptr;
  --it;
  allocation* a = it->second;
  if (p == a->base || p - a->base < a->size) return a;
  return nullptr;
}

// Adds a record for [base, base + size), dropping freed records it overlaps.
void insert_locked(table& t, std::uintptr_t base, std::size_t size, memory_kind kind,
                   unsigned int flags) {
  const std::uintptr_t end = base + (size ? size : 1);
  auto it = t.by_base.lower_bound(base);
  if (it != t.by_base.begin()) {
    auto prev = std::prev(it);
    if (prev->second->freed && prev->first + prev->second->size > base) it = prev;
  }
  while (it != t.by_base.end() && it->first < end) {
    if (it->second->freed)
      it = t.by_base.erase(it);
    else
      ++it;
  }
  allocation a;
  a.base = base;
  a.size = size;
  a.kind = kind;
  a.flags = flags;
  t.records.push_back(a);
  t.by_base[base] = &t.records.back();
}

void mark_freed_locked(table& t, allocation* a) {
  a->freed = true;
  hooks::memory_released(reinterpret_cast<void*>(a->base), a->size);
  if (a->flags & k_device_heap)
    t.heap_bytes -= a->size;
  else if ((a->kind == memory_kind::device || a->kind == memory_kind::managed) &&
           !(a->flags & k_ipc_mapping))  // another process's memory was never counted here
    t.device_bytes -= a->size;
  t.freed_bases.push_back(a->base);
  while (t.freed_bases.size() > k_max_freed_records) {
    auto it = t.by_base.find(t.freed_bases.front());
    if (it != t.by_base.end() && it->second->freed) {
      const allocation* old = it->second;
      if (old->flags & k_device_heap) {  // out of quarantine (release)
        void* p = reinterpret_cast<void*>(old->base);
#ifdef CUEMU_MEMCHECK
        __asan_unpoison_memory_region(p, old->size);
#endif
        std::free(p);
      }
      t.by_base.erase(it);
    }
    t.freed_bases.pop_front();
  }
}

bool is_device_kind(memory_kind k) {
  return k == memory_kind::device || k == memory_kind::symbol;
}

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

// Allocates size bytes of kind; size 0 gives nullptr.
cudaError_t allocate(void** out, std::size_t size, memory_kind kind, unsigned int flags) {
  *out = nullptr;
  if (size == 0) return cudaSuccess;
  table& t = the_table();
  const bool heap = flags & k_device_heap;
  const bool counts = !heap && (kind == memory_kind::device || kind == memory_kind::managed);
  const std::size_t total = device_properties().totalGlobalMem;
  if (size > total - k_alignment) return cudaErrorMemoryAllocation;
  {
    std::shared_lock lock(t.mutex);
    if (counts && size > total - t.device_bytes) return cudaErrorMemoryAllocation;
    // The device heap (cudaLimitMallocHeapSize) full.
    if (heap && size > device_limit(cudaLimitMallocHeapSize) -
                           std::min(t.heap_bytes, device_limit(cudaLimitMallocHeapSize)))
      return cudaErrorMemoryAllocation;
  }
  void* p = nullptr;
  // Device memory the host allocates: whole pages (cudaIpcGetMemHandle shares them).
  const bool pages = kind == memory_kind::device && !heap;
  const std::size_t alignment = pages ? k_page_bytes : k_alignment;
#ifdef CUEMU_MEMCHECK
  // The exact size: AddressSanitizer's redzone then starts at the first byte past the request.
  const std::size_t bytes = size;
#else
  const std::size_t bytes = round_up(size, alignment);
#endif
  if (posix_memalign(&p, alignment, bytes) != 0 || !p)
    return cudaErrorMemoryAllocation;
  std::unique_lock lock(t.mutex);
  insert_locked(t, reinterpret_cast<std::uintptr_t>(p), size, kind, flags);
  if (counts) t.device_bytes += size;
  if (heap) t.heap_bytes += size;
  *out = p;
  return cudaSuccess;
}

// Frees the allocation based at p if its kind is one of the accepted ones. The device heap is
// freed by device code only (from_device), and device code frees nothing else.
cudaError_t release(void* p, bool accept_device, bool accept_pinned, bool from_device = false) {
  table& t = the_table();
  {
    std::unique_lock lock(t.mutex);
    auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == t.by_base.end() || it->second->freed) return cudaErrorInvalidValue;
    allocation* a = it->second;
    // Another process's memory is unmapped by cudaIpcCloseMemHandle, not freed.
    if (a->flags & k_ipc_mapping) return cudaErrorInvalidValue;
    const bool ok = ((a->kind == memory_kind::device || a->kind == memory_kind::managed) &&
                     accept_device) ||
                    (a->kind == memory_kind::host_pinned && accept_pinned);
    if (!ok || from_device != static_cast<bool>(a->flags & k_device_heap))
      return cudaErrorInvalidValue;
    mark_freed_locked(t, a);
    if (a->flags & k_graph_memory) {  // its graph keeps the memory
      a->flags &= ~k_graph_mapped;
      t.graph.live -= a->size;
      return cudaSuccess;
    }
    if (a->flags & k_device_heap) {
      // Kept (quarantined) while its record lasts: its address cannot be handed out again, so a
      // second free is known as such, and its bytes stay as a GPU leaves them. memcheck: an
      // access now is a use after free.
#ifdef CUEMU_MEMCHECK
      __asan_poison_memory_region(p, a->size);
#endif
      return cudaSuccess;
    }
  }
  forget_export(p);
  std::free(p);
  return cudaSuccess;
}

// [p, p + n) used as device memory: it must lie inside one live allocation the device can
// access (device, managed, pinned or registered host memory, a known symbol).
cudaError_t check_device_range(const void* p, std::size_t n) {
  const std::optional<allocation> a = lookup_allocation(p);
  // A graph's memory keeps its address between launches: a capture or a node names it while
  // it is not live.
  if (!a) return cudaErrorInvalidValue;
  if (a->freed &&
      !((a->flags & k_graph_memory) && (t_for_graph || (a->flags & k_graph_mapped))))
    return cudaErrorInvalidValue;
  if (a->size == 0) return cudaSuccess;  // a symbol of unknown extent
  const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(p) - a->base;
  if (n > a->size - off) return cudaErrorInvalidValue;
  return cudaSuccess;
}

// [p, p + n) used as host memory: anything but live cudaMalloc memory (freed device memory may
// have been handed out again by the host allocator).
cudaError_t check_host_range(const void* p, std::size_t) {
  const std::optional<allocation> a = lookup_allocation(p);
  if (a && !a->freed && a->kind == memory_kind::device) return cudaErrorInvalidValue;
  return cudaSuccess;
}

// With cudaMemcpyDefault the direction comes from the pointers: live device memory is checked
// for bounds, anything else is host memory.
cudaError_t check_any_range(const void* p, std::size_t n) {
  const std::optional<allocation> a = lookup_allocation(p);
  if (a && (!a->freed || (a->flags & k_graph_memory)) && is_device_kind(a->kind))
    return check_device_range(p, n);  // graph memory: refused there when not allocated
  return cudaSuccess;
}

cudaError_t check_copy(void* dst, std::size_t dst_span, const void* src, std::size_t src_span,
                       cudaMemcpyKind kind) {
  cudaError_t e = cudaSuccess;
  switch (kind) {
    case cudaMemcpyHostToHost:
      break;
    case cudaMemcpyHostToDevice:
      if ((e = check_host_range(src, src_span)) == cudaSuccess)
        e = check_device_range(dst, dst_span);
      break;
    case cudaMemcpyDeviceToHost:
      if ((e = check_device_range(src, src_span)) == cudaSuccess)
        e = check_host_range(dst, dst_span);
      break;
    case cudaMemcpyDeviceToDevice:
      if ((e = check_device_range(src, src_span)) == cudaSuccess)
        e = check_device_range(dst, dst_span);
      break;
    case cudaMemcpyDefault:
      if ((e = check_any_range(src, src_span)) == cudaSuccess) e = check_any_range(dst, dst_span);
      break;
    default:
      return cudaErrorInvalidMemcpyDirection;
  }
  return e;
}

// Host memory the runtime does not know (not pinned, registered or managed): pageable.
bool is_pageable(const void* p) {
  const std::optional<allocation> a = lookup_allocation(p);
  return !a || a->freed;
}

// The first byte a side of a 3D copy touches, and how many bytes its rows span from there.
char* first_byte(const cudaPitchedPtr& p, const cudaPos& pos) {
  return static_cast<char*>(p.ptr) + pos.z * p.pitch * p.ysize + pos.y * p.pitch + pos.x;
}
std::size_t span_bytes(const cudaPitchedPtr& p, const cudaExtent& e) {
  if (e.width == 0 || e.height == 0 || e.depth == 0) return 0;
  return (e.depth - 1) * p.pitch * p.ysize + (e.height - 1) * p.pitch + e.width;
}

// A copy of `count` bytes as a 3D copy of one row.
cudaMemcpy3DParms linear_copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), count, count, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  p.kind = kind;
  return p;
}

// Runs a validated copy on `stream` with CUDA's host synchronisation rules. blocking: cudaMemcpy
// and its kin (the default stream, and the host waits; buffered device printf output is written
// out). A capturing stream records it as a memcpy node instead.
cudaError_t submit_copy(cudaStream_t stream, bool blocking, cudaMemcpy3DParms p) {
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return x;
  if (capturing(stream)) {
    if (blocking) return capture_forbids_sync(stream);
    node_body b;
    b.type = cudaGraphNodeTypeMemcpy;
    b.copy = p;
    return capture_node(stream, std::move(b));
  }
  const char* what = blocking ? "cudaMemcpy" : "cudaMemcpyAsync";
  char* dst = first_byte(p.dstPtr, p.dstPos);
  const char* src = first_byte(p.srcPtr, p.srcPos);
  if (blocking || is_pageable(dst)) {
    wait_for(enqueue(stream, [p] { copy_3d_now(p); }, {}, what));
    if (blocking) flush_device_output();
    return cudaSuccess;
  }
  if (is_pageable(src) && !streams_synchronous()) {
    // Staged: the host may reuse its buffer once the call returns.
    auto staged = std::make_shared<std::vector<char>>(src, src + span_bytes(p.srcPtr, p.extent));
    cudaMemcpy3DParms q = p;
    q.srcPtr.ptr = staged->data();
    q.srcPos = {};
    enqueue(stream, [q, staged] { copy_3d_now(q); }, {}, what);
    return cudaSuccess;
  }
  enqueue(stream, [p] { copy_3d_now(p); }, {}, what);
  return cudaSuccess;
}

cudaError_t memcpy_impl(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                        cudaStream_t stream, bool blocking) {
  const graph_node_scope for_graph(capturing(stream));
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return cudaErrorInvalidValue;
  if (cudaError_t e = check_copy(dst, count, src, count, kind); e != cudaSuccess) return e;
  return submit_copy(stream, blocking, linear_copy(dst, src, count, kind));
}

cudaMemcpy3DParms pitched_copy(void* dst, std::size_t dpitch, const void* src,
                               std::size_t spitch, std::size_t width, std::size_t height,
                               cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), spitch, width, height);
  p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, height);
  p.extent = make_cudaExtent(width, height, 1);
  p.kind = kind;
  return p;
}

cudaError_t memcpy2d_impl(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                          std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          cudaStream_t stream, bool blocking) {
  const graph_node_scope for_graph(capturing(stream));
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  if (width == 0 || height == 0) return cudaSuccess;
  if (!dst || !src) return cudaErrorInvalidValue;
  if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
  const std::size_t dspan = dpitch * (height - 1) + width;
  const std::size_t sspan = spitch * (height - 1) + width;
  if (cudaError_t e = check_copy(dst, dspan, src, sspan, kind); e != cudaSuccess) return e;
  return submit_copy(stream, blocking, pitched_copy(dst, dpitch, src, spitch, width, height, kind));
}

// A validated memset: asynchronous, except into pinned host or managed memory. A capturing stream records
// it as a memset node.
cudaError_t submit_memset(cudaStream_t stream, const cudaMemsetParams& p) {
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return x;
  if (capturing(stream)) {
    node_body b;
    b.type = cudaGraphNodeTypeMemset;
    b.set = p;
    return capture_node(stream, std::move(b));
  }
  const std::optional<allocation> a = lookup_allocation(p.dst);
  // Into managed memory too: on an H200 a host store right after cudaMemset of managed memory is
  // never overwritten by the memset (tests/dynamic_parallelism, cdp.cu's first lines).
  const bool host = a && (a->kind == memory_kind::host_pinned ||
                          a->kind == memory_kind::host_registered ||
                          a->kind == memory_kind::managed);
  const stream_position at = enqueue(stream, [p] { memset_2d_now(p); }, {}, "memset");
  if (host) wait_for(at);
  return cudaSuccess;
}

cudaMemsetParams byte_memset(void* dst, std::size_t pitch, int value, std::size_t width,
                             std::size_t height) {
  cudaMemsetParams p{};
  p.dst = dst;
  p.pitch = pitch;
  p.value = static_cast<unsigned char>(value);
  p.elementSize = 1;
  p.width = width;
  p.height = height;
  return p;
}

cudaError_t memset_impl(void* dst, int value, std::size_t count, cudaStream_t stream) {
  const graph_node_scope for_graph(capturing(stream));
  if (count == 0) return cudaSuccess;
  if (!dst) return cudaErrorInvalidValue;
  if (cudaError_t e = check_device_range(dst, count); e != cudaSuccess) return e;
  return submit_memset(stream, byte_memset(dst, count, value, count, 1));
}

cudaError_t memset2d_impl(void* dst, std::size_t pitch, int value, std::size_t width,
                          std::size_t height, cudaStream_t stream) {
  const graph_node_scope for_graph(capturing(stream));
  if (width == 0 || height == 0) return cudaSuccess;
  if (!dst) return cudaErrorInvalidValue;
  if (width > pitch && height > 1) return cudaErrorInvalidPitchValue;
  if (cudaError_t e = check_device_range(dst, pitch * (height - 1) + width); e != cudaSuccess)
    return e;
  return submit_memset(stream, byte_memset(dst, pitch, value, width, height));
}

// cudaMemset3D: `extent.depth` slices of `extent.height` rows of `extent.width` bytes.
cudaError_t memset3d_impl(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream) {
  const graph_node_scope for_graph(capturing(stream));
  if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
  if (!p.ptr) return cudaErrorInvalidValue;
  if (e.width > p.pitch || (e.depth > 1 && e.height > p.ysize)) return cudaErrorInvalidValue;
  const std::size_t slice = p.pitch * p.ysize;
  if (cudaError_t err = check_device_range(p.ptr, slice * (e.depth - 1) + p.pitch * (e.height - 1) + e.width);
      err != cudaSuccess)
    return err;
  if (e.depth == 1 || e.height == p.ysize)  // rows at one pitch throughout
    return submit_memset(stream, byte_memset(p.ptr, p.pitch, value, e.width, e.height * e.depth));
  for (std::size_t z = 0; z < e.depth; ++z)
    if (cudaError_t err = submit_memset(stream, byte_memset(static_cast<char*>(p.ptr) + z * slice,
                                                            p.pitch, value, e.width, e.height));
        err != cudaSuccess)
      return err;
  return cudaSuccess;
}

std::size_t known_symbol_size(const void* symbol) {
  const std::optional<allocation> a = lookup_allocation(symbol);
  if (a && a->kind == memory_kind::symbol && a->base == reinterpret_cast<std::uintptr_t>(symbol) &&
      a->size != 0)
    return a->size;
  return k_unknown_size;
}

}  // namespace

// --- the internal interface ---

const allocation* find_allocation(const void* p) {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  return find_locked(t, reinterpret_cast<std::uintptr_t>(p));
}

bool is_device_heap(const allocation& a) { return a.flags & k_device_heap; }

std::optional<allocation> lookup_allocation(const void* p) {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  if (const allocation* a = find_locked(t, reinterpret_cast<std::uintptr_t>(p))) return *a;
  return std::nullopt;
}

void register_symbol(const void* p, std::size_t size) {
  if (!p) return;
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(p);
  auto it = t.by_base.find(base);
  if (it != t.by_base.end() && !it->second->freed) {
    if (it->second->kind == memory_kind::symbol && it->second->size == 0 && size != 0)
      it->second->size = size;
    return;
  }
  if (find_locked(t, base) && !find_locked(t, base)->freed) return;  // inside another record
  insert_locked(t, base, size, memory_kind::symbol, 0);
}

std::size_t device_bytes_in_use() {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  return t.device_bytes;
}

cudaError_t allocate_memory(void** out, std::size_t size, memory_kind kind, unsigned int flags) {
  return allocate(out, size, kind, flags);
}

cudaError_t release_device_memory(void* p) { return release(p, true, false); }

void register_ipc_mapping(void* base, std::size_t size) {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  insert_locked(t, reinterpret_cast<std::uintptr_t>(base), size, memory_kind::device,
                k_ipc_mapping);
}

void unregister_ipc_mapping(void* base) {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(base));
  if (it == t.by_base.end() || it->second->freed || !(it->second->flags & k_ipc_mapping)) return;
  mark_freed_locked(t, it->second);
}

cudaError_t reserve_graph_memory(void** out, std::size_t size) {
  if (cudaError_t e = allocate(out, size, memory_kind::device, k_graph_memory); e != cudaSuccess)
    return e;
  {
    table& t = the_table();
    std::unique_lock lock(t.mutex);
    t.graph.live += size;  // set_graph_memory_live takes it off again
  }
  set_graph_memory_live(*out, false);  // usable once a launch passes its allocation node
  return cudaSuccess;
}

graph_memory_counts graph_memory_footprint() {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  return t.graph;
}

void reset_graph_memory_high(bool used, bool reserved) {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  if (used) t.graph.used_high = t.graph.used;
  if (reserved) t.graph.reserved_high = t.graph.reserved;
}

namespace {
constexpr std::size_t k_graph_granule = std::size_t{32} << 20;
void map_graph_memory_locked(table& t, std::size_t bytes) {
  t.graph.used = t.graph.reserved = bytes;
  t.graph.used_high = std::max(t.graph.used_high, bytes);
  t.graph.reserved_high = std::max(t.graph.reserved_high, bytes);
}
}  // namespace

void trim_graph_memory() {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  map_graph_memory_locked(t, round_up(t.graph.live, k_graph_granule));
}

void set_graph_memory_live(void* p, bool live) {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(p);
  auto it = t.by_base.find(base);
  allocation* a = it == t.by_base.end() ? nullptr : it->second;
  if (!a || !(a->flags & k_graph_memory)) return;
  if (!live) {
    if (!a->freed) {
      mark_freed_locked(t, a);
      t.graph.live -= a->size;
#ifdef CUEMU_MEMCHECK
      // memcheck: an access now is a use after free (the report names the graph allocation).
      __asan_poison_memory_region(p, a->size);
#endif
    }
    return;
  }
  if (!a->freed) return;
#ifdef CUEMU_MEMCHECK
  __asan_unpoison_memory_region(p, a->size);
#endif
  a->freed = false;
  t.device_bytes += a->size;
  t.graph.live += a->size;
  if (t.graph.live > t.graph.used) map_graph_memory_locked(t, round_up(t.graph.live, k_graph_granule));
}

graph_node_scope::graph_node_scope(bool on) : was_(t_for_graph) { t_for_graph = was_ || on; }
graph_node_scope::~graph_node_scope() { t_for_graph = was_; }

void set_graph_memory_mapped(void* p, bool mapped) {
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == t.by_base.end() || !(it->second->flags & k_graph_memory)) return;
  if (mapped)
    it->second->flags |= k_graph_mapped;
  else
    it->second->flags &= ~k_graph_mapped;
}

bool graph_memory_mapped(const void* p) {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(p));
  return it != t.by_base.end() && (it->second->flags & k_graph_mapped);
}

bool is_graph_memory(const void* p) {
  table& t = the_table();
  std::shared_lock lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(p));
  return it != t.by_base.end() && (it->second->flags & k_graph_memory);
}

void drop_graph_memory(void* p, std::size_t size) {
  table& t = the_table();
  {
    std::unique_lock lock(t.mutex);
    auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(p));
    if (it != t.by_base.end() && (it->second->flags & k_graph_memory)) {
      if (!it->second->freed) {
        mark_freed_locked(t, it->second);
        t.graph.live -= size;
      }
      t.by_base.erase(it);
    }
  }
  std::free(p);
}

void copy_3d_now(const cudaMemcpy3DParms& p) {
  const char* src = first_byte(p.srcPtr, p.srcPos);
  char* dst = first_byte(p.dstPtr, p.dstPos);
  const std::size_t sslice = p.srcPtr.pitch * p.srcPtr.ysize;
  const std::size_t dslice = p.dstPtr.pitch * p.dstPtr.ysize;
  // The streams checker: a pageable source is read at the call (CUDA stages it), so only other
  // sources count as the work's reads.
  const bool src_read_later = hooks::streams_checked() && !is_pageable(src);
  for (std::size_t z = 0; z < p.extent.depth; ++z)
    for (std::size_t y = 0; y < p.extent.height; ++y) {
      char* d = dst + z * dslice + y * p.dstPtr.pitch;
      const char* s = src + z * sslice + y * p.srcPtr.pitch;
      if (src_read_later) hooks::work_accessed(s, p.extent.width, false);
      hooks::work_accessed(d, p.extent.width, true);
      std::memmove(d, s, p.extent.width);
    }
}

void memset_2d_now(const cudaMemsetParams& p) {
  for (std::size_t r = 0; r < p.height; ++r) {
    char* row = static_cast<char*>(p.dst) + r * p.pitch * p.elementSize;
    hooks::work_accessed(row, p.width * p.elementSize, true);
    switch (p.elementSize) {
      case 1:
        std::memset(row, static_cast<int>(p.value & 0xff), p.width);
        break;
      case 2: {
        const std::uint16_t v = static_cast<std::uint16_t>(p.value);
        for (std::size_t i = 0; i < p.width; ++i) std::memcpy(row + 2 * i, &v, 2);
        break;
      }
      default: {
        const std::uint32_t v = p.value;
        for (std::size_t i = 0; i < p.width; ++i) std::memcpy(row + 4 * i, &v, 4);
        break;
      }
    }
  }
}

// A 3D copy (cudaMemcpy3D, memcpy nodes) between linear memory: positions and extent in bytes
// and rows. CUDA arrays are not emulated.
cudaError_t validate_copy(const cudaMemcpy3DParms& p) {
  if (p.srcArray || p.dstArray) return cudaErrorInvalidValue;  // resolve_copy_arrays first
  if (p.kind < cudaMemcpyHostToHost || p.kind > cudaMemcpyDefault)
    return cudaErrorInvalidMemcpyDirection;
  const cudaExtent& e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
  if (!p.srcPtr.ptr || !p.dstPtr.ptr) return cudaErrorInvalidValue;
  for (const auto& [ptr, pos] : {std::pair{p.srcPtr, p.srcPos}, std::pair{p.dstPtr, p.dstPos}}) {
    if (ptr.pitch == 0 || pos.x > ptr.pitch || e.width > ptr.pitch - pos.x)
      return cudaErrorInvalidValue;  // as an H200 answers (cudaMemcpy2D: InvalidPitchValue)
    if ((e.depth > 1 || pos.z > 0) && (pos.y > ptr.ysize || e.height > ptr.ysize - pos.y))
      return cudaErrorInvalidValue;
  }
  return check_copy(first_byte(p.dstPtr, p.dstPos), span_bytes(p.dstPtr, e),
                    first_byte(p.srcPtr, p.srcPos), span_bytes(p.srcPtr, e), p.kind);
}

cudaError_t validate_memset(const cudaMemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return cudaErrorInvalidValue;
  if (p.width == 0 || p.height == 0) return cudaSuccess;
  if (!p.dst) return cudaErrorInvalidValue;
  if (p.height > 1 && p.width > p.pitch) return cudaErrorInvalidValue;
  return check_device_range(p.dst, (p.pitch * (p.height - 1) + p.width) * p.elementSize);
}

// Frees everything allocated through the runtime (cudaDeviceReset).
void free_all_allocations() {
  table& t = the_table();
  std::vector<void*> to_free;
  {
    std::unique_lock lock(t.mutex);
    for (auto& [base, a] : t.by_base) {
      if (a->freed) continue;
      if (a->kind == memory_kind::device || a->kind == memory_kind::managed ||
          a->kind == memory_kind::host_pinned) {
        mark_freed_locked(t, a);
        // Another process's memory is unmapped below, not freed.
        if (!(a->flags & k_ipc_mapping)) to_free.push_back(reinterpret_cast<void*>(base));
      } else if (a->kind == memory_kind::host_registered) {
        a->freed = true;
      }
    }
  }
  // Outside the table's lock: the interprocess state takes its own, and asks the table.
  drop_all_imports();
  for (void* p : to_free) {
    forget_export(p);
    std::free(p);
  }
}

// --- symbols (the C++ overloads in cuda_runtime_api.h pass the symbol's size) ---

cudaError_t memcpy_to_symbol(const void* symbol, std::size_t symbol_size, const void* src,
                             std::size_t count, std::size_t offset, cudaMemcpyKind kind,
                             cudaStream_t stream, bool async) {
  const graph_node_scope for_graph(capturing(stream));
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (async && !valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return record_error(cudaErrorInvalidMemcpyDirection);
  if (symbol_size != k_unknown_size) register_symbol(symbol, symbol_size);
  else symbol_size = known_symbol_size(symbol);
  if (offset > symbol_size || count > symbol_size - offset) return record_error(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  if (!src) return record_error(cudaErrorInvalidValue);
  cudaError_t e = kind == cudaMemcpyHostToDevice     ? check_host_range(src, count)
                  : kind == cudaMemcpyDeviceToDevice ? check_device_range(src, count)
                                                     : check_any_range(src, count);
  if (e != cudaSuccess) return record_error(e);
  return record_error(submit_copy(
      async ? stream : nullptr, !async,
      linear_copy(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, count, kind)));
}

cudaError_t memcpy_from_symbol(void* dst, const void* symbol, std::size_t symbol_size,
                               std::size_t count, std::size_t offset, cudaMemcpyKind kind,
                               cudaStream_t stream, bool async) {
  const graph_node_scope for_graph(capturing(stream));
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (async && !valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault)
    return record_error(cudaErrorInvalidMemcpyDirection);
  if (symbol_size != k_unknown_size) register_symbol(symbol, symbol_size);
  else symbol_size = known_symbol_size(symbol);
  if (offset > symbol_size || count > symbol_size - offset) return record_error(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  if (!dst) return record_error(cudaErrorInvalidValue);
  cudaError_t e = kind == cudaMemcpyDeviceToHost     ? check_host_range(dst, count)
                  : kind == cudaMemcpyDeviceToDevice ? check_device_range(dst, count)
                                                     : check_any_range(dst, count);
  if (e != cudaSuccess) return record_error(e);
  return record_error(submit_copy(
      async ? stream : nullptr, !async,
      linear_copy(dst, static_cast<const char*>(symbol) + offset, count, kind)));
}

cudaError_t get_symbol_address(void** devPtr, const void* symbol, std::size_t symbol_size) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!devPtr) return record_error(cudaErrorInvalidValue);
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  register_symbol(symbol, symbol_size == k_unknown_size ? 0 : symbol_size);
  *devPtr = const_cast<void*>(symbol);
  return cudaSuccess;
}

cudaError_t get_symbol_size(std::size_t* size, const void* symbol, std::size_t symbol_size) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!size) return record_error(cudaErrorInvalidValue);
  if (!symbol) return record_error(cudaErrorInvalidSymbol);
  if (symbol_size == k_unknown_size) symbol_size = known_symbol_size(symbol);
  if (symbol_size == k_unknown_size) return record_error(cudaErrorInvalidSymbol);
  register_symbol(symbol, symbol_size);
  *size = symbol_size;
  return cudaSuccess;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

#define CUEMU_STICKY_CHECK()                                            \
  do {                                                                  \
    if (cudaError_t s_ = sticky_error(); s_ != cudaSuccess) return s_;  \
  } while (0)
#define CUEMU_STREAM_CHECK(st)                                                      \
  do {                                                                              \
    if (!valid_stream(st)) return record_error(cudaErrorInvalidResourceHandle);     \
  } while (0)

// --- the device runtime's copies (dynamic parallelism) ---

namespace cuemu::detail {

cudaError_t device_memcpy_async(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                                cudaStream_t stream) {
  // Device code copies between device-accessible memory only.
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return record_error(cudaErrorInvalidMemcpyDirection);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return record_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_copy(dst, count, src, count, cudaMemcpyDeviceToDevice);
      e != cudaSuccess)
    return record_error(e);
  const cudaMemcpy3DParms p = linear_copy(dst, src, count, cudaMemcpyDeviceToDevice);
  return issue_device_op(stream, [p] { copy_3d_now(p); });
}

cudaError_t device_memset_async(void*, int, std::size_t, cudaStream_t) {
  // On an H200 (CUDA 13.0, driver 580.159.04) it returns cudaSuccess and sets nothing, whatever
  // the memory, size, alignment or stream: the emulator does the same, and says so once.
  static std::once_flag said;
  std::call_once(said, [] {
    std::fprintf(stderr,
                 "cuemu: warning: cudaMemsetAsync called in device code: on an H200 it returns "
                 "cudaSuccess and sets no memory, and so it does here (use a kernel, or "
                 "cudaMemcpyAsync)\n");
  });
  return cudaSuccess;
}

}  // namespace cuemu::detail

// --- allocation ---

extern "C" cudaError_t cudaMalloc(void** devPtr, size_t size) {
  CUEMU_STICKY_CHECK();
  // Device code allocates from the device heap, like malloc() there: no capture, no
  // synchronisation; when the heap is full, cudaErrorMemoryAllocation and the pointer left as it
  // was (as an H200 answers).
  if (on_cuda_thread()) {
    if (!devPtr) return record_error(cudaErrorInvalidValue);
    void* p = nullptr;
    const cudaError_t e = allocate(&p, size, memory_kind::device, k_device_heap);
    if (e == cudaSuccess) *devPtr = p;
    return record_error(e);
  }
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!devPtr) return record_error(cudaErrorInvalidValue);
  return record_error(allocate(devPtr, size, memory_kind::device, 0));
}

extern "C" cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!devPtr || size == 0) return record_error(cudaErrorInvalidValue);
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return record_error(cudaErrorInvalidValue);
  return record_error(allocate(devPtr, size, memory_kind::managed, flags));
}

extern "C" cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

extern "C" cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!pHost) return record_error(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned int>(cudaHostAllocPortable | cudaHostAllocMapped |
                                         cudaHostAllocWriteCombined))
    return record_error(cudaErrorInvalidValue);
  return record_error(allocate(pHost, size, memory_kind::host_pinned, flags));
}

extern "C" cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!devPtr || !pitch) return record_error(cudaErrorInvalidValue);
  const std::size_t p = round_up(width, k_pitch_alignment);
  if (width > p || (height && p > std::numeric_limits<std::size_t>::max() / height)) {
    *devPtr = nullptr;
    return record_error(cudaErrorMemoryAllocation);
  }
  *pitch = p;
  return record_error(allocate(devPtr, p * height, memory_kind::device, 0));
}

extern "C" cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!pitchedDevPtr) return record_error(cudaErrorInvalidValue);
  const std::size_t p = round_up(extent.width, k_pitch_alignment);
  const std::size_t rows = extent.height * extent.depth;
  if (extent.width > p || (extent.depth && extent.height > std::numeric_limits<std::size_t>::max() / extent.depth) ||
      (rows && p > std::numeric_limits<std::size_t>::max() / rows))
    return record_error(cudaErrorMemoryAllocation);
  void* ptr = nullptr;
  if (cudaError_t e = allocate(&ptr, p * rows, memory_kind::device, 0); e != cudaSuccess)
    return record_error(e);
  pitchedDevPtr->ptr = ptr;
  pitchedDevPtr->pitch = p;
  pitchedDevPtr->xsize = extent.width;
  pitchedDevPtr->ysize = extent.height;
  return cudaSuccess;
}

// Like CUDA's, waits for the device's work first (it may still use the memory).
extern "C" cudaError_t cudaFree(void* devPtr) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!devPtr) return cudaSuccess;
  if (on_cuda_thread()) {  // the device heap
    // Memory the runtime does not know (or knew only as freed, not of the heap: its address was
    // handed out again) came from malloc in device code: the same heap on a GPU.
    const std::optional<allocation> a = lookup_allocation(devPtr);
    if (!a || (a->freed && !(a->flags & k_device_heap))) {
      std::free(devPtr);
      return cudaSuccess;
    }
    if (release(devPtr, true, false, true) != cudaSuccess) device_free_fault(devPtr);
    return cudaSuccess;
  }
  synchronize_device();
  return record_error(release(devPtr, true, false));
}

extern "C" cudaError_t cudaFreeHost(void* ptr) {
  CUEMU_STICKY_CHECK();
  if (cudaError_t x = capture_forbids_unsafe_call(); x != cudaSuccess) return record_error(x);
  if (!ptr) return cudaSuccess;
  synchronize_device();
  return record_error(release(ptr, false, true));
}

extern "C" cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!ptr || size == 0) return record_error(cudaErrorInvalidValue);
  if (flags & ~static_cast<unsigned int>(cudaHostRegisterPortable | cudaHostRegisterMapped |
                                         cudaHostRegisterIoMemory | cudaHostRegisterReadOnly))
    return record_error(cudaErrorInvalidValue);
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(ptr);
  // Any live record overlapping [base, base + size)?
  auto it = t.by_base.upper_bound(base);
  if (it != t.by_base.begin()) {
    auto prev = std::prev(it);
    if (!prev->second->freed && prev->first + prev->second->size > base)
      return record_error(prev->second->kind == memory_kind::host_registered
                              ? cudaErrorHostMemoryAlreadyRegistered
                              : cudaErrorInvalidValue);
  }
  for (; it != t.by_base.end() && it->first < base + size; ++it)
    if (!it->second->freed)
      return record_error(it->second->kind == memory_kind::host_registered
                              ? cudaErrorHostMemoryAlreadyRegistered
                              : cudaErrorInvalidValue);
  insert_locked(t, base, size, memory_kind::host_registered, flags);
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostUnregister(void* ptr) {
  CUEMU_STICKY_CHECK();
  if (!ptr) return record_error(cudaErrorInvalidValue);
  synchronize_device();
  table& t = the_table();
  std::unique_lock lock(t.mutex);
  auto it = t.by_base.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == t.by_base.end() || it->second->freed ||
      it->second->kind != memory_kind::host_registered)
    return record_error(cudaErrorHostMemoryNotRegistered);
  it->second->freed = true;
  t.by_base.erase(it);
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  CUEMU_STICKY_CHECK();
  if (!pDevice || !pHost || flags != 0) return record_error(cudaErrorInvalidValue);
  const std::optional<allocation> a = lookup_allocation(pHost);
  if (!a || a->freed ||
      (a->kind != memory_kind::host_pinned && a->kind != memory_kind::host_registered &&
       a->kind != memory_kind::managed))
    return record_error(cudaErrorInvalidValue);
  *pDevice = pHost;
  return cudaSuccess;
}

extern "C" cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  CUEMU_STICKY_CHECK();
  if (!pFlags || !pHost) return record_error(cudaErrorInvalidValue);
  const std::optional<allocation> a = lookup_allocation(pHost);
  if (!a || a->freed ||
      (a->kind != memory_kind::host_pinned && a->kind != memory_kind::host_registered))
    return record_error(cudaErrorInvalidValue);
  *pFlags = a->flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  CUEMU_STICKY_CHECK();
  const std::size_t t = device_properties().totalGlobalMem;
  const std::size_t used = device_bytes_in_use();
  if (free) *free = t - used;
  if (total) *total = t;
  return cudaSuccess;
}

extern "C" cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  CUEMU_STICKY_CHECK();
  if (!attributes) return record_error(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  const std::optional<allocation> a = lookup_allocation(ptr);
  if (!a || a->freed) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = cudaInvalidDeviceId;
    attributes->hostPointer = const_cast<void*>(ptr);
    return cudaSuccess;
  }
  void* p = const_cast<void*>(ptr);
  attributes->device = 0;
  switch (a->kind) {
    case memory_kind::device:
    case memory_kind::symbol:
      attributes->type = cudaMemoryTypeDevice;
      attributes->devicePointer = p;
      break;
    case memory_kind::managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->devicePointer = p;
      attributes->hostPointer = p;
      break;
    case memory_kind::host_pinned:
    case memory_kind::host_registered:
      attributes->type = cudaMemoryTypeHost;
      attributes->devicePointer = p;
      attributes->hostPointer = p;
      break;
  }
  return cudaSuccess;
}

// --- copies ---

extern "C" cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  CUEMU_STICKY_CHECK();
  return record_error(memcpy_impl(dst, src, count, kind, nullptr, true));
}

extern "C" cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                       cudaMemcpyKind kind, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (on_cuda_thread()) return device_memcpy_async(dst, src, count, kind, stream);
  CUEMU_STREAM_CHECK(stream);
  return record_error(memcpy_impl(dst, src, count, kind, stream, false));
}

extern "C" cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice,
                                      size_t count) {
  CUEMU_STICKY_CHECK();
  if (dstDevice != 0 || srcDevice != 0) return record_error(cudaErrorInvalidDevice);
  return record_error(memcpy_impl(dst, src, count, cudaMemcpyDeviceToDevice, nullptr, true));
}

extern "C" cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src,
                                           int srcDevice, size_t count, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  if (dstDevice != 0 || srcDevice != 0) return record_error(cudaErrorInvalidDevice);
  return record_error(memcpy_impl(dst, src, count, cudaMemcpyDeviceToDevice, stream, false));
}

extern "C" cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                    size_t width, size_t height, cudaMemcpyKind kind) {
  CUEMU_STICKY_CHECK();
  return record_error(memcpy2d_impl(dst, dpitch, src, spitch, width, height, kind, nullptr, true));
}

extern "C" cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                         size_t width, size_t height, cudaMemcpyKind kind,
                                         cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  return record_error(memcpy2d_impl(dst, dpitch, src, spitch, width, height, kind, stream, false));
}

extern "C" cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                          size_t offset, cudaMemcpyKind kind) {
  return memcpy_to_symbol(symbol, k_unknown_size, src, count, offset, kind, nullptr, false);
}

extern "C" cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count,
                                            size_t offset, cudaMemcpyKind kind) {
  return memcpy_from_symbol(dst, symbol, k_unknown_size, count, offset, kind, nullptr, false);
}

extern "C" cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                               size_t offset, cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return memcpy_to_symbol(symbol, k_unknown_size, src, count, offset, kind, stream, true);
}

extern "C" cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                                 size_t offset, cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return memcpy_from_symbol(dst, symbol, k_unknown_size, count, offset, kind, stream, true);
}

extern "C" cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return get_symbol_address(devPtr, symbol, k_unknown_size);
}

extern "C" cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  return get_symbol_size(size, symbol, k_unknown_size);
}

extern "C" cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* params) {
  CUEMU_STICKY_CHECK();
  if (!params) return record_error(cudaErrorInvalidValue);
  cudaMemcpy3DParms q = *params;
  const cudaMemcpy3DParms* p = &q;
  if (cudaError_t e = resolve_copy_arrays(q); e != cudaSuccess) return record_error(e);
  if (cudaError_t e = validate_copy(*p); e != cudaSuccess) return record_error(e);
  if (p->extent.width == 0 || p->extent.height == 0 || p->extent.depth == 0) return cudaSuccess;
  return record_error(submit_copy(nullptr, true, *p));
}

extern "C" cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* params, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  if (!params) return record_error(cudaErrorInvalidValue);
  cudaMemcpy3DParms q = *params;
  const cudaMemcpy3DParms* p = &q;
  if (cudaError_t e = resolve_copy_arrays(q); e != cudaSuccess) return record_error(e);
  const graph_node_scope for_graph(capturing(stream));
  if (cudaError_t e = validate_copy(*p); e != cudaSuccess) return record_error(e);
  if (p->extent.width == 0 || p->extent.height == 0 || p->extent.depth == 0) return cudaSuccess;
  return record_error(submit_copy(stream, false, *p));
}

namespace {
cudaError_t peer_as_3d(const cudaMemcpy3DPeerParms* p, cudaMemcpy3DParms& out) {
  if (!p) return cudaErrorInvalidValue;
  if (p->srcDevice != 0 || p->dstDevice != 0) return cudaErrorInvalidDevice;
  out = cudaMemcpy3DParms{};
  out.srcArray = p->srcArray;
  out.srcPos = p->srcPos;
  out.srcPtr = p->srcPtr;
  out.dstArray = p->dstArray;
  out.dstPos = p->dstPos;
  out.dstPtr = p->dstPtr;
  out.extent = p->extent;
  out.kind = cudaMemcpyDeviceToDevice;
  return cudaSuccess;
}
}  // namespace

extern "C" cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p) {
  CUEMU_STICKY_CHECK();
  cudaMemcpy3DParms q;
  if (cudaError_t e = peer_as_3d(p, q); e != cudaSuccess) return record_error(e);
  return cudaMemcpy3D(&q);
}

extern "C" cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  cudaMemcpy3DParms q;
  if (cudaError_t e = peer_as_3d(p, q); e != cudaSuccess) return record_error(e);
  return cudaMemcpy3DAsync(&q, stream);
}

// --- memset ---

extern "C" cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  CUEMU_STICKY_CHECK();
  return record_error(memset_impl(devPtr, value, count, nullptr));
}

extern "C" cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  if (on_cuda_thread()) return device_memset_async(devPtr, value, count, stream);
  CUEMU_STREAM_CHECK(stream);
  return record_error(memset_impl(devPtr, value, count, stream));
}

extern "C" cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width,
                                    size_t height) {
  CUEMU_STICKY_CHECK();
  return record_error(memset2d_impl(devPtr, pitch, value, width, height, nullptr));
}

extern "C" cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width,
                                         size_t height, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  return record_error(memset2d_impl(devPtr, pitch, value, width, height, stream));
}

extern "C" cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  CUEMU_STICKY_CHECK();
  return record_error(memset3d_impl(pitchedDevPtr, value, extent, nullptr));
}

extern "C" cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value,
                                         cudaExtent extent, cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  return record_error(memset3d_impl(pitchedDevPtr, value, extent, stream));
}

// --- managed memory hints: no effect (one address space) ---

extern "C" cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count,
                                            cudaMemLocation location, unsigned int flags,
                                            cudaStream_t stream) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  (void)location;
  if (flags != 0 || (count && !devPtr)) return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                                     cudaMemLocation location) {
  CUEMU_STICKY_CHECK();
  (void)location;
  if ((count && !devPtr) || advice < cudaMemAdviseSetReadMostly ||
      advice > cudaMemAdviseUnsetAccessedBy)
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                                unsigned int flags) {
  CUEMU_STICKY_CHECK();
  CUEMU_STREAM_CHECK(stream);
  (void)length;
  if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
                  flags != cudaMemAttachSingle))
    return record_error(cudaErrorInvalidValue);
  return cudaSuccess;
}
