// CUDA's execution-space and memory-space qualifiers, as the emulator spells them.
// Included by every public header. The translator (emulator/src/translate) sees the
// markers __cuemu_global__, __cuemu_shared__, __cuemu_host__, __cuemu_device__,
// __cuemu_constant__ and __cuemu_managed__ in the preprocessed source and rewrites them.
#pragma once

#ifndef __CUEMU__
#define __CUEMU__ 1
#endif

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

#if defined(__CUEMU_REGIONS_PARSE__)
// The region translator's parse with clang (emulator/src/regions): kernels and shared
// variables marked where its AST can see them.
#define __host__
#define __device__
#define __constant__
#define __managed__
#define __global__ __attribute__((annotate("cuemu_global")))
#define __shared__ __attribute__((annotate("cuemu_shared")))
// __noinline__ as a qualifier in the .cu itself (emulator/src/regions/main.cpp renames it).
#define __cuemu_ni__ __attribute__((noinline))
#elif defined(__CUEMU_TRANSLATE__)
// Preprocessing a .cu for translation: leave markers for the rewriter.
#define __host__ __cuemu_host__
#define __device__ __cuemu_device__
#define __constant__ __cuemu_constant__
#define __managed__ __cuemu_managed__
#define __global__ __cuemu_global__
#define __shared__ __cuemu_shared__
#else
#define __host__
#define __device__
#define __constant__
#define __managed__
// A plain .cpp compiled against the emulator's headers: no kernels are launched from it.
#define __global__
#define __shared__ static thread_local
#endif
#define __forceinline__ inline
// __noinline__ is left undefined on purpose: the translator turns it into
// __attribute__((noinline)) except where it already sits inside __attribute__((...)).
#if !defined(__CUEMU_REGIONS_PARSE__)
#define __cuemu_ni__ __noinline__  // the region translator's spelling of it (in its parse)
#endif
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __cluster_dims__(...)
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#ifndef __restrict__
#define __restrict__ __restrict
#endif
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
