// The texture and surface forms textures.cu leaves out, as an H200 computes them
// (expected/texture_forms.txt): surfaces over cubemap and layered cubemap arrays (written and read
// back through surfCubemap*/surfCubemapLayered* and read through texCubemap*), tex2Dgather over
// 8-bit and float texels in each address mode, element and normalised reads, and the gradient
// and level-of-detail forms on arrays without mipmaps (tex1DGrad ... texCubemapLayeredGrad,
// texCubemapLod, texCubemapLayeredLod) beside the plain reads.
#include <cstdio>
#include <cstring>

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) std::printf("%s: %s\n", #x, cudaGetErrorName(e));      \
  } while (0)

unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}

// --- cubemap surfaces -------------------------------------------------------------------------
__global__ void write_faces(cudaSurfaceObject_t s, int n) {
  const int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
  if (x < n && y < n) surfCubemapwrite(face * 100.f + y * 10.f + x, s, x * 4, y, face);
}
__global__ void read_faces(cudaSurfaceObject_t s, int n, float* out) {
  const int x = threadIdx.x, y = threadIdx.y, face = blockIdx.x;
  if (x < n && y < n) surfCubemapread(&out[(face * n + y) * n + x], s, x * 4, y, face);
}
__global__ void write_cubes(cudaSurfaceObject_t s, int n) {
  const int x = threadIdx.x, y = threadIdx.y, layer_face = blockIdx.x;
  if (x < n && y < n)
    surfCubemapLayeredwrite(make_uchar2(layer_face * 10 + x, 200 + y), s, x * 2, y, layer_face);
}
__global__ void read_cubes(cudaSurfaceObject_t s, int n, uchar2* out) {
  const int x = threadIdx.x, y = threadIdx.y, layer_face = blockIdx.x;
  if (x < n && y < n)
    out[(layer_face * n + y) * n + x] = surfCubemapLayeredread<uchar2>(s, x * 2, y, layer_face);
}

__constant__ float3 kDirections[] = {{1.f, 0.2f, -0.3f},  {-1.f, 0.4f, 0.1f}, {0.3f, 1.f, 0.6f},
                                     {-0.2f, -1.f, 0.7f}, {0.5f, 0.5f, 1.f},  {-0.6f, 0.1f, -1.f},
                                     {0.9f, -0.9f, 0.2f}, {0.f, 0.f, -2.f},  {1.f, 1.f, 1.f},
                                     {-1.f, -1.f, -1.f},  {1.f, 0.5f, -1.f}, {0.5f, -1.f, 1.f},
                                     {-0.7f, 0.7f, 0.1f}, {0.3f, 0.8f, -0.8f}};
constexpr int kNumDirections = 14;

__global__ void sample_cube(cudaTextureObject_t t, float* out) {
  const int i = threadIdx.x;
  const float3 d = kDirections[i];
  out[4 * i + 0] = texCubemap<float>(t, d.x, d.y, d.z);
  out[4 * i + 1] = texCubemapLod<float>(t, d.x, d.y, d.z, 1.5f);
  out[4 * i + 2] = texCubemapGrad<float>(t, d.x, d.y, d.z, make_float4(4.f, 0.f, 0.f, 0.f),
                                         make_float4(0.f, 3.f, 0.f, 0.f));
  out[4 * i + 3] = texCubemapGrad<float>(t, d.x, d.y, d.z, make_float4(0.f, 0.f, 0.f, 0.f),
                                         make_float4(0.f, 0.f, 0.f, 0.f));
}
__global__ void sample_cubes(cudaTextureObject_t t, float4* out) {
  const int i = threadIdx.x, layer = blockIdx.x;
  const float3 d = kDirections[i];
  float4* o = out + 3 * (layer * kNumDirections + i);
  o[0] = texCubemapLayered<float4>(t, d.x, d.y, d.z, layer);
  o[1] = texCubemapLayeredLod<float4>(t, d.x, d.y, d.z, layer, 2.f);
  o[2] = texCubemapLayeredGrad<float4>(t, d.x, d.y, d.z, layer, make_float4(1.f, 2.f, 3.f, 0.f),
                                       make_float4(-1.f, 0.5f, 0.f, 0.f));
}

// --- gather -----------------------------------------------------------------------------------
__constant__ float2 kPoints[] = {{0.f, 0.f},   {0.5f, 0.5f}, {1.f, 1.f},   {1.25f, 2.75f},
                                 {2.5f, 1.5f}, {4.9f, 3.9f}, {5.5f, 4.2f}, {-0.7f, 1.3f},
                                 {3.f, -0.4f}, {7.3f, 6.1f}};
constexpr int kNumPoints = 10;

