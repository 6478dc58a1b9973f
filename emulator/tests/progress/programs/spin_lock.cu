// Mutual exclusion by spinning: a lock taken with atomicCAS and released with atomicExch (with
// __threadfence), contended by every thread of a block -- including the threads of one warp, which
// only works if a lane that holds the lock makes progress while the others of its warp spin -- and
// by a grid of 8 blocks sharing one global lock; and a ticket lock. Inside the critical section
// each thread increments a plain counter and appends its index to a plain log. The order of the
// log depends on the schedule, so only order-independent facts are printed: the counter, the sum
// and xor of the log, and whether the log is a permutation of the thread indices.
#include <cstdio>
#include <vector>

struct shared_state {
  int lock;
  int counter;
  int next_ticket;
  int now_serving;
};

__device__ void lock(int* l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
  __threadfence();
}

__device__ void unlock(int* l) {
  __threadfence();
  atomicExch(l, 0);
}

__global__ void cas_lock(shared_state* st, int* log) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  lock(&st->lock);
  const int c = st->counter;
  log[c] = id;
  st->counter = c + 1;
  unlock(&st->lock);
}

// Each thread also records its ticket: log[ticket[id]] must be id.
__global__ void ticket_lock(shared_state* st, int* log, int* ticket) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = atomicAdd(&st->next_ticket, 1);
  while (atomicAdd(&st->now_serving, 0) != t) {
  }
  __threadfence();
  const int c = st->counter;
  log[c] = id;
  st->counter = c + 1;
  ticket[id] = t;
  __threadfence();
  atomicAdd(&st->now_serving, 1);
}

static bool report(const char* name, int blocks, int threads, bool tickets) {
  const int n = blocks * threads;
  shared_state* d_st;
  int *d_log, *d_ticket;
  cudaMalloc(&d_st, sizeof(shared_state));
  cudaMalloc(&d_log, n * sizeof(int));
  cudaMalloc(&d_ticket, n * sizeof(int));
  cudaMemset(d_st, 0, sizeof(shared_state));
  cudaMemset(d_log, 0xff, n * sizeof(int));
  cudaMemset(d_ticket, 0xff, n * sizeof(int));
  if (tickets)
    ticket_lock<<<blocks, threads>>>(d_st, d_log, d_ticket);
  else
    cas_lock<<<blocks, threads>>>(d_st, d_log);
  const cudaError_t err = cudaDeviceSynchronize();
  shared_state st;
  std::vector<int> log(n), ticket(n);
  cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  cudaMemcpy(log.data(), d_log, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(ticket.data(), d_ticket, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_st);
  cudaFree(d_log);
  cudaFree(d_ticket);

  long long sum = 0, want_sum = 0;
  unsigned x = 0, want_x = 0;
  std::vector<int> seen(n, 0);
  bool perm = true;
  for (int i = 0; i < n; ++i) {
    sum += log[i];
    x ^= static_cast<unsigned>(log[i]) * 2654435761u;
    want_sum += i;
    want_x ^= static_cast<unsigned>(i) * 2654435761u;
    if (log[i] < 0 || log[i] >= n || seen[log[i]]++) perm = false;
  }
  bool ok = err == cudaSuccess && st.counter == n && sum == want_sum && x == want_x && perm;
  std::printf("%-12s %d x %d: %s counter %d (cpu %d) log sum %lld (cpu %lld) log hash %08x (cpu %08x) permutation %s",
              name, blocks, threads, cudaGetErrorName(err), st.counter, n, sum, want_sum, x, want_x,
              perm ? "yes" : "no");
  if (tickets) {
    bool order = st.next_ticket == n && st.now_serving == n;
    for (int id = 0; id < n; ++id)
      order = order && ticket[id] >= 0 && ticket[id] < n && log[ticket[id]] == id;
    std::printf(" next_ticket %d now_serving %d served in ticket order %s", st.next_ticket, st.now_serving,
                order ? "yes" : "no");
    ok = ok && order;
  }
  std::printf(" %s\n", ok ? "ok" : "MISMATCH");
  return ok;
}

int main() {
  bool ok = true;
  ok &= report("cas lock", 1, 256, false);
  ok &= report("cas lock", 8, 128, false);
  ok &= report("ticket lock", 1, 256, true);
  ok &= report("ticket lock", 8, 128, true);
  std::printf("%s\n", ok ? "all ok" : "MISMATCH");
  return 0;
}
