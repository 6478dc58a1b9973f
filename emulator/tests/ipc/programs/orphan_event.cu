// An interprocess event whose latest record was made by a process that ended before the record
// completed (it queued a long kernel and the record, then left with _exit): waiting for it must
// not hang. The parent waits after reaping the child ("reaped") or while it is a zombie
// ("zombie"); both waits end, and the program goes on.
#include <cstdio>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

__global__ void spin(unsigned long long* out, long long n) {
  unsigned long long x = threadIdx.x;
  for (long long i = 0; i < n; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  out[threadIdx.x] = x;
}

// Whether process pid has ended and waits to be reaped.
bool zombie(pid_t pid) {
  char path[64], line[512] = {0};
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "r");
  if (!f) return false;
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  const char* close = read ? std::strrchr(line, ')') : nullptr;
  return close && close[2] == 'Z';
}

int main(int argc, char** argv) {
  if (argc == 3) {  // the child: argv[2] is the event handle in hex
    cudaIpcEventHandle_t h;
    for (unsigned i = 0; i < sizeof h; ++i) {
      unsigned v = 0;
      std::sscanf(argv[2] + 2 * i, "%2x", &v);
      h.reserved[i] = static_cast<char>(v);
    }
    cudaEvent_t e;
    if (cudaIpcOpenEventHandle(&e, h) != cudaSuccess) return 3;
    unsigned long long* out;
    cudaMalloc(&out, 32 * sizeof *out);
    spin<<<1, 32>>>(out, 1ll << 40);  // far longer than the child lives
    cudaEventRecord(e, 0);
    std::fflush(stdout);
    _exit(0);
  }
  const bool reap_first = argc == 2 && std::strcmp(argv[1], "reaped") == 0;
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventInterprocess | cudaEventDisableTiming);
  cudaIpcEventHandle_t h;
  cudaIpcGetEventHandle(&h, e);
  char hex[2 * sizeof h + 1];
  for (unsigned i = 0; i < sizeof h; ++i)
    std::snprintf(hex + 2 * i, 3, "%02x", static_cast<unsigned char>(h.reserved[i]));
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", "orphan_event", "child", hex, static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (reap_first) waitpid(pid, &status, 0);
  else
    while (!zombie(pid)) usleep(10000);  // the child has recorded and ended: not reaped yet
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaEventSynchronize(e)));
  if (!reap_first) waitpid(pid, &status, 0);
  std::printf("the child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
