// Dynamic parallelism as CUDA 12 defines it (the device runtime, "CDP2"): grids launched by
// CUDA threads, their ordering on the block's implicit stream, device-side streams, events,
// tail and fire-and-forget launches, copies, memsets and allocation from device code, launch
// errors and the pending-launch limit. Every result is read by the host after
// cudaDeviceSynchronize.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorName(e_));                  \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

// --- nesting: each level marks itself and launches the next, until a launch fails ---
__global__ void recurse(int depth, int limit, int* reached, int* fail_depth, int* fail_code) {
  atomicMax(reached, depth + 1);
  if (depth + 1 >= limit) return;
  recurse<<<1, 1>>>(depth + 1, limit, reached, fail_depth, fail_code);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    *fail_depth = depth;
    *fail_code = e;
  }
}

// --- a tree: every grid of depth < 3 launches two grids of 2 threads ---
__global__ void tree(int depth, int* launched, int* threads) {
  atomicAdd(threads, 1);
  if (threadIdx.x == 0) atomicAdd(launched, 1);
  if (depth < 3 && threadIdx.x == 0) {
    tree<<<1, 2>>>(depth + 1, launched, threads);
    tree<<<1, 2>>>(depth + 1, launched, threads);
  }
}

// --- the block's implicit stream runs its launches one after another, in order ---
__global__ void append(int* count, int* order, int id) { order[atomicAdd(count, 1)] = id; }
struct params {
  int a[4];
};
__global__ void read_params(params p, const int* data, int* out) {
  out[threadIdx.x] = p.a[threadIdx.x] * 1000 + data[threadIdx.x];
}
__global__ void in_order(int* count, int* order, int* data, int* out) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < 6; ++i) append<<<1, 1>>>(count, order, i);
  params p;
  for (int i = 0; i < 4; ++i) {
    p.a[i] = i + 1;
    data[i] = 10 * i;  // written before the launch: the child sees it
  }
  read_params<<<1, 4>>>(p, data, out);
  p.a[0] = 99;  // after the launch: the child has its own copy of the parameters
}

// --- many blocks, each launching its own child ---
__global__ void fill_block(int* out, int b) { out[b * 4 + threadIdx.x] = b * 100 + threadIdx.x; }
__global__ void per_block(int* out) {
  if (threadIdx.x == 1) fill_block<<<1, 4>>>(out, blockIdx.x);
}

// --- a device-side stream: memset, kernel, copy, in order ---
__global__ void add_one(unsigned char* buf, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = buf[i] + 1;
}
__global__ void stream_work(unsigned char* buf, unsigned char* out, int n, int* codes) {
  cudaStream_t s;
  codes[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  codes[1] = cudaMemsetAsync(buf, 0x41, n, s);
  add_one<<<1, 32, 0, s>>>(buf, n);
  codes[2] = cudaGetLastError();
  codes[3] = cudaMemcpyAsync(out, buf, n, cudaMemcpyDeviceToDevice, s);
  codes[4] = cudaStreamDestroy(s);
  cudaStream_t blocking;
  codes[5] = cudaStreamCreateWithFlags(&blocking, cudaStreamDefault);
}

// --- events order two device-side streams ---
__global__ void set_value(int* x, int v) { *x = v; }
__global__ void add_value(const int* x, int* y, int v) { *y = *x + v; }
__global__ void event_order(int* x, int* y, int* codes) {
  cudaStream_t s1, s2;
  cudaEvent_t e;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  codes[0] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  set_value<<<1, 1, 0, s1>>>(x, 3);
  codes[1] = cudaEventRecord(e, s1);
  codes[2] = cudaStreamWaitEvent(s2, e, 0);
  add_value<<<1, 1, 0, s2>>>(x, y, 4);
  codes[3] = cudaEventDestroy(e);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

// --- a tail launch runs after the grid and all its other work ---
__global__ void slow_set(int* x, int v) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  for (int i = 0; i < 100; ++i) atomicAdd(&s, 1);
  __syncthreads();
  if (threadIdx.x == 0) *x = v + s / (100 * blockDim.x) - 1;
}
__global__ void times_ten(const int* x, int* y) { *y = *x * 10; }
__global__ void tail_parent(int* x, int* y, int* z, int* codes) {
  if (threadIdx.x != 0) return;
  times_ten<<<1, 1, 0, cudaStreamTailLaunch>>>(x, y);
  codes[0] = cudaGetLastError();
  slow_set<<<1, 256>>>(x, 5);
  set_value<<<1, 1, 0, cudaStreamFireAndForget>>>(z, 9);
  codes[1] = cudaGetLastError();
}

// --- the device heap: allocated by the parent, filled by a child, summed and freed by a tail ---
__global__ void fill_heap(int* p, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) p[i] = i;
}
__global__ void sum_and_free(int* p, int n, int* out) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  *out = s;
  out[1] = cudaFree(p);
}
__global__ void heap_parent(int* out) {
  int* p = nullptr;
  out[2] = cudaMalloc(reinterpret_cast<void**>(&p), 256 * sizeof(int));
  fill_heap<<<1, 64>>>(p, 256);
  sum_and_free<<<1, 1, 0, cudaStreamTailLaunch>>>(p, 256, out);
}

