// Forward progress of spinning CUDA threads (Volta's independent thread scheduling).
//
// Every operation a thread can wait with (atomics, PTX loads and fences, __threadfence,
// __nanosleep, clock reads) is a poll: it records what it read. A CUDA thread that keeps reading
// the same value at the same address (kSpinSame polls in a row), or that polls kSpinPolls times
// without yielding, asks the scheduler to yield it (spin_check), so the other threads of its
// block, and the other blocks of its grid, run and can change what it waits for. A poll costs a
// few compares on a thread-local record; kernels that never spin never yield.
#pragma once

#include <cstring>

namespace cuemu::detail {

struct spin_watch {
  const volatile void* addr = nullptr;  // the last poll's address
  unsigned long long value = 0;         // and what it read
  // The poll before it at another address (a loop that polls two things, a load and a fence or
  // two flags, reads the same as before at each of them: a spin too, not a change).
  const volatile void* addr2 = nullptr;
  unsigned long long value2 = 0;
  unsigned same = 0;                    // polls in a row that read what their address read last
  unsigned polls = 0;                   // polls since the running CUDA thread last yielded
  unsigned long long changes = 0;       // polls that read something new: progress
  const void* lane = nullptr;           // the CUDA thread the counts are for (spin_check)
};
inline thread_local spin_watch t_spin;
inline constexpr unsigned kSpinSame = 8;
inline constexpr unsigned kSpinPolls = 1024;

// Out of line (src/exec): yields the running CUDA thread if it is the one that spun; in host
// code, only resets the counts. Its return address names the poll in the user's code.
void spin_check() noexcept;
// __nanosleep: the thread asks to be suspended, so it yields at once.
void spin_yield() noexcept;

// Records a poll; true when the thread has spun long enough to yield.
[[gnu::always_inline]] inline bool record_poll(spin_watch& s, const volatile void* addr,
                                               unsigned long long value) noexcept {
  bool same;
  if (s.addr == addr) {
    same = s.value == value;
  } else {
    // The other of two polls in turn is compared with what it read last; a new address is a
    // change (a histogram's atomics, a queue's next slot).
    same = s.addr2 == addr && s.value2 == value;
    s.addr2 = s.addr;
    s.value2 = s.value;
    s.addr = addr;
  }
  s.value = value;
  if (same) {
    ++s.same;
  } else {
    s.same = 0;
    ++s.changes;
  }
  return s.same >= kSpinSame || ++s.polls >= kSpinPolls;
}

// Out of line: the poll of code compiled for racecheck (its accesses to the worker's record
// must not be instrumented: every lane of the worker shares it).
void poll_uninstrumented(const volatile void* addr, unsigned long long value) noexcept;
// A poll seen by the runtime itself (racecheck's volatile loads), made at `pc` in the user's code.
void poll_at(const volatile void* addr, unsigned long long value, const void* pc) noexcept;

[[gnu::always_inline]] inline void poll(const volatile void* addr,
                                        unsigned long long value) noexcept {
#if defined(__SANITIZE_THREAD__) || defined(__CUEMU_RACECHECK__)
  poll_uninstrumented(addr, value);
  return;
#endif
  if (record_poll(t_spin, addr, value)) [[unlikely]]
    spin_check();
}

// A poll that read `value` at `addr`; returns `value` (any trivially copyable type; the first 8
// bytes are compared).
template <class T>
[[gnu::always_inline]] inline T polled(const volatile void* addr, T value) noexcept {
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T) < sizeof bits ? sizeof(T) : sizeof bits);
  poll(addr, bits);
  return value;
}

// A poll with nothing read (a fence, a clock read): counts as reading the same as last time if
// the previous poll was this kind too.
[[gnu::always_inline]] inline void poll_event(const void* kind) noexcept { poll(kind, 0); }

}  // namespace cuemu::detail
