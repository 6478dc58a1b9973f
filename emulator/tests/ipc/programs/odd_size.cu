// Memory of sizes that are not whole pages, shared with a process the program starts: the child
// opens each handle, checks every byte the parent wrote, writes its own, and the parent checks
// those. Prints "ok" lines only when every byte matches (expected independently of any GPU: the
// bytes are the program's own pattern).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

namespace {

constexpr int kSizes[] = {1, 1000, 4096, 4097, 100000};

unsigned char pattern(int size, int i, int who) { return static_cast<unsigned char>(size * 7 + i * 13 + who); }

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2) {  // the child: argv[1] holds the handles in hex
    const char* hex = argv[1];
    for (int size : kSizes) {
      cudaIpcMemHandle_t h;
      for (unsigned i = 0; i < sizeof h; ++i) {
        unsigned v = 0;
        std::sscanf(hex + 2 * i, "%2x", &v);
        h.reserved[i] = static_cast<char>(v);
      }
      hex += 2 * sizeof h;
      unsigned char* p = nullptr;
      if (cudaIpcOpenMemHandle(reinterpret_cast<void**>(&p), h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
        return 3;
      std::vector<unsigned char> b(size);
      cudaMemcpy(b.data(), p, size, cudaMemcpyDeviceToHost);
      int bad = 0;
      for (int i = 0; i < size; ++i) bad += b[i] != pattern(size, i, 0);
      std::printf("child: %d bytes, %d differ\n", size, bad);
      for (int i = 0; i < size; ++i) b[i] = pattern(size, i, 1);
      cudaMemcpy(p, b.data(), size, cudaMemcpyHostToDevice);
      // The last one stays open through cudaDeviceReset, which unmaps it.
      if (size != kSizes[sizeof kSizes / sizeof kSizes[0] - 1]) cudaIpcCloseMemHandle(p);
    }
    std::printf("child: reset %s\n", cudaGetErrorName(cudaDeviceReset()));
    return 0;
  }
  std::string hex;
  std::vector<unsigned char*> ptrs;
  for (int size : kSizes) {
    unsigned char* p = nullptr;
    cudaMalloc(&p, size);
    std::vector<unsigned char> b(size);
    for (int i = 0; i < size; ++i) b[i] = pattern(size, i, 0);
    cudaMemcpy(p, b.data(), size, cudaMemcpyHostToDevice);
    cudaIpcMemHandle_t h;
    if (cudaIpcGetMemHandle(&h, p) != cudaSuccess) return 2;
    char two[3];
    for (unsigned i = 0; i < sizeof h; ++i) {
      std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(h.reserved[i]));
      hex += two;
    }
    ptrs.push_back(p);
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", "odd_size", hex.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("parent: the child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  for (std::size_t k = 0; k < ptrs.size(); ++k) {
    const int size = kSizes[k];
    std::vector<unsigned char> b(size);
    cudaMemcpy(b.data(), ptrs[k], size, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < size; ++i) bad += b[i] != pattern(size, i, 1);
    std::printf("parent: %d bytes, %d differ\n", size, bad);
    if (k == 0) cudaFree(ptrs[k]);  // the others, still exported, go with cudaDeviceReset
  }
  std::printf("parent: reset %s\n", cudaGetErrorName(cudaDeviceReset()));
  // Memory allocated after the reset, where the shared pages were, is the process's own again.
  std::vector<unsigned char*> fresh;
  int bad = 0;
  for (int size : kSizes) {
    unsigned char* p = nullptr;
    cudaMalloc(&p, size);
    cudaMemset(p, 0x5a, size);
    std::vector<unsigned char> b(size);
    cudaMemcpy(b.data(), p, size, cudaMemcpyDeviceToHost);
    for (int i = 0; i < size; ++i) bad += b[i] != 0x5a;
    fresh.push_back(p);
  }
  for (unsigned char* p : fresh) cudaFree(p);
  std::printf("parent: memory after the reset, %d bytes differ\n", bad);
  return 0;
}
