// A program that starts a copy of itself (fork and exec, as cuda-samples' IPC samples do) and
// ignores its exit status. The child's kernel writes one int past its allocation when BUG is
// 1; the parent exits 0 either way, so only a report from the child can fail a checked run.
#include <cstdio>

#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#ifndef BUG
#define BUG 0
#endif

__global__ void fill(int* p, int n) {
  const int i = threadIdx.x;
  if (i < n + BUG) p[i] = i;
}

int main(int argc, char** argv) {
  if (argc > 1) {
    int* p = nullptr;
    cudaMalloc(&p, 32 * sizeof(int));
    fill<<<1, 64>>>(p, 32);
    std::printf("child: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(p);
    return 0;
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    // argv[0] is not a path to the program: the child's report must still name the source line.
    execl("/proc/self/exe", "child-process", "child", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("parent: done\n");
  return 0;
}
