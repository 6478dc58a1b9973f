// The extension's Python binding: square_sum(n) = sum of i*i for i < n, computed by a kernel.
#include <torch/extension.h>

int64_t square_sum(int64_t n);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("square_sum", &square_sum, "sum of squares below n"); }
