// Memory pools shared between processes: a pool made with a POSIX file descriptor handle type is
// exported as a descriptor (sent to a process the program starts, over a Unix socket, as
// cuda-samples' streamOrderedAllocationIPC does), and its allocations as export data that the
// other process imports into the imported pool. Every call's result is printed by name.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "process_helpers.h"

namespace {

constexpr int kN = 1 << 18;  // ints: 1 MiB

// One byte carrying one descriptor (SCM_RIGHTS) over a Unix socket.
struct fd_message {
  char byte = 0;
  iovec iov{&byte, 1};
  char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr m{};
  fd_message() {
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
  }
  fd_message(const fd_message&) = delete;
};

void send_fd(int sock, int fd) {
  fd_message f;
  cmsghdr* c = CMSG_FIRSTHDR(&f.m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  if (sendmsg(sock, &f.m, 0) != 1) std::perror("sendmsg");
}

int receive_fd(int sock) {
  fd_message f;
  if (recvmsg(sock, &f.m, 0) != 1) return -1;
  cmsghdr* c = CMSG_FIRSTHDR(&f.m);
  if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
  int fd = -1;
  std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

int child(int sock, const char* data_hex, const char* other_hex) {
  std::printf("-- child\n");
  const int fd = receive_fd(sock);
  std::printf("received a descriptor: %s\n", fd >= 0 ? "yes" : "no");
  cudaMemPool_t pool = nullptr;
  say("import the pool", cudaMemPoolImportFromShareableHandle(
                             &pool, reinterpret_cast<void*>(static_cast<long>(fd)),
                             cudaMemHandleTypePosixFileDescriptor, 0));
  cudaMemPool_t bad = nullptr;
  say("import with handle type none",
      cudaMemPoolImportFromShareableHandle(&bad, reinterpret_cast<void*>(static_cast<long>(fd)),
                                           cudaMemHandleTypeNone, 0));
  say("import a descriptor that is not a pool's",
      cudaMemPoolImportFromShareableHandle(&bad, reinterpret_cast<void*>(static_cast<long>(0)),
                                           cudaMemHandleTypePosixFileDescriptor, 0));
  say("last error", cudaGetLastError());
  close(fd);

  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  say("access of the imported pool", cudaMemPoolGetAccess(&flags, pool, &loc));
  std::printf("flags %d\n", static_cast<int>(flags));
  cudaMemAccessDesc desc{};
  desc.location = loc;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  say("set read-write access", cudaMemPoolSetAccess(pool, &desc, 1));
  say("access now", cudaMemPoolGetAccess(&flags, pool, &loc));
  std::printf("flags %d\n", static_cast<int>(flags));

  auto data = from_hex<cudaMemPoolPtrExportData>(data_hex);
  auto other = from_hex<cudaMemPoolPtrExportData>(other_hex);
  int* q = nullptr;
  say("import another pool's pointer", cudaMemPoolImportPointer(reinterpret_cast<void**>(&q), pool, &other));
  say("last error", cudaGetLastError());
  cudaMemPoolPtrExportData zero;
  std::memset(&zero, 0, sizeof zero);
  say("import zero export data", cudaMemPoolImportPointer(reinterpret_cast<void**>(&q), pool, &zero));
  say("last error", cudaGetLastError());
  int* p = nullptr;
  say("import the pointer", cudaMemPoolImportPointer(reinterpret_cast<void**>(&p), pool, &data));
  std::printf("wrong values seen: %d\n", wrong(p, kN, 5));
  cudaMemPool_t default_pool;
  cudaDeviceGetDefaultMemPool(&default_pool, 0);
  say("import into the default pool", cudaMemPoolImportPointer(reinterpret_cast<void**>(&q), default_pool, &data));
  say("last error", cudaGetLastError());

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  add<<<kN / 256, 256, 0, s>>>(p, kN, 1000);
  say("stream synchronize", cudaStreamSynchronize(s));
  say("free the imported pointer", cudaFreeAsync(p, s));
  say("stream synchronize", cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  std::printf("-- child done\n");
  return 0;
}

int parent(const char* self) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool, plain_pool, other_pool;
  say("create a shareable pool", cudaMemPoolCreate(&pool, &props));
  say("create another", cudaMemPoolCreate(&other_pool, &props));
  props.handleTypes = cudaMemHandleTypeNone;
  say("create a pool without a handle type", cudaMemPoolCreate(&plain_pool, &props));

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int* p = nullptr;
  int* o = nullptr;
  int* plain = nullptr;
  say("allocate", cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), sizeof(int) * kN, pool, s));
  say("allocate from the other", cudaMallocFromPoolAsync(reinterpret_cast<void**>(&o), 4096, other_pool, s));
  say("allocate from the plain pool", cudaMallocFromPoolAsync(reinterpret_cast<void**>(&plain), 4096, plain_pool, s));
  fill<<<kN / 256, 256, 0, s>>>(p, kN, 5);
  cudaStreamSynchronize(s);

  int fd = -1;
  say("export the pool", cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  std::printf("a descriptor: %s\n", fd >= 0 ? "yes" : "no");
  int fd2 = -1;
  say("export the plain pool", cudaMemPoolExportToShareableHandle(&fd2, plain_pool, cudaMemHandleTypePosixFileDescriptor, 0));
  say("last error", cudaGetLastError());
  cudaMemPool_t default_pool;
  cudaDeviceGetDefaultMemPool(&default_pool, 0);
  say("export the default pool", cudaMemPoolExportToShareableHandle(&fd2, default_pool, cudaMemHandleTypePosixFileDescriptor, 0));
  say("last error", cudaGetLastError());

  cudaMemPoolPtrExportData data, other, x;
  say("export the pointer", cudaMemPoolExportPointer(&data, p));
  say("export the other pool's pointer", cudaMemPoolExportPointer(&other, o));
  say("export a pointer of the plain pool", cudaMemPoolExportPointer(&x, plain));
  say("last error", cudaGetLastError());
  int* m = nullptr;
  cudaMalloc(&m, 4096);
  say("export a cudaMalloc pointer", cudaMemPoolExportPointer(&x, m));
  say("last error", cudaGetLastError());
  say("export an interior pointer", cudaMemPoolExportPointer(&x, p + 64));
  say("last error", cudaGetLastError());

  int sv[2];
  socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
  char data_hex[2 * sizeof data + 1], other_hex[2 * sizeof other + 1], sock[16];
  to_hex(data, data_hex);
  to_hex(other, other_hex);
  std::snprintf(sock, sizeof sock, "%d", sv[1]);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    close(sv[0]);
    execl(self, self, "child", sock, data_hex, other_hex, static_cast<char*>(nullptr));
    std::perror("exec");
    _exit(127);
  }
  close(sv[1]);
  send_fd(sv[0], fd);
  int status = 0;
  waitpid(pid, &status, 0);
  close(sv[0]);
  std::printf("-- parent: the child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  std::printf("wrong values after the child's add: %d\n", wrong(p, kN, 1005));
  say("free", cudaFreeAsync(p, s));
  say("free the other", cudaFreeAsync(o, s));
  say("free the plain one", cudaFreeAsync(plain, s));
  say("synchronize", cudaStreamSynchronize(s));
  say("destroy the pool", cudaMemPoolDestroy(pool));
  cudaMemPoolDestroy(other_pool);
  cudaMemPoolDestroy(plain_pool);
  cudaFree(m);
  close(fd);
  cudaStreamDestroy(s);
  say("last error", cudaGetLastError());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "child") == 0)
    return child(std::atoi(argv[2]), argv[3], argv[4]);
  return parent("/proc/self/exe");
}
