// libFuzzer target: the translator (tokenizer and rewriter) on arbitrary bytes as a .cu's
// preprocessed text, in both shared-memory modes and in each pass of a two-pass build. The
// translator must never crash, hang or read out of bounds (AddressSanitizer and UBSan watch),
// whatever it is given; bad input is an error in result::errors. A second pass rewrites the
// output again (it must still not crash). The input's CUDA qualifiers are spelled as the
// markers g++ -E leaves (`__device__` -> `__cuemu_device__`), as host_defines.h does.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "translate/rewriter.h"

namespace {

std::string with_markers(std::string_view in) {
  static const char* const qualifiers[] = {"__global__", "__shared__", "__host__", "__device__", "__constant__",
                                           "__managed__"};
  std::string out(in);
  for (const char* q : qualifiers) {
    const std::string from = q, to = "__cuemu_" + from.substr(2);
    for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
      out.replace(at, from.size(), to);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = with_markers(std::string_view(reinterpret_cast<const char*>(data), size));
  using cuemu::translate::pass;
  const struct {
    pass p;
    bool block_objects;
  } runs[] = {{pass::single, false}, {pass::single, true}, {pass::host, false}, {pass::device, true}};
  for (const auto& run : runs) {
    cuemu::translate::options o;
    o.shared_as_block_objects = run.block_objects;
    o.compile_pass = run.p;
    o.unit = "fuzz";
    const cuemu::translate::result r = cuemu::translate::rewrite(text, "fuzz.cu", o);
    if (r.errors.empty()) (void)cuemu::translate::rewrite(r.text, "fuzz.cu", o);
  }
  return 0;
}
