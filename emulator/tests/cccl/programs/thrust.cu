// Thrust (CCCL) on the CUDA system: device_vector, transform, reduce, sort, scan, copy_if.
// Output recorded on an H200.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <cstdio>

struct is_even { __host__ __device__ bool operator()(int x) const { return x % 2 == 0; } };
struct square { __host__ __device__ int operator()(int x) const { return x * x; } };

int main() {
  const int n = 1000;
  thrust::host_vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 1009;
  thrust::device_vector<int> d = h;
  thrust::device_vector<int> sq(n);
  thrust::transform(d.begin(), d.end(), sq.begin(), square());
  long long sum = thrust::reduce(sq.begin(), sq.end(), 0LL, thrust::plus<long long>());
  thrust::sort(d.begin(), d.end());
  thrust::device_vector<int> scan(n);
  thrust::inclusive_scan(d.begin(), d.end(), scan.begin());
  thrust::device_vector<int> evens(n);
  auto end = thrust::copy_if(d.begin(), d.end(), evens.begin(), is_even());
  std::printf("sum of squares %lld\n", sum);
  std::printf("sorted %d %d %d %d\n", (int)d[0], (int)d[1], (int)d[500], (int)d[999]);
  std::printf("scan %d %d\n", (int)scan[1], (int)scan[999]);
  std::printf("evens %d, first %d last %d\n", (int)(end - evens.begin()), (int)evens[0], (int)*(end - 1));
  return 0;
}
