// Texture and surface objects over CUDA arrays, pitched and linear memory: point and linear
// filtering, address modes (clamp, border, wrap, mirror), normalised coordinates, element and
// normalised-float reads of 8- and 16-bit channels, half channels, 1D/2D/3D and layered arrays,
// the array copies; surfaces written and read with each boundary mode. Every float is printed in
// hexadecimal.
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) {                                                     \
      std::printf("line %d: %s -> %s\n", __LINE__, #call, cudaGetErrorName(e_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

static unsigned bits(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Samples a 2D texture at n coordinates.
__global__ void sample2d(cudaTextureObject_t t, const float2* at, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, at[i].x, at[i].y);
}
__global__ void sample2d_scalar(cudaTextureObject_t t, const float2* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, at[i].x, at[i].y);
}
__global__ void sample2d_uchar4(cudaTextureObject_t t, const float2* at, uchar4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<uchar4>(t, at[i].x, at[i].y);
}
__global__ void sample1d(cudaTextureObject_t t, const float* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, at[i]);
}
__global__ void sample3d(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, at[i].x, at[i].y, at[i].z);
}
__global__ void sample_layered(cudaTextureObject_t t, const float4* at, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, at[i].x, at[i].y, static_cast<int>(at[i].z));
}
__global__ void fetch(cudaTextureObject_t t, float* out, int* iout, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = tex1Dfetch<float>(t, i - 2);
    iout[i] = tex1Dfetch<int>(t, i - 2);
  }
}
__global__ void sample_cube(cudaTextureObject_t t, const float4* dir, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dir[i].x, dir[i].y, dir[i].z);
}
__global__ void surface_square(cudaSurfaceObject_t s, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    const float v = surf2Dread<float>(s, x * 4, y);
    surf2Dwrite(v * v + 0.5f, s, x * 4, y);
  }
}
__global__ void surface_edges(cudaSurfaceObject_t s, float* out) {
  const int i = threadIdx.x;  // x from -2 to 9 elements on an 8-wide surface
  out[i] = surf2Dread<float>(s, (i - 2) * 4, 1, cudaBoundaryModeZero);
  out[16 + i] = surf2Dread<float>(s, (i - 2) * 4, 1, cudaBoundaryModeClamp);
  surf2Dwrite(-1.f, s, (i - 2) * 4, 5, cudaBoundaryModeZero);
}

template <class T>
static T* upload(const T* host, int n) {
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, host, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

static cudaTextureObject_t make_texture(cudaArray_t a, cudaTextureFilterMode filter,
                                        cudaTextureAddressMode mode, bool normalised,
                                        cudaTextureReadMode read) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = filter;
  td.readMode = read;
  td.normalizedCoords = normalised;
  td.borderColor[0] = 0.25f;
  td.borderColor[1] = 0.5f;
  td.borderColor[2] = 0.75f;
  td.borderColor[3] = 1.f;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  if (e != cudaSuccess) std::printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
  return t;
}

