// Device buffers that free themselves, shared by the tests written as CUDA programs.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <vector>

template <class T>
struct device_buffer {
  T* ptr = nullptr;
  size_t n = 0;
  explicit device_buffer(size_t count) : n(count) {
    EXPECT_EQ(cudaMalloc(&ptr, count * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemset(ptr, 0, count * sizeof(T)), cudaSuccess);
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    EXPECT_EQ(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~device_buffer() { cudaFree(ptr); }
  std::vector<T> to_host() const {
    std::vector<T> h(n);
    EXPECT_EQ(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
};
