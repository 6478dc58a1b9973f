// The one function through which every coroutine switch of the emulator passes. The sanitizer
// fiber annotations (AddressSanitizer's start/finish_switch_fiber, ThreadSanitizer's
// switch_to_fiber) sit here, through the hooks of the checking modes.
#pragma once

#include <boost/context/fiber.hpp>

#include "check/events.h"

namespace cuemu::detail {

// Suspends the caller and resumes `to`; returns the context of whoever resumes the caller.
// `target` describes `to` for the sanitizers; `from_bottom`/`from_size` receive the stack of
// whoever switched back (AddressSanitizer reports it), when asked for.
inline boost::context::fiber switch_context(boost::context::fiber&& to,
                                            const hooks::switch_target& target,
                                            const void** from_bottom = nullptr,
                                            std::size_t* from_size = nullptr) {
  void* fake_stack = nullptr;
  hooks::before_switch(target, &fake_stack);
  boost::context::fiber from = std::move(to).resume();
  hooks::after_switch(fake_stack, from_bottom, from_size);
  return from;
}

}  // namespace cuemu::detail
