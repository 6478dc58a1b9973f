// Joining the two passes of a .cu whose host and device passes differ (translate/rewriter.h):
// the device object's own symbols are renamed apart, except those the host object needs from it
// (kernels and device variables, which the host pass only declares), and the two become one
// relocatable object.
#pragma once

#include <string>

#include "driver/toolchain.h"

namespace cuemu::driver {

// A name for the translation unit `in` compiled to `out`, the same in both passes.
std::string unit_name(const std::string& in, const std::string& out);

// host_o + device_o -> out. Returns 0, or 2 with a message.
int join_passes(const options& o, const paths& p, variant v, const std::string& host_o,
                const std::string& device_o, const std::string& out);

}  // namespace cuemu::driver
