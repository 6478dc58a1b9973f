// Interprocess memory: cudaIpcGetMemHandle, cudaIpcOpenMemHandle, cudaIpcCloseMemHandle, and
// the shared files they (and interprocess events, event.cpp) are made of.
//
// cudaIpcGetMemHandle moves an allocation's pages into a memfd the first time it is exported:
// the device's queued work is waited for, the bytes are written to the file and the file is
// mapped over them (MAP_FIXED, MAP_SHARED): the same address, the same bytes, now shared. The
// handle names the file by process id, descriptor and inode; cudaIpcOpenMemHandle in another
// process opens /proc/<pid>/fd/<fd>, checks the inode and size, and maps it. Opening the same
// allocation twice gives the same mapping (counted); cudaIpcCloseMemHandle unmaps it after the
// last close, once this process's device work is done. cudaFree of an exported allocation maps
// fresh private pages over it before freeing it: the importers keep the file's bytes, as a
// GPU keeps memory another process has mapped until that process unmaps it.
#include "runtime/interprocess.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

constexpr char k_memory_magic[8] = {'c', 'u', 'e', 'm', 'u', 'M', 'E', 'M'};

std::uintptr_t page_floor(std::uintptr_t p) { return p & ~(k_page_bytes - 1); }
std::uintptr_t page_ceil(std::uintptr_t p) { return (p + k_page_bytes - 1) & ~(k_page_bytes - 1); }

struct exported {
  int fd = -1;
  std::uint64_t ino = 0;
  std::uintptr_t map_start = 0;  // the pages moved into the file
  std::size_t map_size = 0;
  std::size_t offset = 0;        // of the allocation's base in the file
  std::size_t size = 0;
};

struct imported {
  void* map = nullptr;
  std::size_t map_size = 0;
  void* base = nullptr;  // what cudaIpcOpenMemHandle returned
  int opens = 0;
  bool pool = false;     // imported by cudaMemPoolImportPointer
};

struct state {
  std::mutex mutex;
  std::map<std::uintptr_t, exported> exports;                       // by allocation base
  std::map<std::pair<std::int32_t, std::uint64_t>, imported> imports;  // by (pid, inode)
};

state& the_state() {
  static state* s = new state;  // never destroyed: cudaFree may run from static destructors
  return *s;
}

// Copies whole pages. Under memcheck the last page of an allocation holds AddressSanitizer's
// poisoned redzone (and may hold the start of the sanitizer's next chunk: a host thread writing
// that chunk during the move could lose the write), copied word by word out of its sight.
#ifdef CUEMU_MEMCHECK
__attribute__((no_sanitize("address"))) void copy_pages(void* dst, const void* src,
                                                        std::size_t n) {
  auto* d = static_cast<volatile std::uint64_t*>(dst);
  const auto* s = static_cast<const volatile std::uint64_t*>(src);
  for (std::size_t i = 0; i < n / sizeof(std::uint64_t); ++i) d[i] = s[i];
}
#else
void copy_pages(void* dst, const void* src, std::size_t n) { std::memcpy(dst, src, n); }
#endif

// Moves the pages of [base, base + size) into a new shared file (state's mutex held).
cudaError_t export_locked(state& s, const allocation& a, exported& out) {
  exported e;
  e.map_start = page_floor(a.base);
  e.map_size = page_ceil(a.base + a.size) - e.map_start;
  e.offset = a.base - e.map_start;
  e.size = a.size;
  e.fd = create_shared_file("cuemu-ipc-memory", e.map_size, &e.ino);
  if (e.fd < 0) return cudaErrorMemoryAllocation;
  // The bytes go into the file through a second mapping of it, then the file replaces the pages.
  void* start = reinterpret_cast<void*>(e.map_start);
  void* view = map_shared_file(e.fd, e.map_size);
  if (!view) {
    ::close(e.fd);
    return cudaErrorMemoryAllocation;
  }
  copy_pages(view, start, e.map_size);
  ::munmap(view, e.map_size);
  if (::mmap(start, e.map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, e.fd, 0) ==
      MAP_FAILED) {
    ::close(e.fd);
    return cudaErrorMemoryAllocation;
  }
  s.exports[a.base] = e;
  out = e;
  return cudaSuccess;
}

}  // namespace

int create_shared_file(const char* name, std::size_t size, std::uint64_t* ino) {
  const int fd = ::memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0 || ::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  *ino = st.st_ino;
  return fd;
}

int open_shared_file(const shared_file_handle& h) {
  if (h.pid <= 0 || h.fd < 0) return -1;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/%d", static_cast<int>(h.pid),
                static_cast<int>(h.fd));
  const int fd = ::open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_ino != h.ino ||
      static_cast<std::uint64_t>(st.st_size) != h.file_size) {
    ::close(fd);
    return -1;
  }
  return fd;
}

