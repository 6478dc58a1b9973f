// Memory that other processes can map (runtime/interprocess.cpp): what the cudaIpc* calls of
// memory (interprocess.cpp) and of events (event.cpp) are built on.
//
// Device memory is host memory here, so sharing it is sharing pages: an exported allocation's
// pages are moved into a memfd (same address, same bytes), and a handle names that file by its
// owner's process id, descriptor number and inode, which another process opens as
// /proc/<pid>/fd/<fd> and maps. The owner keeps the descriptor open while the export lasts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/runtime.h"

namespace cuemu::detail {

// The page: the unit that is shared (device allocations are whole pages, runtime/memory.cpp).
inline constexpr std::size_t k_page_bytes = 4096;

// What a cudaIpcMemHandle_t / cudaIpcEventHandle_t (64 bytes) holds.
struct shared_file_handle {
  char magic[8];           // "cuemuMEM" or "cuemuEVT"
  std::int32_t pid;        // the exporting process
  std::int32_t fd;         // its descriptor of the file
  std::uint64_t ino;       // the file's inode (a descriptor number can be reused)
  std::uint64_t file_size;
  std::uint64_t offset;    // of the allocation's base in the file
  std::uint64_t size;      // the allocation's size
  std::uint64_t reserved[2];
};
static_assert(sizeof(shared_file_handle) == 64, "a CUDA IPC handle is 64 bytes");

// A new memfd of `size` bytes (zeros). Returns its descriptor (close-on-exec) and sets *ino, or
// -1 with errno set.
int create_shared_file(const char* name, std::size_t size, std::uint64_t* ino);
// Opens the file a handle names, checking its inode and size: a descriptor (close-on-exec), or
// -1 (the process is gone, the file was closed, the handle is not one of ours).
int open_shared_file(const shared_file_handle& h);
// Maps `size` bytes of a shared file read-write (MAP_SHARED) anywhere; nullptr on failure.
void* map_shared_file(int fd, std::size_t size);

// Shares the live device allocation `a` (its pages move into a shared file the first time) and
// fills every field of h but its magic.
cudaError_t export_allocation(const allocation& a, shared_file_handle& h);
// Maps the allocation a handle names into this process, once per file (later imports count):
// its base in *out. `pool`: imported by cudaMemPoolImportPointer (freed by cudaFreeAsync), not
// by cudaIpcOpenMemHandle. cudaErrorInvalidValue when the handle names nothing mappable.
cudaError_t import_allocation(const shared_file_handle& h, void** out, bool pool);
// Closes one import of the mapping based at p that was made the same way (`pool`); the last
// unmaps it, after this process's device work when `wait`.
cudaError_t close_import(void* p, bool pool, bool wait);
// Unmaps every mapping of other processes' memory (cudaDeviceReset; the table's records are the
// caller's).
void drop_all_imports();
// p is the base of a mapping cudaMemPoolImportPointer made.
bool imported_into_pool(const void* p);

// Called by the allocator before it frees device memory: an exported allocation's pages leave
// the shared file (the mappings of other processes keep its bytes).
void forget_export(void* base);

}  // namespace cuemu::detail