int main() {
  // A 5x4 float array, texel (x, y) = x + 10 y (+ 0.125 per odd x).
  const int W = 5, H = 4;
  float img[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y][x] = x + 10.f * y + (x & 1) * 0.125f;
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t fa;
  CHECK(cudaMallocArray(&fa, &fdesc, W, H));
  CHECK(cudaMemcpy2DToArray(fa, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                            cudaMemcpyHostToDevice));
  cudaChannelFormatDesc got;
  cudaExtent ext;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&got, &ext, &flags, fa));
  std::printf("array: %d %d %d %d kind %d, extent %zu %zu %zu, flags %u\n", got.x, got.y, got.z,
              got.w, (int)got.f, ext.width, ext.height, ext.depth, flags);

  // Coordinates: inside, between texels, on edges, outside on every side.
  const int N = 24;
  float2 at[N];
  const float xs[] = {0.f, 0.5f, 1.f, 1.3f, 2.75f, 4.5f, 4.99f, 5.f, -0.5f, -3.2f, 7.1f, 2.51f};
  for (int i = 0; i < N; ++i) at[i] = make_float2(xs[i % 12], i < 12 ? 1.5f : (i % 5) * 1.1f - 0.7f);
  float2* d_at = upload(at, N);
  float* d_out;
  CHECK(cudaMalloc(&d_out, 64 * sizeof(float4)));
  float out[N];
  const char* mode_names[] = {"wrap", "clamp", "mirror", "border"};
  for (int filter = 0; filter < 2; ++filter)
    for (int mode = 0; mode < 4; ++mode) {
      cudaTextureObject_t t = make_texture(fa, (cudaTextureFilterMode)filter,
                                           (cudaTextureAddressMode)mode, false,
                                           cudaReadModeElementType);
      sample2d_scalar<<<1, 32>>>(t, d_at, d_out, N);
      CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
      std::printf("float %s %s unnormalised:", filter ? "linear" : "point", mode_names[mode]);
      for (int i = 0; i < N; ++i) std::printf(" %08x", bits(out[i]));
      std::printf("\n");
      CHECK(cudaDestroyTextureObject(t));
    }
  // Normalised coordinates: the same points divided by the size.
  float2 nat[N];
  for (int i = 0; i < N; ++i) nat[i] = make_float2(at[i].x / W, at[i].y / H);
  float2* d_nat = upload(nat, N);
  for (int filter = 0; filter < 2; ++filter)
    for (int mode = 0; mode < 4; ++mode) {
      cudaTextureObject_t t = make_texture(fa, (cudaTextureFilterMode)filter,
                                           (cudaTextureAddressMode)mode, true,
                                           cudaReadModeElementType);
      sample2d_scalar<<<1, 32>>>(t, d_nat, d_out, N);
      CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
      std::printf("float %s %s normalised:", filter ? "linear" : "point", mode_names[mode]);
      for (int i = 0; i < N; ++i) std::printf(" %08x", bits(out[i]));
      std::printf("\n");
      CHECK(cudaDestroyTextureObject(t));
    }

  // uchar4 texels: element reads and normalised reads, point and linear.
  uchar4 px[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      px[y][x] = make_uchar4(x * 60, y * 80, (x * 37 + y * 91) & 255, 255 - x * y * 10);
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t ua;
  CHECK(cudaMallocArray(&ua, &u4, W, H));
  CHECK(cudaMemcpy2DToArray(ua, 0, 0, px, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  {
    cudaTextureObject_t t = make_texture(ua, cudaFilterModePoint, cudaAddressModeClamp, false,
                                         cudaReadModeElementType);
    sample2d_uchar4<<<1, 32>>>(t, d_at, reinterpret_cast<uchar4*>(d_out), N);
    uchar4 o[N];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("uchar4 element point:");
    for (int i = 0; i < N; ++i) std::printf(" %02x%02x%02x%02x", o[i].x, o[i].y, o[i].z, o[i].w);
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }
  for (int filter = 0; filter < 2; ++filter) {
    cudaTextureObject_t t = make_texture(ua, (cudaTextureFilterMode)filter, cudaAddressModeClamp,
                                         false, cudaReadModeNormalizedFloat);
    sample2d<<<1, 32>>>(t, d_at, reinterpret_cast<float4*>(d_out), N);
    float4 o[N];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("uchar4 normalised %s:", filter ? "linear" : "point");
    for (int i = 0; i < N; ++i)
      std::printf(" %08x,%08x,%08x,%08x", bits(o[i].x), bits(o[i].y), bits(o[i].z), bits(o[i].w));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }
  // A linear filter on integer elements is refused.
  {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = ua;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    std::printf("linear filter, uchar4 elements: %s\n",
                cudaGetErrorName(cudaCreateTextureObject(&t, &rd, &td, nullptr)));
    cudaGetLastError();
  }

  // 1D: signed shorts read normalised, and half texels, linear filtering.
  const int L = 6;
  short sv[L] = {-32768, -16384, 0, 1, 16383, 32767};
  cudaChannelFormatDesc sdesc = cudaCreateChannelDesc<short>();
  cudaArray_t sa;
  CHECK(cudaMallocArray(&sa, &sdesc, L));
  CHECK(cudaMemcpy2DToArray(sa, 0, 0, sv, sizeof sv, sizeof sv, 1, cudaMemcpyHostToDevice));
  float lx[16];
  for (int i = 0; i < 16; ++i) lx[i] = -1.f + i * 0.47f;
  float* d_lx = upload(lx, 16);
  for (int filter = 0; filter < 2; ++filter) {
    cudaTextureObject_t t = make_texture(sa, (cudaTextureFilterMode)filter, cudaAddressModeClamp,
                                         false, cudaReadModeNormalizedFloat);
    sample1d<<<1, 16>>>(t, d_lx, d_out, 16);
    float o[16];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("short normalised %s:", filter ? "linear" : "point");
    for (float v : o) std::printf(" %08x", bits(v));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }
  __half hv[L];
  for (int i = 0; i < L; ++i) hv[i] = __float2half(0.1f * i * i - 0.7f);
  cudaChannelFormatDesc hdesc = cudaCreateChannelDescHalf();
  cudaArray_t ha;
  CHECK(cudaMallocArray(&ha, &hdesc, L));
  CHECK(cudaMemcpy2DToArray(ha, 0, 0, hv, sizeof hv, sizeof hv, 1, cudaMemcpyHostToDevice));
  {
    cudaTextureObject_t t = make_texture(ha, cudaFilterModeLinear, cudaAddressModeClamp, false,
                                         cudaReadModeElementType);
    sample1d<<<1, 16>>>(t, d_lx, d_out, 16);
    float o[16];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("half linear:");
    for (float v : o) std::printf(" %08x", bits(v));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }

  // 3D: a 4x3x2 float volume, trilinear, and a layered 2D array (3 layers of 4x3).
  float vol[2][3][4];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) vol[z][y][x] = x * 1.5f + y * 7.f + z * 100.f;
  cudaArray_t va, la;
  CHECK(cudaMalloc3DArray(&va, &fdesc, make_cudaExtent(4, 3, 2)));
  CHECK(cudaMalloc3DArray(&la, &fdesc, make_cudaExtent(4, 3, 3), cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol, 4 * sizeof(float), 4, 3);
  p.dstArray = va;
  p.extent = make_cudaExtent(4, 3, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  float lay[3][3][4];
  for (int l = 0; l < 3; ++l)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) lay[l][y][x] = l * 1000.f + y * 10.f + x;
  p.srcPtr = make_cudaPitchedPtr(lay, 4 * sizeof(float), 4, 3);
  p.dstArray = la;
  p.extent = make_cudaExtent(4, 3, 3);
  CHECK(cudaMemcpy3D(&p));
  float4 at3[16];
  for (int i = 0; i < 16; ++i)
    at3[i] = make_float4(0.3f + i * 0.27f, 0.9f + (i % 4) * 0.45f, 0.2f + (i % 3) * 0.6f, 0.f);
  at3[15].z = 7.f;
  float4* d_at3 = upload(at3, 16);
  {
    cudaTextureObject_t t = make_texture(va, cudaFilterModeLinear, cudaAddressModeClamp, false,
                                         cudaReadModeElementType);
    sample3d<<<1, 16>>>(t, d_at3, d_out, 16);
    float o[16];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("3D linear:");
    for (float v : o) std::printf(" %08x", bits(v));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
    float4 atl[16];
    for (int i = 0; i < 16; ++i) atl[i] = make_float4(at3[i].x, at3[i].y, (float)(i % 5) - 1, 0);
    CHECK(cudaMemcpy(d_at3, atl, sizeof atl, cudaMemcpyHostToDevice));
    t = make_texture(la, cudaFilterModeLinear, cudaAddressModeClamp, false,
                     cudaReadModeElementType);
    sample_layered<<<1, 16>>>(t, d_at3, d_out, 16);
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    std::printf("2D layered linear:");
    for (float v : o) std::printf(" %08x", bits(v));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
  }

  // Linear memory: tex1Dfetch of ints (as floats, and as ints), out of range reads zero.
  int lin[8] = {5, -6, 7, 8, 900, 10, 11, 12};
  int* d_lin = upload(lin, 8);
  {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d_lin;
    rd.res.linear.desc = cudaCreateChannelDesc<int>();
    rd.res.linear.sizeInBytes = sizeof lin;
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    int* d_i;
    CHECK(cudaMalloc(&d_i, 12 * sizeof(int)));
    fetch<<<1, 12>>>(t, d_out, d_i, 12);
    float o[12];
    int oi[12];
    CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(oi, d_i, sizeof oi, cudaMemcpyDeviceToHost));
    std::printf("fetch:");
    for (int i = 0; i < 12; ++i) std::printf(" %08x/%d", bits(o[i]), oi[i]);
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_i));
  }
  // Pitched memory: the float image, bilinear.
  {
    float* d_img;
    size_t pitch;
    CHECK(cudaMallocPitch(&d_img, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(d_img, pitch, img, W * sizeof(float), W * sizeof(float), H,
                       cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = d_img;
    rd.res.pitch2D.desc = fdesc;
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    sample2d_scalar<<<1, 32>>>(t, d_at, d_out, N);
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    std::printf("pitch2D linear:");
    for (int i = 0; i < N; ++i) std::printf(" %08x", bits(out[i]));
    std::printf("\n");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(d_img));
  }

  // Surfaces: square every texel in place, then edge reads and dropped writes.
  const int SW = 8, SH = 6;
  float sv2[SH][SW];
  for (int y = 0; y < SH; ++y)
    for (int x = 0; x < SW; ++x) sv2[y][x] = x - 2.f * y;
  cudaArray_t sfa;
  CHECK(cudaMallocArray(&sfa, &fdesc, SW, SH, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(sfa, 0, 0, sv2, SW * 4, SW * 4, SH, cudaMemcpyHostToDevice));
  cudaResourceDesc srd = {};
  srd.resType = cudaResourceTypeArray;
  srd.res.array.array = sfa;
  cudaSurfaceObject_t so;
  CHECK(cudaCreateSurfaceObject(&so, &srd));
  surface_square<<<dim3(1, SH), 32>>>(so, SW, SH);
  surface_edges<<<1, 12>>>(so, d_out);
  float edges[32];
  CHECK(cudaMemcpy(edges, d_out, sizeof edges, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(sv2, SW * 4, sfa, 0, 0, SW * 4, SH, cudaMemcpyDeviceToHost));
  std::printf("surface:");
  for (int y = 0; y < SH; ++y)
    for (int x = 0; x < SW; ++x) std::printf(" %g", sv2[y][x]);
  std::printf("\nsurface zero:");
  for (int i = 0; i < 12; ++i) std::printf(" %g", edges[i]);
  std::printf("\nsurface clamp:");
  for (int i = 0; i < 12; ++i) std::printf(" %g", edges[16 + i]);
  std::printf("\n");
  // A sub-rectangle copied out of the array, and between arrays.
  float part[2][3];
  CHECK(cudaMemcpy2DFromArray(part, 3 * 4, sfa, 2 * 4, 3, 3 * 4, 2, cudaMemcpyDeviceToHost));
  std::printf("part: %g %g %g / %g %g %g\n", part[0][0], part[0][1], part[0][2], part[1][0],
              part[1][1], part[1][2]);
  cudaArray_t copy;
  CHECK(cudaMallocArray(&copy, &fdesc, SW, SH));
  CHECK(cudaMemcpy2DArrayToArray(copy, 4, 1, sfa, 0, 0, 4 * 4, 2));
  CHECK(cudaMemcpy2DFromArray(part, 3 * 4, copy, 4, 1, 3 * 4, 2, cudaMemcpyDeviceToHost));
  std::printf("array to array: %g %g %g / %g %g %g\n", part[0][0], part[0][1], part[0][2],
              part[1][0], part[1][1], part[1][2]);
  cudaError_t e = cudaMemcpy2DToArray(copy, 6 * 4, 0, sv2, SW * 4, 3 * 4, 1, cudaMemcpyHostToDevice);
  std::printf("copy past the row: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaResourceDesc crd = srd;
  crd.res.array.array = copy;
  cudaSurfaceObject_t bad;
  std::printf("surface of an array without cudaArraySurfaceLoadStore: %s\n",
              cudaGetErrorName(cudaCreateSurfaceObject(&bad, &crd)));
  cudaGetLastError();
  // A cubemap of 4x4 faces, texel = face * 100 + y * 10 + x: directions along each axis and
  // between them, point and linear.
  {
    float cube[6][4][4];
    for (int f = 0; f < 6; ++f)
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) cube[f][y][x] = f * 100.f + y * 10.f + x;
    cudaArray_t ca;
    CHECK(cudaMalloc3DArray(&ca, &fdesc, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(cube, 4 * sizeof(float), 4, 4);
    cp.dstArray = ca;
    cp.extent = make_cudaExtent(4, 4, 6);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&cp));
    float4 dirs[20];
    for (int i = 0; i < 20; ++i) {
      const float a = 0.9f * (i % 7) - 2.6f, b = 0.55f * (i % 5) - 1.1f, c = (i % 3) - 1.f + 0.3f;
      dirs[i] = make_float4(i % 6 == 0 ? 1.f : a, i % 6 == 2 ? -1.f : b, i % 6 == 4 ? 1.f : c, 0);
    }
    float4* d_dirs = upload(dirs, 20);
    for (int filter = 0; filter < 2; ++filter) {
      cudaTextureObject_t t = make_texture(ca, (cudaTextureFilterMode)filter,
                                           cudaAddressModeClamp, true, cudaReadModeElementType);
      sample_cube<<<1, 32>>>(t, d_dirs, d_out, 20);
      float o[20];
      CHECK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
      std::printf("cubemap %s:", filter ? "linear" : "point");
      for (float v : o) std::printf(" %08x", bits(v));
      std::printf("\n");
      CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(ca));
    CHECK(cudaFree(d_dirs));
  }
  CHECK(cudaDestroySurfaceObject(so));
  CHECK(cudaFreeArray(copy));
  CHECK(cudaFreeArray(sfa));
  CHECK(cudaFreeArray(fa));
  CHECK(cudaFreeArray(ua));
  CHECK(cudaFreeArray(sa));
  CHECK(cudaFreeArray(ha));
  CHECK(cudaFreeArray(va));
  CHECK(cudaFreeArray(la));
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
