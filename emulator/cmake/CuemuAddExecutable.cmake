# cuemu_add_executable(<name> SOURCES <files...>
#                      [INCLUDE_DIRECTORIES <dirs...>] [COMPILE_DEFINITIONS <defs...>]
#                      [LIBRARIES <libs...>] [STD c++17|c++20])
#
# Builds a CUDA program for the emulator: each .cu is compiled by `cuemu cc -c` (host and device
# passes, as nvcc does), the .cpp sources by the C++ compiler, and all is linked with the
# emulator's runtime.
# Works from this project (add_subdirectory) and after install (find_package(cuemu)).
function(cuemu_add_executable name)
  cmake_parse_arguments(ARG "" "STD" "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "cuemu_add_executable(${name}): no SOURCES given")
  endif()
  if(NOT ARG_STD)
    set(ARG_STD c++17)
  endif()
  if(TARGET cuemu)
    set(_cuemu $<TARGET_FILE:cuemu>)
  elseif(TARGET cuemu::cuemu)
    set(_cuemu $<TARGET_FILE:cuemu::cuemu>)
  else()
    message(FATAL_ERROR "cuemu_add_executable: the cuemu driver target is not defined")
  endif()

  set(_flags -std=${ARG_STD})
  foreach(_dir ${ARG_INCLUDE_DIRECTORIES})
    get_filename_component(_abs ${_dir} ABSOLUTE)
    list(APPEND _flags -I${_abs})
  endforeach()
  foreach(_def ${ARG_COMPILE_DEFINITIONS})
    list(APPEND _flags -D${_def})
  endforeach()

  # The C++ flags of the build type (-O2 -g -DNDEBUG ...): nvcc-like ones as they are, the rest
  # for the host compiler.
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
  separate_arguments(_cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_config}}")
  foreach(_f ${_cxx_flags})
    if(_f MATCHES "^-(O|g|D|U|I)")
      list(APPEND _flags ${_f})
    else()
      list(APPEND _flags -Xcompiler=${_f})
    endif()
  endforeach()

  # The region translator the driver runs (in the build tree): a new one rebuilds the programs.
  set(_regions)
  if(TARGET cuemu-regions)
    set(_regions $<TARGET_FILE:cuemu-regions>)
  endif()

  set(_sources)
  set(_outdir ${CMAKE_CURRENT_BINARY_DIR}/cuemu/${name})
  foreach(_src ${ARG_SOURCES})
    get_filename_component(_abs ${_src} ABSOLUTE)
    if(_abs MATCHES "\\.cu$")
      get_filename_component(_base ${_abs} NAME)
      set(_out ${_outdir}/${_base}.o)
      # `cuemu cc -c`: preprocessed for the host and device passes, translated and compiled as
      # nvcc would (one object, rebuilt when the .cu or any header it includes changes).
      add_custom_command(
        OUTPUT ${_out}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_outdir}
        COMMAND ${_cuemu} cc -c ${_flags} ${_abs} -o ${_out} -MD -MF ${_out}.d
        DEPENDS ${_abs} ${_cuemu} ${_regions}
        DEPFILE ${_out}.d
        COMMENT "cuemu: compiling ${_src}"
        VERBATIM)
      set_source_files_properties(${_out} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
      list(APPEND _sources ${_out})
    else()
      list(APPEND _sources ${_abs})
    endif()
  endforeach()

  add_executable(${name} ${_sources})
  set_target_properties(${name} PROPERTIES CXX_EXTENSIONS OFF)
  target_include_directories(${name} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  target_compile_definitions(${name} PRIVATE ${ARG_COMPILE_DEFINITIONS})
  if(TARGET cuemu_runtime)
    target_link_libraries(${name} PRIVATE cuemu_runtime ${ARG_LIBRARIES})
  else()
    target_link_libraries(${name} PRIVATE cuemu::runtime ${ARG_LIBRARIES})
  endif()
endfunction()
