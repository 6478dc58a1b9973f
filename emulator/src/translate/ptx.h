// Inline PTX as C++: an asm statement's template and operands become a block that binds each
// operand to a local of its constraint's type, declares the template's .reg registers, runs each
// instruction through the helpers of emulator/include/cuemu/ptx.h (which give PTX's rules: shift
// clamping, wrapping atomic increments, byte permutes, ...) and writes the outputs back.
// Covered: ld/st (weak, volatile, relaxed, acquire/release; vectors), atom/red (every operation,
// integer and floating types, every order and scope), fence/membar, mov (also packing, unpacking
// and special registers), arithmetic and logic (add, sub, mul.lo/hi/wide, mad, min, max, neg,
// abs, and, or, xor, not, shl, shr, lop3, bfe, bfi, bfind, clz, popc, brev, prmt, selp, setp,
// cvt between integer widths), shfl.sync, vote.sync, activemask, bar.sync 0, bar.warp.sync,
// nanosleep, trap, griddepcontrol, predicates (@p / @!p).
#pragma once

#include <string>
#include <vector>

namespace cuemu::translate {

struct asm_operand {
  std::string constraint;  // as written, without quotes: "=r", "+l", "n", ...
  std::string expr;        // the C++ expression in its parentheses
};

// The C++ statement for template `text` (decoded; `%%` already in it where the asm has operands),
// or "" with `unsupported` naming the first instruction (or construct) without a CPU meaning here.
std::string ptx_statement(const std::string& text, bool has_operands, const std::vector<asm_operand>& outputs,
                          const std::vector<asm_operand>& inputs, std::string& unsupported);

}  // namespace cuemu::translate
