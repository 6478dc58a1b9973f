// printf in device code. A GPU writes a kernel's printf output into a buffer that the host prints
// at its next synchronising call, so host lines printed between a launch and that call come first,
// and output never synchronised is lost at exit (both measured on an H200: tests/streams). The
// emulator's device code calls the C library's printf; these definitions take those calls (and the
// puts/putchar a compiler turns some printf calls into) and, on a CUDA thread, append the text to
// the buffer instead. Host code's calls go to stdout as before.
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include <cuemu/launch.h>

#include "runtime/runtime.h"

namespace cuemu::detail {
namespace {

std::mutex g_mutex;
std::string& buffer() {
  static auto* b = new std::string;  // never destroyed: CUDA threads may print during exit
  return *b;
}

int buffer_vprintf(const char* format, va_list ap) {
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  const int n = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (n < 0) return n;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (static_cast<std::size_t>(n) < sizeof small) {
    buffer().append(small, static_cast<std::size_t>(n));
  } else {
    std::string big(static_cast<std::size_t>(n) + 1, '\0');
    std::vsnprintf(big.data(), big.size(), format, ap);
    big.pop_back();
    buffer() += big;
  }
  g_device_output_pending.store(true, std::memory_order_release);
  return n;
}

void buffer_text(const char* s, std::size_t n) {
  std::lock_guard<std::mutex> lock(g_mutex);
  buffer().append(s, n);
  g_device_output_pending.store(true, std::memory_order_release);
}

}  // namespace

// Whether the buffer may hold text: set under the mutex by every append, so that a flush with
// nothing to print takes no lock. Text appended by work the caller waited for is seen (the wait
// orders it).
std::atomic<bool> g_device_output_pending{false};

void write_device_output() {
  std::string out;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_device_output_pending.store(false, std::memory_order_relaxed);
    if (buffer().empty()) return;
    out.swap(buffer());
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace cuemu::detail

using cuemu::detail::buffer_text;
using cuemu::detail::buffer_vprintf;
using cuemu::detail::on_cuda_thread;

extern "C" {

int vprintf(const char* format, va_list ap) {
  if (on_cuda_thread()) return buffer_vprintf(format, ap);
  return std::vfprintf(stdout, format, ap);
}

int printf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vprintf(format, ap);
  va_end(ap);
  return n;
}

// _FORTIFY_SOURCE's forms.
int __vprintf_chk(int, const char* format, va_list ap) { return vprintf(format, ap); }
int __printf_chk(int, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vprintf(format, ap);
  va_end(ap);
  return n;
}

int puts(const char* s) {
  if (on_cuda_thread()) {
    std::string line(s);
    line += '\n';
    buffer_text(line.data(), line.size());
    return 1;
  }
  if (std::fputs(s, stdout) == EOF) return EOF;
  return std::fputc('\n', stdout) == EOF ? EOF : 1;
}

int putchar(int c) {
  if (on_cuda_thread()) {
    const char ch = static_cast<char>(c);
    buffer_text(&ch, 1);
    return static_cast<unsigned char>(c);
  }
  return std::fputc(c, stdout);
}

}  // extern "C"
