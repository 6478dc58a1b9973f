// Interprocess memory and events (cudaIpc*): what a program sees of each call, in the process
// that exports and in a process it starts (fork + exec of itself, as cuda-samples' simpleIPC
// does). The parent fills device memory, hands the child its memory and event handles on the
// command line; the child checks the bytes, adds to them and records the shared event; the
// parent waits on that event and checks the sums. Every call's result is printed by name.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "process_helpers.h"

namespace {

constexpr int kN = 1 << 20;  // ints: 4 MiB

int child(const char* mem_hex, const char* interior_hex, const char* event_hex,
          const char* freed_hex, const char* destroyed_hex) {
  std::printf("-- child\n");
  const auto h = from_hex<cudaIpcMemHandle_t>(mem_hex);
  const auto hi = from_hex<cudaIpcMemHandle_t>(interior_hex);
  const auto eh = from_hex<cudaIpcEventHandle_t>(event_hex);

  int* p = nullptr;
  say("open", cudaIpcOpenMemHandle(reinterpret_cast<void**>(&p), h, cudaIpcMemLazyEnablePeerAccess));
  std::printf("wrong values seen: %d\n", wrong(p, kN, 7));
  void* again = nullptr;
  say("open again", cudaIpcOpenMemHandle(&again, h, cudaIpcMemLazyEnablePeerAccess));
  std::printf("second open gives the same pointer: %s\n", again == p ? "yes" : "no");
  void* inner = nullptr;
  say("open the interior pointer's handle", cudaIpcOpenMemHandle(&inner, hi, cudaIpcMemLazyEnablePeerAccess));
  std::printf("it maps to: %s\n", inner == p ? "the allocation's base"
                                   : inner == p + 1024 ? "the interior pointer"
                                   : inner ? "another address" : "nothing");
  void* x = nullptr;
  say("open with flags 0", cudaIpcOpenMemHandle(&x, h, 0));
  if (x) std::printf("flags 0 gives the same pointer: %s\n", x == p ? "yes" : "no");
  say("open with flags 2", cudaIpcOpenMemHandle(&x, h, 2));
  cudaIpcMemHandle_t zero;
  std::memset(&zero, 0, sizeof zero);
  x = nullptr;
  say("open a zero handle", cudaIpcOpenMemHandle(&x, zero, cudaIpcMemLazyEnablePeerAccess));
  cudaIpcMemHandle_t junk;
  for (unsigned i = 0; i < sizeof junk; ++i) junk.reserved[i] = static_cast<char>(0x5a + 3 * i);
  say("open a junk handle", cudaIpcOpenMemHandle(&x, junk, cudaIpcMemLazyEnablePeerAccess));
  x = nullptr;
  say("open the handle of memory freed since",
      cudaIpcOpenMemHandle(&x, from_hex<cudaIpcMemHandle_t>(freed_hex), cudaIpcMemLazyEnablePeerAccess));
  say("last error", cudaGetLastError());

  cudaPointerAttributes a{};
  say("attributes", cudaPointerGetAttributes(&a, p));
  std::printf("type %d device %d device pointer is itself: %s\n", static_cast<int>(a.type),
              a.device, a.devicePointer == p ? "yes" : "no");

  cudaEvent_t ev = nullptr;
  say("open event", cudaIpcOpenEventHandle(&ev, eh));
  say("query before a record", cudaEventQuery(ev));
  cudaIpcEventHandle_t ezero;
  std::memset(&ezero, 0, sizeof ezero);
  cudaEvent_t ex = nullptr;
  say("open a zero event handle", cudaIpcOpenEventHandle(&ex, ezero));
  ex = nullptr;
  const cudaError_t destroyed =
      cudaIpcOpenEventHandle(&ex, from_hex<cudaIpcEventHandle_t>(destroyed_hex));
  say("open the handle of an event destroyed since", destroyed);
  if (destroyed == cudaSuccess) say("  and destroy it", cudaEventDestroy(ex));
  say("last error", cudaGetLastError());

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  add<<<kN / 256, 256, 0, s>>>(p, kN, 100);
  say("record the parent's event", cudaEventRecord(ev, s));
  float ms = 0;
  say("elapsed time", cudaEventElapsedTime(&ms, ev, ev));
  say("synchronize it", cudaEventSynchronize(ev));
  say("query after", cudaEventQuery(ev));
  std::printf("wrong values after the add: %d\n", wrong(p, kN, 107));

  int* own = nullptr;
  cudaMalloc(&own, 4096);
  say("close a pointer not opened", cudaIpcCloseMemHandle(own));
  say("close the interior pointer's mapping", cudaIpcCloseMemHandle(inner));
  say("free an opened pointer", cudaFree(p));
  say("last error", cudaGetLastError());
  say("close", cudaIpcCloseMemHandle(p));
  say("close again", cudaIpcCloseMemHandle(p));
  say("close null", cudaIpcCloseMemHandle(nullptr));
  say("last error", cudaGetLastError());
  say("destroy the opened event", cudaEventDestroy(ev));
  cudaFree(own);
  cudaStreamDestroy(s);
  std::printf("-- child done\n");
  return 0;
}

int parent(const char* self) {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int events = -1, handle_types = -1;
  cudaDeviceGetAttribute(&events, cudaDevAttrIpcEventSupport, 0);
  cudaDeviceGetAttribute(&handle_types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0);
  std::printf("ipcEventSupported %d (attribute %d), memoryPoolSupportedHandleTypes %u (attribute %d)\n",
              prop.ipcEventSupported, events, prop.memoryPoolSupportedHandleTypes, handle_types);
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int) * kN);
  fill<<<kN / 256, 256>>>(d, kN, 7);
  cudaDeviceSynchronize();

  cudaIpcMemHandle_t h, h2, hi, hx;
  say("handle of an allocation", cudaIpcGetMemHandle(&h, d));
  say("handle again", cudaIpcGetMemHandle(&h2, d));
  std::printf("the two handles are equal: %s\n", std::memcmp(&h, &h2, sizeof h) == 0 ? "yes" : "no");
  say("handle of an interior pointer", cudaIpcGetMemHandle(&hi, d + 1024));
  std::printf("equal to the base's: %s\n", std::memcmp(&h, &hi, sizeof h) == 0 ? "yes" : "no");
  say("handle of null", cudaIpcGetMemHandle(&hx, nullptr));
  say("last error", cudaGetLastError());
  int host[4];
  say("handle of host memory", cudaIpcGetMemHandle(&hx, host));
  say("last error", cudaGetLastError());
  void* pinned = nullptr;
  cudaMallocHost(&pinned, 4096);
  say("handle of pinned memory", cudaIpcGetMemHandle(&hx, pinned));
  say("last error", cudaGetLastError());
  void* managed = nullptr;
  cudaMallocManaged(&managed, 4096);
  say("handle of managed memory", cudaIpcGetMemHandle(&hx, managed));
  say("last error", cudaGetLastError());
  void* pooled = nullptr;
  cudaMallocAsync(&pooled, 4096, 0);
  cudaStreamSynchronize(0);
  say("handle of cudaMallocAsync memory", cudaIpcGetMemHandle(&hx, pooled));
  say("last error", cudaGetLastError());
  void* freed = nullptr;
  cudaMalloc(&freed, 1 << 16);
  cudaFree(freed);
  say("handle of freed memory", cudaIpcGetMemHandle(&hx, freed));
  say("last error", cudaGetLastError());
  void* same = nullptr;
  say("open in the same process", cudaIpcOpenMemHandle(&same, h, cudaIpcMemLazyEnablePeerAccess));
  say("last error", cudaGetLastError());

  cudaEvent_t plain, ipc;
  cudaEventCreate(&plain);
  cudaIpcEventHandle_t eh;
  say("event handle of a plain event", cudaIpcGetEventHandle(&eh, plain));
  say("last error", cudaGetLastError());
  cudaEvent_t timed;
  say("interprocess event with timing", cudaEventCreateWithFlags(&timed, cudaEventInterprocess));
  say("last error", cudaGetLastError());
  say("interprocess event",
      cudaEventCreateWithFlags(&ipc, cudaEventInterprocess | cudaEventDisableTiming));
  say("event handle", cudaIpcGetEventHandle(&eh, ipc));
  cudaEvent_t same_ev = nullptr;
  say("open the event in the same process", cudaIpcOpenEventHandle(&same_ev, eh));
  say("last error", cudaGetLastError());

  // Handles whose memory and event are gone before the child opens them.
  void* gone = nullptr;
  cudaMalloc(&gone, 1 << 16);
  cudaIpcMemHandle_t hg;
  say("handle of memory about to be freed", cudaIpcGetMemHandle(&hg, gone));
  say("free it", cudaFree(gone));
  cudaEvent_t dead;
  cudaEventCreateWithFlags(&dead, cudaEventInterprocess | cudaEventDisableTiming);
  cudaIpcEventHandle_t ehd;
  say("handle of an event about to be destroyed", cudaIpcGetEventHandle(&ehd, dead));
  say("destroy it", cudaEventDestroy(dead));

  char mem_hex[2 * sizeof h + 1], interior_hex[2 * sizeof hi + 1], event_hex[2 * sizeof eh + 1];
  char freed_hex[2 * sizeof hg + 1], destroyed_hex[2 * sizeof ehd + 1];
  to_hex(h, mem_hex);
  to_hex(hi, interior_hex);
  to_hex(eh, event_hex);
  to_hex(hg, freed_hex);
  to_hex(ehd, destroyed_hex);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "child", mem_hex, interior_hex, event_hex, freed_hex, destroyed_hex,
          static_cast<char*>(nullptr));
    std::perror("exec");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("-- parent: the child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  say("wait for the event the child recorded", cudaStreamWaitEvent(s, ipc, 0));
  std::printf("wrong values after the child's add: %d\n", wrong(d, kN, 107));
  say("query", cudaEventQuery(ipc));
  say("free", cudaFree(d));
  say("destroy the event", cudaEventDestroy(ipc));
  say("last error", cudaGetLastError());
  cudaStreamDestroy(s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 7 && std::strcmp(argv[1], "child") == 0)
    return child(argv[2], argv[3], argv[4], argv[5], argv[6]);
  return parent("/proc/self/exe");
}
