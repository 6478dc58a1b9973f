// Stream-ordered allocation and memory pools: cudaMallocAsync / cudaFreeAsync, the device's
// default pool, pools of the program's own, their attributes and accounting.
//
// An allocation's address is handed out at the call (as CUDA does) and its memory is usable by
// work queued after it; cudaFreeAsync frees once the stream's earlier work is done. A pool keeps
// freed bytes reserved up to its release threshold (cudaMemPoolAttrReleaseThreshold), which is
// what its reserved-memory attributes report; the bytes themselves come from the host's
// allocator. On a capturing stream the two calls make graph allocation and free nodes.
//
// A pool made with cudaMemHandleTypePosixFileDescriptor is shared with other processes as a
// descriptor of a small shared file that names it (its process and serial number); once it has
// been exported, cudaMemPoolExportPointer shares one of its allocations as interprocess memory
// (runtime/interprocess.h), which cudaMemPoolImportPointer maps into a pool imported from that
// descriptor, and cudaFreeAsync there unmaps.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include <cuda_runtime_api.h>

#include <unistd.h>

#include "runtime/graph.h"
#include "runtime/interprocess.h"
#include "runtime/runtime.h"

struct CUmemPoolHandle_st {
  cudaMemPoolProps props{};
  bool is_default = false;
  bool destroyed = false;
  unsigned long long release_threshold = 0;
  int reuse_follow_event_dependencies = 1;
  int reuse_allow_opportunistic = 1;
  int reuse_allow_internal_dependencies = 1;
  std::size_t used = 0, used_high = 0;  // bytes of live allocations
  std::size_t cached = 0;               // freed bytes kept reserved
  std::size_t reserved_high = 0;
  std::size_t reserved() const { return used + cached; }
  // Sharing between processes: the pool's name (process and serial number); whether it has
  // been exported; for a pool imported from a descriptor, the exporter's name.
  std::uint64_t serial = 0;
  bool exported = false;
  bool imported = false;
  std::int32_t owner_pid = 0;
  std::uint64_t owner_serial = 0;
};

namespace cuemu::detail {
namespace {

struct pools {
  std::mutex mutex;
  CUmemPoolHandle_st default_pool;
  cudaMemPool_t current = nullptr;
  std::unordered_set<cudaMemPool_t> live;
  struct owned {
    cudaMemPool_t pool;
    std::size_t size;
  };
  std::unordered_map<const void*, owned> allocations;
  pools() {
    default_pool.is_default = true;
    default_pool.props.allocType = cudaMemAllocationTypePinned;
    default_pool.props.location = {cudaMemLocationTypeDevice, 0};
    current = &default_pool;
    live.insert(&default_pool);
  }
};

pools& the_pools() {
  static pools* p = new pools;
  return *p;
}

std::uint64_t next_serial() {
  static std::atomic<std::uint64_t> n{0};
  return ++n;
}

// The shared file that names an exported pool, and the export data of one of its allocations.
struct pool_name {
  char magic[8];
  std::int32_t pid;
  std::int32_t unused;
  std::uint64_t serial;
};
constexpr char k_pool_magic[8] = {'c', 'u', 'e', 'm', 'u', 'P', 'O', 'L'};
constexpr char k_pointer_magic[8] = {'c', 'u', 'e', 'm', 'u', 'P', 'T', 'R'};
static_assert(sizeof(cudaMemPoolPtrExportData) == sizeof(shared_file_handle));

void trim_locked(CUmemPoolHandle_st& p, std::size_t keep) {
  const std::size_t room = keep > p.used ? keep - p.used : 0;
  p.cached = std::min(p.cached, room);
}

cudaError_t allocate_from(cudaMemPool_t pool, void** out, std::size_t size, cudaStream_t stream) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!out) return record_error(cudaErrorInvalidValue);
  pools& ps = the_pools();
  {
    std::lock_guard lock(ps.mutex);
    if (!ps.live.count(pool)) return record_error(cudaErrorInvalidValue);
    if (pool->props.maxSize && pool->used + size > pool->props.maxSize)
      return record_error(cudaErrorMemoryAllocation);
  }
  if (cudaError_t x = capture_forbids_legacy(stream); x != cudaSuccess) return record_error(x);
  if (capturing(stream)) {  // a graph allocation node
    if (size == 0) return record_error(cudaErrorInvalidValue);
    return record_error(capture_allocation(stream, size, out));
  }
  if (cudaError_t e = allocate_memory(out, size, memory_kind::device, k_pool_memory); e != cudaSuccess)
    return record_error(e);
  if (!*out) return cudaSuccess;
  std::lock_guard lock(ps.mutex);
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  pool->cached -= std::min(pool->cached, size);
  pool->reserved_high = std::max(pool->reserved_high, pool->reserved());
  ps.allocations[*out] = {pool, size};
  return cudaSuccess;
}

