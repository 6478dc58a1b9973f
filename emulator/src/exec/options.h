// Execution options. The cuemu driver passes its command-line options to the program through
// CUEMU_* environment variables; a program built with cuemu_add_executable reads the same ones.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuemu::detail {

enum class schedule_kind { forward, reverse, random };

struct exec_options {
  unsigned workers = 0;                 // CUEMU_WORKERS (0: all cores)
  schedule_kind schedule = schedule_kind::forward;  // CUEMU_SCHEDULE=forward|reverse|random[:SEED]
  std::uint64_t seed = 0;
  std::size_t stack_size = 256 * 1024;  // CUEMU_STACK_SIZE (bytes, K/M suffixes)
  double timeout_seconds = 0;           // CUEMU_TIMEOUT (0: none)
  bool memcheck = false, racecheck = false, synccheck = false;  // CUEMU_CHECK
  bool streams = false;  // CUEMU_CHECK=streams (the racecheck runtime's streams checker)
  // CUEMU_STREAMS=sync: stream work runs inside the call that issues it, in issue order (for
  // debugging; always in the racecheck runtime). Default async: a thread per stream.
  bool sync_streams = false;
  // CUEMU_EXEC=fibers: every CUDA thread a coroutine, even in kernels with a region form
  // (default loops: such kernels run their barrier regions as loops over threads).
  bool loops = true;
};

// Parsed once, on first use; a malformed value is reported and the process exits with status 2.
const exec_options& options();

}  // namespace cuemu::detail