template <class T>
__global__ void gather(cudaTextureObject_t t, float scale_x, float scale_y, T* out) {
  const int i = threadIdx.x, comp = threadIdx.y;
  const float2 p = kPoints[i];
  out[comp * kNumPoints + i] = tex2Dgather<T>(t, p.x * scale_x, p.y * scale_y, comp);
}

// --- gradient forms beside the plain reads ---------------------------------------------------
__global__ void gradients(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                          cudaTextureObject_t t1l, cudaTextureObject_t t2l, float* out) {
  const int i = threadIdx.x;
  const float x = 0.3f + 0.77f * i, y = 0.6f + 0.41f * i, z = 0.2f + 0.29f * i;
  const float2 g0 = make_float2(0.f, 0.f), g1 = make_float2(8.f, 0.5f), g2 = make_float2(0.f, 64.f);
  const float4 h0 = make_float4(0.f, 0.f, 0.f, 0.f), h1 = make_float4(2.f, 3.f, 9.f, 0.f);
  float* o = out + 16 * i;
  o[0] = tex1D<float>(t1, x);
  o[1] = tex1DGrad<float>(t1, x, 0.f, 0.f);
  o[2] = tex1DGrad<float>(t1, x, 16.f, -4.f);
  o[3] = tex2D<float>(t2, x, y);
  o[4] = tex2DGrad<float>(t2, x, y, g0, g0);
  o[5] = tex2DGrad<float>(t2, x, y, g1, g2);
  o[6] = tex3D<float>(t3, x, y, z);
  o[7] = tex3DGrad<float>(t3, x, y, z, h0, h0);
  o[8] = tex3DGrad<float>(t3, x, y, z, h1, h1);
  o[9] = tex1DLayered<float>(t1l, x, 1);
  o[10] = tex1DLayeredGrad<float>(t1l, x, 1, 0.f, 0.f);
  o[11] = tex1DLayeredGrad<float>(t1l, x, 1, 5.f, 5.f);
  o[12] = tex2DLayered<float>(t2l, x, y, 2);
  o[13] = tex2DLayeredGrad<float>(t2l, x, y, 2, g0, g0);
  o[14] = tex2DLayeredGrad<float>(t2l, x, y, 2, g2, g1);
  o[15] = tex2DLod<float>(t2, x, y, 3.f);
}

cudaTextureObject_t texture_of(cudaArray_t a, cudaTextureFilterMode filter, cudaTextureReadMode read,
                               cudaTextureAddressMode mode, bool normalised) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc d{};
  d.filterMode = filter;
  d.readMode = read;
  d.normalizedCoords = normalised;
  for (auto& m : d.addressMode) m = mode;
  d.borderColor[0] = 0.25f;
  d.borderColor[1] = 0.5f;
  d.borderColor[2] = 0.75f;
  d.borderColor[3] = 1.f;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  return t;
}

cudaSurfaceObject_t surface_of(cudaArray_t a) {
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}