// --- device-side streams: which flags, destroying twice, the special streams ---
__global__ void count(int* c) { atomicAdd(c, 1); }
__global__ void stream_rules(int* codes, int* ran) {
  cudaStream_t s;
  codes[0] = cudaStreamCreateWithFlags(&s, 0x10);
  codes[1] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  count<<<1, 1, 0, s>>>(ran);
  codes[2] = cudaStreamDestroy(s);
  codes[3] = cudaStreamDestroy(s);
  codes[4] = cudaStreamDestroy(cudaStreamFireAndForget);  // the error of codes[0], not taken
  codes[5] = cudaGetLastError();
  codes[6] = cudaStreamDestroy(cudaStreamTailLaunch);
  codes[7] = cudaStreamDestroy(0);
  count<<<1, 1>>>(ran);
}

// --- the device heap when full, and memory from malloc freed by cudaFree ---
__global__ void heap_rules(void** kept, int* codes) {
  codes[0] = cudaMalloc(kept, 1024);
  void* big = reinterpret_cast<void*>(16);
  codes[1] = cudaMalloc(&big, 64 << 20);  // more than the 8 MiB heap
  codes[2] = big == nullptr ? 1 : big == reinterpret_cast<void*>(16) ? 0 : 2;
  codes[3] = cudaFree(malloc(1024));
}

// --- launches the device runtime refuses ---
__global__ void nothing() {}
__global__ void bad_launches(int* codes) {
  nothing<<<1, 2048>>>();
  codes[0] = cudaGetLastError();
  nothing<<<1, 32, 1 << 20>>>();
  codes[1] = cudaGetLastError();
  nothing<<<0, 32>>>();
  codes[2] = cudaGetLastError();
  nothing<<<1, 32>>>();
  codes[3] = cudaGetLastError();
}

static void print_codes(const char* what, const int* codes, int n) {
  printf("%s:", what);
  for (int i = 0; i < n; ++i) printf(" %s", cudaGetErrorName(static_cast<cudaError_t>(codes[i])));
  printf("\n");
}

