# Makes a CUDA-toolkit-shaped directory for the emulator, so that builds written for a CUDA
# toolkit (CMake's CUDA language and FindCUDAToolkit, Makefiles calling $(NVCC), CUDA_HOME) use
# it unchanged:
#   bin/nvcc, bin/cuemu-host-link   links to cuemu (driver/nvcc.h, driver/host_link.h)
#   include/                        the emulator's headers and CCCL's, as links
#   lib64/libcudart.so, libcudart_static.a, libcudadevrt.a
#                                   linker scripts naming the emulator's runtime (the plain one;
#                                   the host link puts the checking mode's in their place)
#   nvvm/libdevice/                 empty (CMake requires the directory; no NVIDIA bitcode)
#   version.json, version.txt       the CUDA version the emulator models
# Run as: cmake -DTOOLKIT=DIR -DCUEMU=FILE -DINCLUDE_DIR=DIR [-DCCCL_DIR=DIR] -DRUNTIME=FILE
#               -DBOOST_CONTEXT=FILE -DVERSION=13.0.88 -P make_toolkit.cmake
foreach(v TOOLKIT CUEMU INCLUDE_DIR RUNTIME BOOST_CONTEXT VERSION)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make_toolkit.cmake needs -D${v}=...")
  endif()
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
