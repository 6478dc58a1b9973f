# Makes a CUDA-toolkit-shaped directory for the emulator, so that builds written for a CUDA
# toolkit (CMake's CUDA language and FindCUDAToolkit, Makefiles calling $(NVCC), CUDA_HOME) use
# it unchanged:
#   bin/nvcc, bin/cuemu-host-link   links to cuemu (driver/nvcc.h, driver/host_link.h)
#   include/                        the emulator's headers and CCCL's, as links
#   lib64/libcudart.so, libcudart_static.a, libcudadevrt.a
#                                   linker scripts naming the emulator's runtime (the plain one;
#                                   the host link puts the checking mode's in their place)
#                                   and empty stand-ins for the libraries it does not emulate
#   nvvm/libdevice/                 empty (CMake requires the directory; no NVIDIA bitcode)
#   version.json, version.txt       the CUDA version the emulator models
# Run as: cmake -DTOOLKIT=DIR -DCUEMU=FILE -DINCLUDE_DIR=DIR [-DCCCL_DIR=DIR] -DRUNTIME=FILE
#               -DBOOST_CONTEXT=FILE -DVERSION=13.0.88 -P make_toolkit.cmake
foreach(v TOOLKIT CUEMU INCLUDE_DIR RUNTIME BOOST_CONTEXT VERSION)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make_toolkit.cmake needs -D${v}=...")
  endif()
endforeach()

foreach(v TOOLKIT CUEMU INCLUDE_DIR RUNTIME)
  get_filename_component(${v} "${${v}}" ABSOLUTE)
endforeach()

file(REMOVE_RECURSE "${TOOLKIT}/bin" "${TOOLKIT}/include" "${TOOLKIT}/lib64")
file(MAKE_DIRECTORY "${TOOLKIT}/bin" "${TOOLKIT}/include" "${TOOLKIT}/lib64" "${TOOLKIT}/nvvm/libdevice")

file(RELATIVE_PATH _cuemu "${TOOLKIT}/bin" "${CUEMU}")
foreach(_name nvcc cuemu-host-link)
  file(CREATE_LINK "${_cuemu}" "${TOOLKIT}/bin/${_name}" SYMBOLIC)
endforeach()

# Each entry of the header directories (the emulator's first: its names win).
foreach(_dir "${INCLUDE_DIR}" "${CCCL_DIR}")
  if(NOT _dir)
    continue()
  endif()
  file(GLOB _entries RELATIVE "${_dir}" "${_dir}/*")
  foreach(_e IN LISTS _entries)
    if(_e STREQUAL "cccl" OR EXISTS "${TOOLKIT}/include/${_e}" OR IS_SYMLINK "${TOOLKIT}/include/${_e}")
      continue()
    endif()
    file(RELATIVE_PATH _target "${TOOLKIT}/include" "${_dir}/${_e}")
    file(CREATE_LINK "${_target}" "${TOOLKIT}/include/${_e}" SYMBOLIC)
  endforeach()
endforeach()

set(_script "/* cuemu: the CUDA runtime of this toolkit is the emulator's (a GNU ld script). */\nINPUT(\"${RUNTIME}\" \"${BOOST_CONTEXT}\")\n")
foreach(_lib libcudart.so libcudart_static.a libcudadevrt.a)
  file(WRITE "${TOOLKIT}/lib64/${_lib}" "${_script}")
endforeach()

# The toolkit's other libraries are not emulated, but a build may link them (FindCUDAToolkit's
# CUDA::curand for cuRAND's device API, which is header-only): empty stand-ins here keep such a
# build from taking the machine's own toolkit. Their headers stop a build that uses them with
# "cuemu does not provide <...>"; a call without the header is an undefined reference.
set(_stand_ins cuda curand cublas cublasLt cufft cufftw cusolver cusparse nvrtc nvrtc-builtins nvJitLink
    nvToolsExt nvidia-ml nvjpeg cupti cuFile cuFile_rdma OpenCL nppc nppial nppicc nppidei nppif nppig
    nppim nppist nppisu nppitc npps)
foreach(_lib IN LISTS _stand_ins)
  file(WRITE "${TOOLKIT}/lib64/lib${_lib}.so" "/* cuemu: ${_lib} is not emulated (an empty stand-in, so that no other toolkit's is linked). */\n")
endforeach()
foreach(_lib curand_static cublas_static cublasLt_static cufft_static cufft_static_nocallback cufftw_static
             cusolver_static cusparse_static nvrtc_static nvrtc-builtins_static nvptxcompiler_static culibos
             cupti_static cuFile_static cuFile_rdma_static metis_static lapack_static nppc_static npps_static)
  file(WRITE "${TOOLKIT}/lib64/lib${_lib}.a" "/* cuemu: ${_lib} is not emulated (an empty stand-in, so that no other toolkit's is linked). */\n")
endforeach()
file(MAKE_DIRECTORY "${TOOLKIT}/lib64/stubs")
file(WRITE "${TOOLKIT}/lib64/stubs/libcuda.so" "/* cuemu: the driver API is not emulated (an empty stand-in). */\n")

file(WRITE "${TOOLKIT}/version.json"
"{
   \"cuda\" : {
      \"name\" : \"CUDA SDK (cuemu: the CUDA CPU emulator)\",
      \"version\" : \"${VERSION}\"
   },
   \"cuda_cudart\" : {
      \"name\" : \"CUDA Runtime (cuemu)\",
      \"version\" : \"${VERSION}\"
   },
   \"cuda_nvcc\" : {
      \"name\" : \"CUDA NVCC (cuemu)\",
      \"version\" : \"${VERSION}\"
   }
}
")
file(WRITE "${TOOLKIT}/version.txt" "CUDA Version ${VERSION} (cuemu: the CUDA CPU emulator)\n")
