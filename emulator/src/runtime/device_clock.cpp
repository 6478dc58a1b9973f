// The device's clocks. clock64()/clock()/%clock count cycles of the emulated H200 (1980 MHz, what
// cudaDevAttrClockRate reports) over the host's real time, so a kernel that waits for N cycles
// takes about as long as on the GPU.
//
// In CUDA, clock() in device code is the device's 32-bit cycle counter and in host code the C
// library's. Translated device code is host code to the compiler, so the runtime defines the C
// library's clock() itself: on a CUDA thread it returns the device counter (sign-extended from 32
// bits, as the GPU's clock_t is), elsewhere what glibc returns (process CPU time).
#include <time.h>

#include <chrono>

#include <cuemu/launch.h>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {
const auto g_clock_start = std::chrono::steady_clock::now();
}

long long device_clock_cycles() noexcept {
  const long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - g_clock_start)
                           .count();
  // kDeviceClockKHz cycles per millisecond: ns * kHz / 1e6.
  return static_cast<long long>(static_cast<__int128>(ns) * kDeviceClockKHz / 1000000);
}

}  // namespace cuemu::detail

extern "C" clock_t clock() noexcept {
  if (cuemu::detail::t_current_executor)
    return static_cast<clock_t>(static_cast<int>(static_cast<unsigned>(cuemu::detail::device_clock_cycles())));
  timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(ts.tv_sec) * CLOCKS_PER_SEC +
         static_cast<clock_t>(ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