void cubemaps() {
  const int n = 4;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t cube;
  CHECK(cudaMalloc3DArray(&cube, &f, make_cudaExtent(n, n, 6),
                          cudaArrayCubemap | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s = surface_of(cube);
  write_faces<<<6, dim3(n, n)>>>(s, n);
  float* d;
  CHECK(cudaMalloc(&d, sizeof(float) * 6 * n * n));
  read_faces<<<6, dim3(n, n)>>>(s, n, d);
  float h[6 * n * n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int face = 0; face < 6; ++face) {
    std::printf("cube face %d:", face);
    for (int k = 0; k < n * n; ++k) std::printf(" %g", h[face * n * n + k]);
    std::printf("\n");
  }
  for (int linear = 0; linear < 2; ++linear) {
    cudaTextureObject_t t = texture_of(cube, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                       cudaReadModeElementType, cudaAddressModeClamp, true);
    float* o;
    CHECK(cudaMalloc(&o, sizeof(float) * 4 * kNumDirections));
    sample_cube<<<1, kNumDirections>>>(t, o);
    float ho[4 * kNumDirections];
    CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kNumDirections; ++i)
      std::printf("texCubemap %s %d: %08x %08x %08x %08x\n", linear ? "linear" : "point", i,
                  bits(ho[4 * i]), bits(ho[4 * i + 1]), bits(ho[4 * i + 2]), bits(ho[4 * i + 3]));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(o));
  }
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(cube));
  CHECK(cudaFree(d));

  // Two cubes of uchar2 texels (12 layers).
  cudaChannelFormatDesc u2 = cudaCreateChannelDesc<uchar2>();
  cudaArray_t cubes;
  CHECK(cudaMalloc3DArray(&cubes, &u2, make_cudaExtent(n, n, 12),
                          cudaArrayCubemap | cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sl = surface_of(cubes);
  write_cubes<<<12, dim3(n, n)>>>(sl, n);
  uchar2* dl;
  CHECK(cudaMalloc(&dl, sizeof(uchar2) * 12 * n * n));
  read_cubes<<<12, dim3(n, n)>>>(sl, n, dl);
  uchar2 hl[12 * n * n];
  CHECK(cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost));
  for (int lf = 0; lf < 12; ++lf) {
    std::printf("cubes layer-face %d:", lf);
    for (int k = 0; k < n * n; ++k) std::printf(" %d,%d", hl[lf * n * n + k].x, hl[lf * n * n + k].y);
    std::printf("\n");
  }
  for (int linear = 0; linear < 2; ++linear) {
    cudaTextureObject_t t = texture_of(cubes, linear ? cudaFilterModeLinear : cudaFilterModePoint,
                                       cudaReadModeNormalizedFloat, cudaAddressModeClamp, true);
    float4* o;
    CHECK(cudaMalloc(&o, sizeof(float4) * 3 * 2 * kNumDirections));
    sample_cubes<<<2, kNumDirections>>>(t, o);
    float4 ho[3 * 2 * kNumDirections];
    CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2 * kNumDirections; ++i) {
      std::printf("texCubemapLayered %s %d:", linear ? "linear" : "point", i);
      for (int k = 0; k < 3; ++k)
        std::printf(" %08x,%08x,%08x,%08x", bits(ho[3 * i + k].x), bits(ho[3 * i + k].y),
                    bits(ho[3 * i + k].z), bits(ho[3 * i + k].w));
      std::printf("\n");
    }
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(o));
  }
  CHECK(cudaDestroySurfaceObject(sl));
  CHECK(cudaFreeArray(cubes));
  CHECK(cudaFree(dl));
}

