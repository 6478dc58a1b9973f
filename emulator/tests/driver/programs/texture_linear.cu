// A texture object over linear memory: tex1Dfetch reads elements, and zeros outside the resource;
// other resources are refused. Output recorded on an H200 (expected/texture_linear.txt).
#include <cstdio>

__global__ void fetch(cudaTextureObject_t tex, float* out, int n) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch<float>(tex, i - 2);  // two indices below the range, and some above
  if (i == 0) out[n] = static_cast<float>(tex1Dfetch<int>(tex, 1) == __float_as_int(1.5f));
}

int main() {
  const int n = 8, threads = n + 4;
  float *data, *out;
  cudaMalloc(&data, n * sizeof(float));
  cudaMallocManaged(&out, (threads + 1) * sizeof(float));
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 0.5f + i;
  cudaMemcpy(data, h, sizeof h, cudaMemcpyHostToDevice);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = data;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc view = {};
  view.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  std::printf("create: %s\n", cudaGetErrorString(cudaCreateTextureObject(&tex, &res, &view, nullptr)));
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float4>();
  std::printf("float4 channels: %d %d %d %d kind %d\n", d.x, d.y, d.z, d.w, static_cast<int>(d.f));
  fetch<<<1, threads>>>(tex, out, threads);
  cudaDeviceSynchronize();
  for (int i = 0; i <= threads; ++i) std::printf("%g ", out[i]);
  std::printf("\n");
  cudaResourceDesc back = {};
  cudaGetTextureObjectResourceDesc(&back, tex);
  std::printf("resource: type %d, %zu bytes\n", static_cast<int>(back.resType), back.res.linear.sizeInBytes);
  std::printf("destroy: %s\n", cudaGetErrorString(cudaDestroyTextureObject(tex)));
  return 0;
}
