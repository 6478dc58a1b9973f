// Running the host compiler and the built program.
#pragma once

#include <string>
#include <vector>

namespace cuemu::driver {

// Runs argv[0] (searched in PATH) with argv, extra environment entries NAME=VALUE added.
// Returns the exit status, or 128 + signal number if it was killed by a signal.
// With `stdout_path` (`stderr_path`), the program's standard output (error) goes to that file.
int run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
                bool verbose = false, const std::string& stdout_path = "", const std::string& stderr_path = "");

// What verbose output puts before each command ("+ " unless set; nvcc's "#$ ").
void set_verbose_prefix(const char* prefix);

// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the driver go on to the process it runs (which is
// waited for); termination_signal() then returns the signal, and the driver cleans up and ends
// by it. No process is left behind, and no temporary directory.
void forward_termination_signals();
int termination_signal();

// The directory containing the running executable.
std::string executable_dir();

}  // namespace cuemu::driver