void gathers() {
  const int w = 5, h = 4;
  // uchar4 texels: (x * 40 + y, y * 60 + x, 255 - x * y * 10, x + y * w)
  uchar4 texels[h][w];
  float values[h][w];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      texels[y][x] = make_uchar4(x * 40 + y, y * 60 + x, 255 - x * y * 10, x + y * w);
      values[y][x] = 1.f / (1 + x + 7 * y) - 0.1f * x;
    }
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t a4, af;
  CHECK(cudaMallocArray(&a4, &c4, w, h, cudaArrayTextureGather));
  CHECK(cudaMallocArray(&af, &cf, w, h, cudaArrayTextureGather));
  CHECK(cudaMemcpy2DToArray(a4, 0, 0, texels, w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(af, 0, 0, values, w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  const cudaTextureAddressMode modes[] = {cudaAddressModeClamp, cudaAddressModeBorder,
                                          cudaAddressModeWrap, cudaAddressModeMirror};
  const char* mode_names[] = {"clamp", "border", "wrap", "mirror"};
  for (int m = 0; m < 4; ++m)
    for (int normalised = 0; normalised < 2; ++normalised) {
      const float sx = normalised ? 1.f / w : 1.f, sy = normalised ? 1.f / h : 1.f;
      {  // uchar4 as elements
        cudaTextureObject_t t = texture_of(a4, cudaFilterModePoint, cudaReadModeElementType,
                                           modes[m], normalised);
        uchar4* o;
        CHECK(cudaMalloc(&o, sizeof(uchar4) * 4 * kNumPoints));
        gather<uchar4><<<1, dim3(kNumPoints, 4)>>>(t, sx, sy, o);
        uchar4 ho[4 * kNumPoints];
        CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
        for (int comp = 0; comp < 4; ++comp) {
          std::printf("gather u8 %s %s comp %d:", mode_names[m], normalised ? "norm" : "unnorm",
                      comp);
          for (int i = 0; i < kNumPoints; ++i) {
            const uchar4 v = ho[comp * kNumPoints + i];
            std::printf(" %d,%d,%d,%d", v.x, v.y, v.z, v.w);
          }
          std::printf("\n");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(o));
      }
      {  // uchar4 normalised, linear filter mode (gather ignores it)
        cudaTextureObject_t t = texture_of(a4, cudaFilterModeLinear, cudaReadModeNormalizedFloat,
                                           modes[m], normalised);
        float4* o;
        CHECK(cudaMalloc(&o, sizeof(float4) * 4 * kNumPoints));
        gather<float4><<<1, dim3(kNumPoints, 4)>>>(t, sx, sy, o);
        float4 ho[4 * kNumPoints];
        CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
        for (int comp = 0; comp < 4; ++comp) {
          std::printf("gather unorm %s %s comp %d:", mode_names[m], normalised ? "norm" : "unnorm",
                      comp);
          for (int i = 0; i < kNumPoints; ++i) {
            const float4 v = ho[comp * kNumPoints + i];
            std::printf(" %08x,%08x,%08x,%08x", bits(v.x), bits(v.y), bits(v.z), bits(v.w));
          }
          std::printf("\n");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(o));
      }
      {  // one float channel
        cudaTextureObject_t t = texture_of(af, cudaFilterModePoint, cudaReadModeElementType,
                                           modes[m], normalised);
        float4* o;
        CHECK(cudaMalloc(&o, sizeof(float4) * 4 * kNumPoints));
        gather<float4><<<1, dim3(kNumPoints, 4)>>>(t, sx, sy, o);
        float4 ho[4 * kNumPoints];
        CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
        for (int comp = 0; comp < 4; ++comp) {
          std::printf("gather f32 %s %s comp %d:", mode_names[m], normalised ? "norm" : "unnorm",
                      comp);
          for (int i = 0; i < kNumPoints; ++i) {
            const float4 v = ho[comp * kNumPoints + i];
            std::printf(" %08x,%08x,%08x,%08x", bits(v.x), bits(v.y), bits(v.z), bits(v.w));
          }
          std::printf("\n");
        }
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaFree(o));
      }
    }
  CHECK(cudaFreeArray(a4));
  CHECK(cudaFreeArray(af));
}

void gradient_forms() {
  const int w = 9, h = 7, dd = 5, layers = 3;
  float v1[layers][w], v2[layers][h][w], v3[dd][h][w];
  for (int l = 0; l < layers; ++l)
    for (int x = 0; x < w; ++x) v1[l][x] = 1.5f * x * x - 3.f * l + 0.125f;
  for (int l = 0; l < layers; ++l)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) v2[l][y][x] = 1.f / (1.f + x + 3 * y + 11 * l);
  for (int z = 0; z < dd; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) v3[z][y][x] = x * 0.5f - y * 0.25f + z * z;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a1, a2, a3, a1l, a2l;
  CHECK(cudaMallocArray(&a1, &f, w));
  CHECK(cudaMallocArray(&a2, &f, w, h));
  CHECK(cudaMalloc3DArray(&a3, &f, make_cudaExtent(w, h, dd)));
  CHECK(cudaMalloc3DArray(&a1l, &f, make_cudaExtent(w, 0, layers), cudaArrayLayered));
  CHECK(cudaMalloc3DArray(&a2l, &f, make_cudaExtent(w, h, layers), cudaArrayLayered));
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, v1[0], w * 4, w * 4, 1, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, v2[0], w * 4, w * 4, h, cudaMemcpyHostToDevice));
  auto copy3d = [](cudaArray_t a, void* src, int w, int h, int d) {
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(src, w * 4, w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
  };
  copy3d(a3, v3, w, h, dd);
  copy3d(a1l, v1, w, 1, layers);
  copy3d(a2l, v2, w, h, layers);
  for (int linear = 0; linear < 2; ++linear) {
    const cudaTextureFilterMode fm = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    cudaTextureObject_t t1 = texture_of(a1, fm, cudaReadModeElementType, cudaAddressModeClamp, false);
    cudaTextureObject_t t2 = texture_of(a2, fm, cudaReadModeElementType, cudaAddressModeBorder, false);
    cudaTextureObject_t t3 = texture_of(a3, fm, cudaReadModeElementType, cudaAddressModeClamp, false);
    cudaTextureObject_t t1l = texture_of(a1l, fm, cudaReadModeElementType, cudaAddressModeClamp, false);
    cudaTextureObject_t t2l = texture_of(a2l, fm, cudaReadModeElementType, cudaAddressModeClamp, false);
    float* o;
    const int reads = 12;
    CHECK(cudaMalloc(&o, sizeof(float) * 16 * reads));
    gradients<<<1, reads>>>(t1, t2, t3, t1l, t2l, o);
    float ho[16 * reads];
    CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
    for (int i = 0; i < reads; ++i) {
      std::printf("grad %s %d:", linear ? "linear" : "point", i);
      for (int k = 0; k < 16; ++k) std::printf(" %08x", bits(ho[16 * i + k]));
      std::printf("\n");
    }
    for (cudaTextureObject_t t : {t1, t2, t3, t1l, t2l}) CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(o));
  }
  for (cudaArray_t a : {a1, a2, a3, a1l, a2l}) CHECK(cudaFreeArray(a));
}

int main() {
  cubemaps();
  gathers();
  gradient_forms();
  CHECK(cudaDeviceSynchronize());
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
