// Stream-ordered memory: cudaMallocAsync and cudaFreeAsync on the device's default pool and on a
// pool of the program's own, pool attributes; graph memory nodes (allocated and freed inside a
// graph, or allocated by the graph and freed by the program); 3D copies and memsets of pitched
// memory; stream attributes.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      std::printf("line %d: %s -> %s\n", __LINE__, #call, cudaGetErrorName(e_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

__global__ void iota(int* p, int n, int base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}
__global__ void reduce(const int* p, int n, long long* out) {
  long long s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += p[i];
  atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<unsigned long long>(s));
}

static int pools() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaMemPool_t def, current;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  std::printf("default pool is the current pool: %d\n", def == current);

  const int n = 1 << 16;
  int* p;
  long long* total;
  CHECK(cudaMallocAsync(&p, n * sizeof(int), s));
  CHECK(cudaMallocAsync(&total, sizeof(long long), s));
  CHECK(cudaMemsetAsync(total, 0, sizeof(long long), s));
  iota<<<n / 256, 256, 0, s>>>(p, n, 1);
  reduce<<<1, 256, 0, s>>>(p, n, total);
  long long result = 0;
  CHECK(cudaMemcpyAsync(&result, total, sizeof result, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaFreeAsync(total, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("sum of 1..%d: %lld\n", n, result);

  cudaMemPoolAttr attrs[] = {cudaMemPoolReuseFollowEventDependencies,
                             cudaMemPoolReuseAllowOpportunistic,
                             cudaMemPoolReuseAllowInternalDependencies};
  for (cudaMemPoolAttr at : attrs) {
    int v = -1;
    CHECK(cudaMemPoolGetAttribute(def, at, &v));
    std::printf("default pool attribute %d: %d\n", (int)at, v);
  }
  unsigned long long threshold = 123;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  std::printf("release threshold: %llu\n", threshold);
  threshold = 1 << 20;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  threshold = 0;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
  std::printf("release threshold set: %llu\n", threshold);
  unsigned long long used = 1;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &used));
  std::printf("used after freeing everything: %llu\n", used);

  // A pool of the program's own.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t mine;
  CHECK(cudaMemPoolCreate(&mine, &props));
  int* q;
  CHECK(cudaMallocFromPoolAsync(&q, 1000 * sizeof(int), mine, s));
  iota<<<4, 256, 0, s>>>(q, 1000, 5);
  CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  std::printf("own pool in use: %d\n", used >= 4000);
  int back[1000];
  CHECK(cudaMemcpyAsync(back, q, sizeof back, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(q, s));
  CHECK(cudaStreamSynchronize(s));
  long long sq = 0;
  for (int v : back) sq += v;
  std::printf("own pool: sum %lld\n", sq);
  CHECK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used));
  std::printf("own pool in use after the free: %llu\n", used);
  cudaMemAccessDesc access = {};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(mine, &access, 1));
  cudaMemAccessFlags flags;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  CHECK(cudaMemPoolGetAccess(&flags, mine, &loc));
  std::printf("access: %d\n", (int)flags);
  CHECK(cudaMemPoolTrimTo(mine, 0));
  CHECK(cudaMemPoolDestroy(mine));

  // Freeing twice, freeing what the pool did not allocate.
  int* r;
  CHECK(cudaMallocAsync(&r, 64, s));
  CHECK(cudaFreeAsync(r, s));
  CHECK(cudaStreamSynchronize(s));
  int* plain;
  CHECK(cudaMalloc(&plain, 64));
  cudaError_t e = cudaFreeAsync(plain, s);
  CHECK(cudaStreamSynchronize(s));
  std::printf("cudaFreeAsync of cudaMalloc memory: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

static int graph_memory() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int n = 4096;
  long long* out;
  CHECK(cudaMalloc(&out, sizeof(long long)));
  long long result = 0;

  // Captured: allocate, fill, reduce, free: the graph owns the memory for its run only.
  int* tmp = nullptr;
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&tmp, n * sizeof(int), s));
  CHECK(cudaMemsetAsync(out, 0, sizeof(long long), s));
  iota<<<n / 256, 256, 0, s>>>(tmp, n, 2);
  reduce<<<1, 128, 0, s>>>(tmp, n, out);
  CHECK(cudaFreeAsync(tmp, s));
  CHECK(cudaMemcpyAsync(&result, out, sizeof result, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphNode_t nodes[16];
  size_t count = 16;
  CHECK(cudaGraphGetNodes(g, nodes, &count));
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nodes[i], &t));
    if (t == cudaGraphNodeTypeMemAlloc) {
      ++allocs;
      cudaMemAllocNodeParams ap;
      CHECK(cudaGraphMemAllocNodeGetParams(nodes[i], &ap));
      std::printf("alloc node: %zu bytes, same address %d\n", ap.bytesize, ap.dptr == tmp);
    }
    if (t == cudaGraphNodeTypeMemFree) {
      ++frees;
      void* freed = nullptr;
      CHECK(cudaGraphMemFreeNodeGetParams(nodes[i], &freed));
      std::printf("free node: same address %d\n", freed == tmp);
    }
  }
  std::printf("captured %zu nodes, %d alloc, %d free\n", count, allocs, frees);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  for (int i = 0; i < 3; ++i) {
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    std::printf("launch %d: sum %lld\n", i, result);
  }
  unsigned long long reserved = 0, used = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
  std::printf("graph memory in use %llu, reserved at least the buffer %d\n", used,
              reserved >= n * sizeof(int));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));

  // Allocated by the graph and freed by the program: a second launch before the free fails.
  cudaGraph_t g2;
  CHECK(cudaGraphCreate(&g2, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc_node, iota_node;
  CHECK(cudaGraphAddMemAllocNode(&alloc_node, g2, nullptr, 0, &ap));
  int* kept = static_cast<int*>(ap.dptr);
  int nn = n, base = 10;
  void* args[] = {&kept, &nn, &base};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(iota);
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&iota_node, g2, &alloc_node, 1, &kp));
  CHECK(cudaGraphInstantiate(&exec, g2, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  std::printf("after the launch: graph memory in use %d\n", used >= n * sizeof(int));
  int host[4];
  CHECK(cudaMemcpy(host, kept + n - 4, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("kept: %d %d %d %d\n", host[0], host[1], host[2], host[3]);
  cudaError_t e = cudaGraphLaunch(exec, s);
  std::printf("relaunch before the free: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFreeAsync(kept, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("relaunch after the free: ok\n");
  CHECK(cudaFree(kept));  // the second launch allocated it again
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g2));
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
  std::printf("graph memory in use at the end %llu\n", used);
  CHECK(cudaFree(out));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

static int copies_3d() {
  const int W = 10, H = 6, D = 4;  // ints
  cudaExtent extent = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr dev;
  CHECK(cudaMalloc3D(&dev, extent));
  std::printf("pitch covers a row %d, aligned to 32 bytes %d\n", dev.pitch >= W * sizeof(int),
              dev.pitch % 32 == 0);
  CHECK(cudaMemset3D(dev, 0xff, extent));
  static int src[D][H][W], dst[D][H][W];
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) src[z][y][x] = z * 100 + y * 10 + x;
  // Copy a 6x3x2 box of the host array to (2, 1, 1) on the device.
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(src, W * sizeof(int), W, H);
  p.srcPos = make_cudaPos(0, 0, 0);
  p.dstPtr = dev;
  p.dstPos = make_cudaPos(2 * sizeof(int), 1, 1);
  p.extent = make_cudaExtent(6 * sizeof(int), 3, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaMemcpy3DParms back = {};
  back.srcPtr = dev;
  back.dstPtr = make_cudaPitchedPtr(dst, W * sizeof(int), W, H);
  back.extent = extent;
  back.kind = cudaMemcpyDeviceToHost;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMemcpy3DAsync(&back, s));
  CHECK(cudaStreamSynchronize(s));
  for (int z = 0; z < D; ++z) {
    std::printf("z=%d:", z);
    for (int y = 0; y < H; ++y) {
      std::printf(" ");
      for (int x = 0; x < W; ++x) std::printf("%s%d", x ? "," : "", dst[z][y][x]);
    }
    std::printf("\n");
  }
  // A box that runs past the pitch is refused.
  p.extent = make_cudaExtent(dev.pitch, 1, 1);
  cudaError_t e = cudaMemcpy3D(&p);
  std::printf("box past the pitch: %s\n", cudaGetErrorName(e));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(dev.ptr));
  CHECK(cudaStreamDestroy(s));
  return 0;
}

static int stream_attributes() {
  cudaStream_t a, b;
  CHECK(cudaStreamCreate(&a));
  CHECK(cudaStreamCreate(&b));
  cudaStreamAttrValue v = {};
  CHECK(cudaStreamGetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &v));
  std::printf("sync policy: %d\n", (int)v.syncPolicy);
  v.syncPolicy = cudaSyncPolicyBlockingSync;
  CHECK(cudaStreamSetAttribute(a, cudaStreamAttributeSynchronizationPolicy, &v));
  CHECK(cudaStreamCopyAttributes(b, a));
  v = {};
  CHECK(cudaStreamGetAttribute(b, cudaStreamAttributeSynchronizationPolicy, &v));
  std::printf("copied sync policy: %d\n", (int)v.syncPolicy);
  CHECK(cudaStreamGetAttribute(a, cudaStreamAttributePriority, &v));
  std::printf("priority: %d\n", v.priority);
  CHECK(cudaStreamDestroy(a));
  CHECK(cudaStreamDestroy(b));
  return 0;
}

int main() {
  if (pools() != 0) return 1;
  if (graph_memory() != 0) return 1;
  if (copies_3d() != 0) return 1;
  if (stream_attributes() != 0) return 1;
  std::printf("done\n");
  return 0;
}