// The pool's accounting once a stream-ordered free has run.
void freed(const void* p) {
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  auto it = ps.allocations.find(p);
  if (it == ps.allocations.end()) return;
  CUmemPoolHandle_st& pool = *it->second.pool;
  pool.used -= it->second.size;
  pool.cached += it->second.size;
  trim_locked(pool, pool.release_threshold);
  ps.allocations.erase(it);
}

}  // namespace
}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  cudaMemPool_t pool;
  {
    pools& ps = the_pools();
    std::lock_guard lock(ps.mutex);
    pool = ps.current;
  }
  return allocate_from(pool, devPtr, size, hStream);
}

extern "C" cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool,
                                               cudaStream_t stream) {
  return allocate_from(memPool, ptr, size, stream);
}

// Freed in stream order: once the stream's earlier work is done.
extern "C" cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!valid_stream(hStream)) return record_error(cudaErrorInvalidResourceHandle);
  if (!devPtr) return cudaSuccess;
  if (cudaError_t x = capture_forbids_legacy(hStream); x != cudaSuccess) return record_error(x);
  if (capturing(hStream)) return record_error(capture_free(hStream, devPtr));
  // Another process's allocation imported into a pool: unmapped in stream order.
  if (const std::optional<allocation> a = lookup_allocation(devPtr);
      a && !a->freed && (a->flags & k_ipc_mapping)) {
    if (!imported_into_pool(devPtr)) return record_error(cudaErrorInvalidValue);
    enqueue(hStream, [devPtr] { (void)close_import(devPtr, true, false); }, {}, "cudaFreeAsync");
    return cudaSuccess;
  }
  // A graph's allocation, live once the stream's earlier work (its graph launch) has run.
  if (is_graph_memory(devPtr)) {
    if (!graph_memory_mapped(devPtr)) return record_error(cudaErrorInvalidValue);
    set_graph_memory_mapped(devPtr, false);
    enqueue(hStream, [devPtr] { set_graph_memory_live(devPtr, false); });
    return cudaSuccess;
  }
  const std::optional<allocation> a = lookup_allocation(devPtr);
  if (!a || a->freed || a->base != reinterpret_cast<std::uintptr_t>(devPtr) ||
      (a->kind != memory_kind::device && a->kind != memory_kind::managed))
    return record_error(cudaErrorInvalidValue);
  enqueue(hStream, [devPtr] {
    freed(devPtr);
    (void)release_device_memory(devPtr);
  }, {}, "cudaFreeAsync");
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  if (!memPool) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  *memPool = &the_pools().default_pool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  if (!memPool) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  *memPool = ps.current;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  ps.current = memPool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  if (!memPool || !poolProps) return record_error(cudaErrorInvalidValue);
  if (poolProps->allocType != cudaMemAllocationTypePinned) return record_error(cudaErrorInvalidValue);
  if (poolProps->location.type != cudaMemLocationTypeDevice)
    return record_error(cudaErrorInvalidValue);
  if (poolProps->location.id != 0) return record_error(cudaErrorInvalidDevice);
  auto* p = new CUmemPoolHandle_st;
  p->props = *poolProps;
  p->serial = next_serial();
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  ps.live.insert(p);
  *memPool = p;
  return cudaSuccess;
}

