// The rounding modes of CUDA's device_types.h.
#pragma once
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