void* map_shared_file(int fd, std::size_t size) {
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void forget_export(void* base) {
  state& s = the_state();
  std::lock_guard lock(s.mutex);
  auto it = s.exports.find(reinterpret_cast<std::uintptr_t>(base));
  if (it == s.exports.end()) return;
  const exported& e = it->second;
#ifndef CUEMU_MEMCHECK
  // The pages are the allocation's alone (whole pages, runtime/memory.cpp): private ones again,
  // so that the allocator's next use of them is not shared. (Under memcheck the last page may
  // hold the sanitizer's bytes: it stays in the file.)
  ::mmap(reinterpret_cast<void*>(e.map_start), e.map_size, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
#endif
  ::close(e.fd);
  s.exports.erase(it);
}

cudaError_t export_allocation(const allocation& a, shared_file_handle& h) {
  state& s = the_state();
  std::unique_lock lock(s.mutex);
  exported e;
  if (auto it = s.exports.find(a.base); it != s.exports.end()) {
    e = it->second;
  } else {
    // Work queued on the device may be writing the bytes about to be copied (waited for without
    // the lock: a stream's work may free memory, which asks for it).
    lock.unlock();
    synchronize_device();
    lock.lock();
    if (auto again = s.exports.find(a.base); again != s.exports.end())
      e = again->second;
    else if (cudaError_t r = export_locked(s, a, e); r != cudaSuccess)
      return r;
  }
  h.pid = static_cast<std::int32_t>(::getpid());
  h.fd = e.fd;
  h.ino = e.ino;
  h.file_size = e.map_size;
  h.offset = e.offset;
  h.size = e.size;
  return cudaSuccess;
}

cudaError_t import_allocation(const shared_file_handle& h, void** out, bool pool) {
  if (h.offset >= h.file_size || h.size > h.file_size - h.offset) return cudaErrorInvalidValue;
  state& s = the_state();
  std::lock_guard lock(s.mutex);
  const auto key = std::make_pair(h.pid, h.ino);
  if (auto it = s.imports.find(key); it != s.imports.end()) {
    ++it->second.opens;
    *out = it->second.base;
    return cudaSuccess;
  }
  const int fd = open_shared_file(h);
  if (fd < 0) return cudaErrorInvalidValue;
  void* map = map_shared_file(fd, h.file_size);
  ::close(fd);
  if (!map) return cudaErrorMemoryAllocation;
  imported m;
  m.map = map;
  m.map_size = h.file_size;
  m.base = static_cast<char*>(map) + h.offset;
  m.opens = 1;
  m.pool = pool;
  register_ipc_mapping(m.base, h.size);
  s.imports[key] = m;
  *out = m.base;
  return cudaSuccess;
}

void drop_all_imports() {
  state& s = the_state();
  std::lock_guard lock(s.mutex);
  for (const auto& [key, m] : s.imports) ::munmap(m.map, m.map_size);
  s.imports.clear();
}

bool imported_into_pool(const void* p) {
  state& s = the_state();
  std::lock_guard lock(s.mutex);
  for (const auto& [key, m] : s.imports)
    if (m.base == p) return m.pool;
  return false;
}

cudaError_t close_import(void* p, bool pool, bool wait) {
  state& s = the_state();
  std::unique_lock lock(s.mutex);
  auto it = s.imports.begin();
  while (it != s.imports.end() && it->second.base != p) ++it;
  if (!p || it == s.imports.end() || it->second.pool != pool) return cudaErrorInvalidValue;
  if (--it->second.opens > 0) return cudaSuccess;
  const imported m = it->second;
  s.imports.erase(it);
  lock.unlock();
  if (wait) synchronize_device();  // this process's queued work may still use the mapping
  unregister_ipc_mapping(m.base);
  ::munmap(m.map, m.map_size);
  return cudaSuccess;
}

}  // namespace cuemu::detail

using namespace cuemu::detail;

extern "C" cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* devPtr) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!handle || !devPtr) return record_error(cudaErrorInvalidValue);
  const std::optional<allocation> a = lookup_allocation(devPtr);
  // Memory cudaMalloc (or cudaMallocPitch, cudaMalloc3D) made: not a pool's, not the device
  // heap's, not a graph's, not another process's.
  if (!a || a->freed || a->kind != memory_kind::device || is_device_heap(*a) ||
      is_graph_memory(reinterpret_cast<const void*>(a->base)) ||
      (a->flags & (k_pool_memory | k_ipc_mapping)))
    return record_error(cudaErrorInvalidValue);
  shared_file_handle h{};
  if (cudaError_t r = export_allocation(*a, h); r != cudaSuccess) return record_error(r);
  std::memcpy(h.magic, k_memory_magic, sizeof h.magic);
  static_assert(sizeof(cudaIpcMemHandle_t) == sizeof h);
  std::memcpy(handle, &h, sizeof h);
  return cudaSuccess;
}

extern "C" cudaError_t cudaIpcOpenMemHandle(void** devPtr, cudaIpcMemHandle_t handle,
                                            unsigned int flags) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  if (!devPtr || flags != cudaIpcMemLazyEnablePeerAccess) return record_error(cudaErrorInvalidValue);
  shared_file_handle h;
  std::memcpy(&h, &handle, sizeof h);
  if (std::memcmp(h.magic, k_memory_magic, sizeof h.magic) != 0)
    return record_error(cudaErrorInvalidValue);
  // A process maps only other processes' memory (a GPU: no context to open it in).
  if (h.pid == static_cast<std::int32_t>(::getpid()))
    return record_error(cudaErrorDeviceUninitialized);
  return record_error(import_allocation(h, devPtr, false));
}

extern "C" cudaError_t cudaIpcCloseMemHandle(void* devPtr) {
  if (cudaError_t s = sticky_error(); s != cudaSuccess) return s;
  return record_error(close_import(devPtr, false, true));
}
