// The one function through which every coroutine switch of the emulator passes. Sanitizer
// fiber annotations (AddressSanitizer's start/finish_switch_fiber, ThreadSanitizer's
// switch_to_fiber) belong here and nowhere else.
#pragma once

#include <boost/context/fiber.hpp>

namespace cuemu::detail {

// Suspends the caller and resumes `to`; returns the context of whoever resumes the caller.
inline boost::context::fiber switch_context(boost::context::fiber&& to) {
  return std::move(to).resume();
}

}  // namespace cuemu::detail