int main() {
  int* m;
  CHECK(cudaMallocManaged(&m, 4096 * sizeof(int)));
  CHECK(cudaMemset(m, 0, 4096 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  // nesting: every grid of a chain holds a pending-launch slot until it completes
  for (int limit : {64, 1000, 3000}) {
    int* reached = m;
    int* fail = m + 64;
    reached[0] = 0;
    fail[0] = -1;
    fail[1] = 0;
    recurse<<<1, 1>>>(0, limit, reached, fail, fail + 1);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("chain of up to %d grids: %d ran; the launch from depth %d failed with %s\n", limit,
           reached[0], fail[0], cudaGetErrorName(static_cast<cudaError_t>(fail[1])));
  }

  // tree
  int* t = m + 128;
  tree<<<1, 2>>>(0, t, t + 1);
  CHECK(cudaDeviceSynchronize());
  printf("tree: %d grids, %d threads\n", t[0], t[1]);

  // order
  int* count = m + 256;
  int* order = m + 260;
  int* data = m + 280;
  int* out = m + 290;
  in_order<<<1, 32>>>(count, order, data, out);
  CHECK(cudaDeviceSynchronize());
  printf("implicit stream order:");
  for (int i = 0; i < *count; ++i) printf(" %d", order[i]);
  printf("\nparameters and data seen by the child: %d %d %d %d\n", out[0], out[1], out[2], out[3]);

  // blocks
  int* blocks = m + 512;
  per_block<<<16, 64>>>(blocks);
  CHECK(cudaDeviceSynchronize());
  long long sum = 0;
  bool exact = true;
  for (int b = 0; b < 16; ++b)
    for (int i = 0; i < 4; ++i) {
      sum += blocks[b * 4 + i];
      exact = exact && blocks[b * 4 + i] == b * 100 + i;
    }
  printf("16 blocks' children: sum %lld, %s\n", sum, exact ? "each in place" : "WRONG");

  // device-side stream
  unsigned char* buf;
  unsigned char* copy;
  CHECK(cudaMalloc(&buf, 1000));
  CHECK(cudaMallocManaged(&copy, 1000));
  CHECK(cudaMemset(buf, 0, 1000));
  int* codes = m + 1024;
  stream_work<<<1, 1>>>(buf, copy, 1000, codes);
  CHECK(cudaDeviceSynchronize());
  int good = 0;
  for (int i = 0; i < 1000; ++i) good += copy[i] == 0x42;
  printf("device stream: %d of 1000 bytes are 0x42\n", good);
  print_codes("device stream calls", codes, 6);

  // events
  int* ev = m + 1100;
  event_order<<<1, 1>>>(ev, ev + 1, ev + 4);
  CHECK(cudaDeviceSynchronize());
  printf("events: x %d, y %d\n", ev[0], ev[1]);
  print_codes("event calls", ev + 4, 4);

  // tail and fire-and-forget
  int* tl = m + 1200;
  tail_parent<<<1, 32>>>(tl, tl + 1, tl + 2, tl + 4);
  CHECK(cudaDeviceSynchronize());
  printf("tail launch: x %d, y %d; fire-and-forget: z %d\n", tl[0], tl[1], tl[2]);
  print_codes("tail calls", tl + 4, 2);

  // heap
  int* h = m + 1300;
  heap_parent<<<1, 1>>>(h);
  CHECK(cudaDeviceSynchronize());
  printf("device heap: sum %d\n", h[0]);
  print_codes("heap calls (free, malloc)", h + 1, 2);

  // device-side stream rules
  int* sr = m + 1500;
  stream_rules<<<1, 1>>>(sr, sr + 10);
  CHECK(cudaDeviceSynchronize());
  print_codes("device stream rules", sr, 8);
  printf("kernels run of the two launched: %d\n", sr[10]);

  // heap rules
  void** kept;
  CHECK(cudaMallocManaged(&kept, sizeof(void*)));
  int* hr = m + 1600;
  heap_rules<<<1, 1>>>(kept, hr);
  CHECK(cudaDeviceSynchronize());
  printf("heap: %s, 64 MiB: %s and the pointer %s, cudaFree of malloc: %s\n",
         cudaGetErrorName(static_cast<cudaError_t>(hr[0])),
         cudaGetErrorName(static_cast<cudaError_t>(hr[1])),
         hr[2] == 1 ? "null" : hr[2] == 0 ? "unchanged" : "changed",
         cudaGetErrorName(static_cast<cudaError_t>(hr[3])));
  printf("host cudaFree of device-heap memory: %s\n", cudaGetErrorName(cudaFree(*kept)));
  printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  CHECK(cudaFree(kept));

  // refused launches
  int* bad = m + 1400;
  bad_launches<<<1, 1>>>(bad);
  CHECK(cudaDeviceSynchronize());
  print_codes("launches (2048 threads, 1 MiB shared, 0 blocks, fine)", bad, 4);

  CHECK(cudaFree(buf));
  CHECK(cudaFree(copy));
  CHECK(cudaFree(m));
  printf("done\n");
  return 0;
}
