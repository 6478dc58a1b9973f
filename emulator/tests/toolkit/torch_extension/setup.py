"""PyTorch's cpp_extension (CUDAExtension + BuildExtension) building a CUDA extension with
CUDA_HOME set to the emulator's toolkit:
    CUDA_HOME=<toolkit> TORCH_CUDA_ARCH_LIST=9.0 python setup.py build_ext --build-lib OUT --build-temp TMP
Not part of ctest (PyTorch is not installed by the set-up); run on a machine with PyTorch."""
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="cuemu_square_sum",
    ext_modules=[CUDAExtension("cuemu_square_sum", ["square_sum.cpp", "square_sum_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
