# NVIDIA's libdevice compiled for the CPU (cuemu/libdevice.h): device code's math library. The
# bitcode comes from a CUDA 13.0 toolkit or from the Python index (nvidia-nvvm 13.0.88, which
# run_checks.sh installs into its cache); it is never part of the source tree, and neither is
# anything built from it. Needs clang 14 and LLVM 14's tools (Debian: clang-14, llvm-14).
set(CUEMU_LIBDEVICE_VERSION 13.0.88)
set(CUEMU_LIBDEVICE "" CACHE FILEPATH "NVIDIA's libdevice.10.bc (CUDA 13.0)")
if(NOT CUEMU_LIBDEVICE)
  foreach(_candidate
      "$ENV{HOME}/.cache/cuemu/nvvm-${CUEMU_LIBDEVICE_VERSION}/nvidia/cu13/nvvm/libdevice/libdevice.10.bc"
      "$ENV{CUDA_HOME}/nvvm/libdevice/libdevice.10.bc"
      "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
    if(EXISTS "${_candidate}")
      set(CUEMU_LIBDEVICE "${_candidate}" CACHE FILEPATH "NVIDIA's libdevice.10.bc (CUDA 13.0)" FORCE)
      break()
    endif()
  endforeach()
endif()
if(NOT CUEMU_LIBDEVICE OR NOT EXISTS "${CUEMU_LIBDEVICE}")
  message(FATAL_ERROR
    "NVIDIA's libdevice (libdevice.10.bc, CUDA 13.0) was not found: the emulator computes device "
    "code's math functions with it. ./run_checks.sh installs it; or pass -DCUEMU_LIBDEVICE=PATH "
    "(a toolkit's nvvm/libdevice/libdevice.10.bc, or `pip download nvidia-nvvm==${CUEMU_LIBDEVICE_VERSION}` "
    "and take nvidia/cu13/nvvm/libdevice/libdevice.10.bc from the wheel)")
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_llvm_hints /usr/lib/llvm-14/bin)
foreach(_tool clang llvm-dis llvm-link)
  string(MAKE_C_IDENTIFIER "${_tool}" _var)
  find_program(CUEMU_LIBDEVICE_${_var} NAMES ${_tool}-14 ${_tool} HINTS ${_llvm_hints} NO_DEFAULT_PATH)
  find_program(CUEMU_LIBDEVICE_${_var} NAMES ${_tool}-14)
  if(NOT CUEMU_LIBDEVICE_${_var})
    message(FATAL_ERROR "${_tool} 14 not found (Debian: apt-get install clang-14 llvm-14): it builds libdevice for the CPU")
  endif()
endforeach()
get_filename_component(_llvm_bin "${CUEMU_LIBDEVICE_llvm_dis}" DIRECTORY)
set(_src ${CMAKE_CURRENT_LIST_DIR})
set(CUEMU_LIBDEVICE_OBJECT ${CMAKE_CURRENT_BINARY_DIR}/libdevice/libdevice_x86.o)
file(GLOB _sfu_tables CONFIGURE_DEPENDS ${_src}/sfu/*.xz)
add_custom_command(
  OUTPUT ${CUEMU_LIBDEVICE_OBJECT}
  COMMAND ${Python3_EXECUTABLE} ${_src}/build.py --libdevice ${CUEMU_LIBDEVICE}
          --clang ${CUEMU_LIBDEVICE_clang} --llvm-dis ${CUEMU_LIBDEVICE_llvm_dis}
          --llvm-link ${CUEMU_LIBDEVICE_llvm_link} --objcopy ${CMAKE_OBJCOPY} --nm ${CMAKE_NM}
          --out ${CUEMU_LIBDEVICE_OBJECT}
  DEPENDS ${_src}/build.py ${_src}/rewrite.py ${_src}/contract.py ${_src}/variants.py ${_src}/shim.c ${_src}/sfu.c ${_src}/bits.h
          ${_src}/sfu_model.h ${_src}/sfu_fit.c
          ${_src}/shim_asm.ll
          ${_sfu_tables} ${CUEMU_LIBDEVICE}
  COMMENT "libdevice for the CPU (${CUEMU_LIBDEVICE})" VERBATIM)
set_source_files_properties(${CUEMU_LIBDEVICE_OBJECT} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
# One target runs the command; the runtime libraries that archive the object depend on it.
add_custom_target(cuemu_libdevice DEPENDS ${CUEMU_LIBDEVICE_OBJECT})
