// Memcpy nodes naming CUDA arrays: a graph copies a host image into a 2D array and back out into
// another host buffer; the executable graph's second node is then pointed at a third buffer
// (cudaGraphExecMemcpyNodeSetParams). Prints how many elements differ from the source.
#include <cstdio>

int main() {
  const int W = 37, H = 11;
  static float src[H][W], back[H][W], again[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) src[y][x] = y * 100.f + x * 0.5f;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &d, W, H);
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(src, W * sizeof(float), W, H);
  in.dstArray = a;
  in.extent = make_cudaExtent(W, H, 1);
  in.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DParms out = {};
  out.srcArray = a;
  out.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, H);
  out.extent = make_cudaExtent(W, H, 1);
  out.kind = cudaMemcpyDeviceToHost;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t n_in, n_out;
  cudaError_t e1 = cudaGraphAddMemcpyNode(&n_in, g, nullptr, 0, &in);
  cudaError_t e2 = cudaGraphAddMemcpyNode(&n_out, g, &n_in, 1, &out);
  cudaGraphExec_t x;
  cudaError_t e3 = cudaGraphInstantiate(&x, g, 0);
  cudaGraphLaunch(x, 0);
  cudaDeviceSynchronize();
  out.dstPtr = make_cudaPitchedPtr(again, W * sizeof(float), W, H);
  cudaError_t e4 = cudaGraphExecMemcpyNodeSetParams(x, n_out, &out);
  cudaGraphLaunch(x, 0);
  cudaDeviceSynchronize();
  int diff_back = 0, diff_again = 0;
  for (int y = 0; y < H; ++y)
    for (int xx = 0; xx < W; ++xx) {
      diff_back += back[y][xx] != src[y][xx];
      diff_again += again[y][xx] != src[y][xx];
    }
  std::printf("%s %s %s %s: %d %d differ\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
              cudaGetErrorName(e3), cudaGetErrorName(e4), diff_back, diff_again);
  return 0;
}
