// The bytes of static thread-local storage a thread has (x86-64: just below its thread pointer),
// for the detectors of the racecheck runtime, which leave a worker's own storage out.
#pragma once

#include <link.h>

#include <cstddef>

namespace cuemu::detail {

inline std::size_t static_tls_size() {
  static const std::size_t size = [] {
    std::size_t total = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
          for (int i = 0; i < info->dlpi_phnum; ++i)
            if (info->dlpi_phdr[i].p_type == PT_TLS)
              *static_cast<std::size_t*>(data) += info->dlpi_phdr[i].p_memsz + info->dlpi_phdr[i].p_align;
          return 0;
        },
        &total);
    return total + 4096;
  }();
  return size;
}

}  // namespace cuemu::detail
