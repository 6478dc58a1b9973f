// Host code after launches: the emulator's preemption timer must not cut a host sleep short
// (POSIX: usleep and nanosleep return early, with EINTR, when a signal arrives).
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

__global__ void spin_a_while(long long cycles, int* out) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  out[threadIdx.x] = 1;
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  spin_a_while<<<2, 64>>>(100000000LL, d);  // about 50 ms of the device's clock: timers armed
  cudaDeviceSynchronize();
  const auto t0 = std::chrono::steady_clock::now();
  const int u = usleep(300000);
  const int u_errno = u == 0 ? 0 : errno;
  timespec ts{0, 200000000}, rem{};
  const int n = nanosleep(&ts, &rem);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("usleep %s, nanosleep %s, %s\n", u == 0 ? "ok" : (u_errno == EINTR ? "EINTR" : "failed"),
              n == 0 ? "ok" : "interrupted", s >= 0.49 ? "slept the whole time" : "cut short");
  return 0;
}