// Outstanding allocations stay valid; the pool goes once the program stops naming it.
extern "C" cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  if (!ps.live.count(memPool) || memPool->is_default) return record_error(cudaErrorInvalidValue);
  ps.live.erase(memPool);
  memPool->destroyed = true;
  if (ps.current == memPool) ps.current = &ps.default_pool;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  trim_locked(*memPool, minBytesToKeep);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr,
                                               void* value) {
  if (!value) return record_error(cudaErrorInvalidValue);
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  CUmemPoolHandle_st& p = *memPool;
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
      p.reuse_follow_event_dependencies = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic:
      p.reuse_allow_opportunistic = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies:
      p.reuse_allow_internal_dependencies = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      p.release_threshold = *static_cast<unsigned long long*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
      // Only a reset to 0 is allowed; the watermark restarts from the current value.
      if (*static_cast<unsigned long long*>(value) != 0) return record_error(cudaErrorInvalidValue);
      if (attr == cudaMemPoolAttrUsedMemHigh)
        p.used_high = p.used;
      else
        p.reserved_high = p.reserved();
      return cudaSuccess;
    default:
      return record_error(cudaErrorInvalidValue);
  }
}

extern "C" cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr,
                                               void* value) {
  if (!value) return record_error(cudaErrorInvalidValue);
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  const CUmemPoolHandle_st& p = *memPool;
  auto u64 = [&](std::size_t v) {
    *static_cast<unsigned long long*>(value) = v;
    return cudaSuccess;
  };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
      *static_cast<int*>(value) = p.reuse_follow_event_dependencies;
      return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic:
      *static_cast<int*>(value) = p.reuse_allow_opportunistic;
      return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies:
      *static_cast<int*>(value) = p.reuse_allow_internal_dependencies;
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: return u64(p.release_threshold);
    case cudaMemPoolAttrReservedMemCurrent: return u64(p.reserved());
    case cudaMemPoolAttrReservedMemHigh: return u64(p.reserved_high);
    case cudaMemPoolAttrUsedMemCurrent: return u64(p.used);
    case cudaMemPoolAttrUsedMemHigh: return u64(p.used_high);
    default: return record_error(cudaErrorInvalidValue);
  }
}

