// libFuzzer target: the translator (tokenizer and rewriter) on arbitrary bytes as a .cu's
// preprocessed text, in both shared-memory modes. The translator must never crash, hang or read
// out of bounds (AddressSanitizer and UBSan watch), whatever it is given; bad input is an error
// in result::errors. A second pass rewrites the output again (it must still not crash).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "translate/rewriter.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool block_objects : {false, true}) {
    cuemu::translate::options o;
    o.shared_as_block_objects = block_objects;
    const cuemu::translate::result r = cuemu::translate::rewrite(text, "fuzz.cu", o);
    if (r.errors.empty()) (void)cuemu::translate::rewrite(r.text, "fuzz.cu", o);
  }
  return 0;
}
