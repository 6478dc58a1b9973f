// The streams checker's side of the racecheck runtime's instrumentation (check/racecheck.cpp
// receives every load, store and atomic of the program and hands them on here).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuemu::detail {

struct launch_state;

namespace streamcheck {

bool enabled();  // --check=streams (CUEMU_CHECK names it)

enum class access_kind { read, write, atomic };
// An access of the program's code (host code, a CUDA thread, a host function) at pc.
void access(std::uintptr_t a, std::size_t n, access_kind k, std::uintptr_t pc);
// A grid starts (host thread, before its blocks): its CUDA threads' accesses are its work item's.
void launch_begin(launch_state& launch);
// Its blocks have all finished (host thread): the races its CUDA threads met are reported, each
// by its first thread in block and thread order.
void launch_end(launch_state& launch);

}  // namespace streamcheck
}  // namespace cuemu::detail