// One device: it always has read-write access to its pools.
extern "C" cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList,
                                            size_t count) {
  pools& ps = the_pools();
  {
    std::lock_guard lock(ps.mutex);
    if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  }
  if (count && !descList) return record_error(cudaErrorInvalidValue);
  for (std::size_t i = 0; i < count; ++i) {
    if (descList[i].location.type != cudaMemLocationTypeDevice)
      return record_error(cudaErrorInvalidValue);
    if (descList[i].location.id != 0) return record_error(cudaErrorInvalidDevice);
    if (descList[i].flags != cudaMemAccessFlagsProtReadWrite)
      return record_error(cudaErrorInvalidValue);  // the owning device's access cannot change
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool,
                                            cudaMemLocation* location) {
  if (!flags || !location) return record_error(cudaErrorInvalidValue);
  pools& ps = the_pools();
  {
    std::lock_guard lock(ps.mutex);
    if (!ps.live.count(memPool)) return record_error(cudaErrorInvalidValue);
  }
  if (location->type != cudaMemLocationTypeDevice) return record_error(cudaErrorInvalidValue);
  if (location->id != 0) return record_error(cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}

// --- sharing pools between processes ---

// A descriptor of a new shared file naming the pool (each call a new descriptor, as CUDA gives).
extern "C" cudaError_t cudaMemPoolExportToShareableHandle(void* shareableHandle,
                                                          cudaMemPool_t memPool,
                                                          cudaMemAllocationHandleType handleType,
                                                          unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!shareableHandle || flags != 0) return record_error(cudaErrorInvalidValue);
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  // A pool made with the handle type (not the default pool, not an imported one).
  if (!ps.live.count(memPool) || memPool->imported || handleType == cudaMemHandleTypeNone ||
      (memPool->props.handleTypes & handleType) != handleType)
    return record_error(cudaErrorInvalidValue);
  if (handleType != cudaMemHandleTypePosixFileDescriptor)
    return record_error(cudaErrorNotSupported);  // fabric handles need a fabric
  std::uint64_t ino = 0;
  const int fd = create_shared_file("cuemu-ipc-pool", sizeof(pool_name), &ino);
  if (fd < 0) return record_error(cudaErrorMemoryAllocation);
  pool_name name{};
  std::memcpy(name.magic, k_pool_magic, sizeof name.magic);
  name.pid = static_cast<std::int32_t>(::getpid());
  name.serial = memPool->serial;
  if (::pwrite(fd, &name, sizeof name, 0) != static_cast<ssize_t>(sizeof name)) {
    ::close(fd);
    return record_error(cudaErrorMemoryAllocation);
  }
  memPool->exported = true;
  *static_cast<int*>(shareableHandle) = fd;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t* memPool,
                                                            void* shareableHandle,
                                                            cudaMemAllocationHandleType handleType,
                                                            unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!memPool || flags != 0 || handleType != cudaMemHandleTypePosixFileDescriptor)
    return record_error(cudaErrorInvalidValue);
  // The descriptor travels in the pointer's bits.
  const int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(shareableHandle));
  pool_name name{};
  if (fd < 0 || ::pread(fd, &name, sizeof name, 0) != static_cast<ssize_t>(sizeof name) ||
      std::memcmp(name.magic, k_pool_magic, sizeof name.magic) != 0)
    return record_error(cudaErrorInvalidValue);
  auto* p = new CUmemPoolHandle_st;
  p->props.allocType = cudaMemAllocationTypePinned;
  p->props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  p->props.location = {cudaMemLocationTypeDevice, 0};
  p->serial = next_serial();
  p->imported = true;
  p->owner_pid = name.pid;
  p->owner_serial = name.serial;
  pools& ps = the_pools();
  std::lock_guard lock(ps.mutex);
  ps.live.insert(p);
  *memPool = p;
  return cudaSuccess;
}

// An allocation's base, of a pool that has been exported (an H100 refuses the allocations of a
// shareable pool not yet exported, interior pointers and other memory: cudaErrorInvalidValue).
extern "C" cudaError_t cudaMemPoolExportPointer(cudaMemPoolPtrExportData* exportData, void* ptr) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!exportData || !ptr) return record_error(cudaErrorInvalidValue);
  std::uint64_t serial = 0;
  {
    pools& ps = the_pools();
    std::lock_guard lock(ps.mutex);
    auto it = ps.allocations.find(ptr);
    if (it == ps.allocations.end() || !it->second.pool->exported)
      return record_error(cudaErrorInvalidValue);
    serial = it->second.pool->serial;
  }
  const std::optional<allocation> a = lookup_allocation(ptr);
  if (!a || a->freed) return record_error(cudaErrorInvalidValue);
  shared_file_handle h{};
  if (cudaError_t r = export_allocation(*a, h); r != cudaSuccess) return record_error(r);
  std::memcpy(h.magic, k_pointer_magic, sizeof h.magic);
  h.reserved[0] = serial;
  std::memcpy(exportData, &h, sizeof h);
  return cudaSuccess;
}

// Into the pool imported from the allocation's pool (any other pool: cudaErrorInvalidValue).
extern "C" cudaError_t cudaMemPoolImportPointer(void** ptr, cudaMemPool_t memPool,
                                                cudaMemPoolPtrExportData* exportData) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!ptr || !exportData) return record_error(cudaErrorInvalidValue);
  shared_file_handle h;
  std::memcpy(&h, exportData, sizeof h);
  {
    pools& ps = the_pools();
    std::lock_guard lock(ps.mutex);
    if (!ps.live.count(memPool) || !memPool->imported ||
        std::memcmp(h.magic, k_pointer_magic, sizeof h.magic) != 0 ||
        h.pid != memPool->owner_pid || h.reserved[0] != memPool->owner_serial)
      return record_error(cudaErrorInvalidValue);
  }
  return record_error(import_allocation(h, ptr, true));
}
