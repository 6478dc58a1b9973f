# cuemu_add_executable(<name> SOURCES <files...>
#                      [INCLUDE_DIRECTORIES <dirs...>] [COMPILE_DEFINITIONS <defs...>]
#                      [LIBRARIES <libs...>] [STD c++17|c++20])
#
# Builds a CUDA program for the emulator: each .cu is preprocessed and translated by
# `cuemu translate` (rebuilt when the .cu or any header it includes changes), then compiled with
# the C++ compiler like the .cpp sources, and linked with the emulator's runtime.
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

  set(_sources)
  set(_outdir ${CMAKE_CURRENT_BINARY_DIR}/cuemu/${name})
  foreach(_src ${ARG_SOURCES})
    get_filename_component(_abs ${_src} ABSOLUTE)
    if(_abs MATCHES "\\.cu$")
      get_filename_component(_base ${_abs} NAME)
      set(_out ${_outdir}/${_base}.cpp)
      add_custom_command(
        OUTPUT ${_out}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_outdir}
        COMMAND ${_cuemu} translate ${_flags} ${_abs} -o ${_out} --depfile ${_out}.d
        DEPENDS ${_abs} ${_cuemu}
        DEPFILE ${_out}.d
        COMMENT "cuemu: translating ${_src}"
        VERBATIM)
      # Already preprocessed: compile as is, so line markers keep pointing at the .cu file.
      set_source_files_properties(${_out} PROPERTIES COMPILE_OPTIONS "-fpreprocessed")
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
