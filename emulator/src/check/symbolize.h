// Turning code addresses into the user's file:line (addr2line over the program's debug info), for
// reports of faults that happen between synchronisation points: invalid memory accesses, stack
// overflows, kernels still running at --timeout.
#pragma once

#include <cstdint>
#include <string>

namespace cuemu::detail {

struct code_location {
  std::string file;  // empty when unknown
  int line = 0;
  std::string function;
};

// Of the return addresses in `frames`, the first that maps to user code (not to the emulator's
// own headers and sources, not to the C/C++ libraries).
code_location first_user_location(void* const* frames, int count);

// "file:line", or "<unknown>".
std::string at_line(const code_location& c);

// A code address as a 32-bit offset into the program (0: not in it), for the detectors' records;
// and the user's line at such an offset (empty when unknown).
std::uint32_t code_site(std::uintptr_t pc);
code_location location_of_site(std::uint32_t site);

}  // namespace cuemu::detail
