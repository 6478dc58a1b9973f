// grid_group::sync() needs every block resident at once, which the emulator does not provide:
// it ends the kernel with a report naming the caller's line and a sticky error, never a hang
// or a silently wrong result. (A fault makes the process exit with status 1 whatever the
// program returns.)
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "device_buffer.h"

namespace cg = cooperative_groups;

__global__ void grid_sync_kernel(int* out) {
  cg::grid_group g = cg::this_grid();
  out[g.thread_rank()] = 1;
  g.sync();  // GRID-SYNC-LINE
  out[g.thread_rank()] = 2;
}

static int line_of(const char* marker) {
  FILE* f = std::fopen(__FILE__, "r");
  if (!f) return -1;
  char buf[512];
  int line = 0, found = -1;
  while (std::fgets(buf, sizeof buf, f)) {
    ++line;
    if (std::strstr(buf, marker) && !std::strstr(buf, "line_of(")) { found = line; break; }
  }
  std::fclose(f);
  return found;
}

static void run_grid_sync() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  grid_sync_kernel<<<2, 32>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::fprintf(stderr, "status=%s\n", cudaGetErrorName(e));
  std::exit(e == cudaSuccess ? 0 : 3);
}

TEST(CgGrid, GridSyncIsRefusedWithTheLine) {
  EXPECT_EXIT(run_grid_sync(), testing::ExitedWithCode(1),
      "cg_grid_test.cu:" + std::to_string(line_of("GRID-SYNC-LINE")) + ".*grid_group::sync(.|\n)*status=cudaErrorAssert");
}
