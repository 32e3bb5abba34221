# CMake functions for HIP projects that compile their device code with
# clang-22 and the amdgpu-lds-barriers plugin (through utils/hip-compile.sh,
# so that the flags are the same as on the command line).
#
#   include(<checkout>/utils/cmake/AMDGPULDSBarriers.cmake)
#   amdgpu_lds_add_code_object(<name> ARCH <gfxNNN>
#                              [STRIP_BARRIERS] [ONE_D] [CHECK]
#                              SOURCES <file.hip>...)
#
# builds <name>.hsaco (a code object for <gfxNNN>: each file's device code
# as assembly, assembled and linked with ld.lld-22) as part of target <name>.
#   STRIP_BARRIERS  the pass replaces the sources' __syncthreads() barriers
#   ONE_D           assume one-dimensional workgroups (--1d)
#   CHECK           no placement: check the sources' own barriers with the
#                   verifier; a race or a skippable barrier fails the build
# AMDGPU_LDS_BARRIERS_BUILD_DIR (cache) is the plugin's build directory,
# by default <checkout>/build.
cmake_minimum_required(VERSION 3.20)

set(AMDGPU_LDS_BARRIERS_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.."
    CACHE PATH "amdgpu-lds-barriers checkout")
set(AMDGPU_LDS_BARRIERS_BUILD_DIR "${AMDGPU_LDS_BARRIERS_ROOT}/build"
    CACHE PATH "Build directory of the amdgpu-lds-barriers plugin")
find_program(AMDGPU_LDS_CLANG clang PATHS /usr/lib/llvm-22/bin NO_DEFAULT_PATH
             REQUIRED)
find_program(AMDGPU_LDS_LLD ld.lld PATHS /usr/lib/llvm-22/bin NO_DEFAULT_PATH
             REQUIRED)

function(amdgpu_lds_add_code_object name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STRIP_BARRIERS;ONE_D;CHECK" "ARCH"
                        "SOURCES")
  if(NOT ARG_ARCH OR NOT ARG_SOURCES)
    message(FATAL_ERROR "amdgpu_lds_add_code_object: ARCH and SOURCES needed")
  endif()
  set(mode)
  if(ARG_CHECK)
    list(APPEND mode --check)
  elseif(ARG_STRIP_BARRIERS)
    list(APPEND mode --strip-barriers)
  endif()
  if(ARG_ONE_D)
    list(APPEND mode --1d)
  endif()
  set(script "${AMDGPU_LDS_BARRIERS_ROOT}/utils/hip-compile.sh")
  set(plugin "${AMDGPU_LDS_BARRIERS_BUILD_DIR}/lib/AMDGPULDSBarriers.so")
  set(objects)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WE)
    set(asm "${CMAKE_CURRENT_BINARY_DIR}/${name}.${stem}.${ARG_ARCH}.s")
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/${name}.${stem}.${ARG_ARCH}.o")
    add_custom_command(
      OUTPUT "${asm}"
      COMMAND ${CMAKE_COMMAND} -E env
              "BUILD_DIR=${AMDGPU_LDS_BARRIERS_BUILD_DIR}"
              "${script}" --arch=${ARG_ARCH} ${mode} "${abs}" -o "${asm}"
      DEPENDS "${abs}" "${script}" "${plugin}"
      COMMENT "Compiling HIP device code ${src} for ${ARG_ARCH}"
      VERBATIM)
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND "${AMDGPU_LDS_CLANG}" -x assembler -target amdgcn-amd-amdhsa
              -mcpu=${ARG_ARCH} -c "${asm}" -o "${obj}"
      DEPENDS "${asm}"
      VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()
  add_custom_command(
    OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/${name}.hsaco"
    COMMAND "${AMDGPU_LDS_LLD}" -shared ${objects}
            -o "${CMAKE_CURRENT_BINARY_DIR}/${name}.hsaco"
    DEPENDS ${objects}
    COMMENT "Linking code object ${name}.hsaco"
    VERBATIM)
  add_custom_target(${name} ALL
                    DEPENDS "${CMAKE_CURRENT_BINARY_DIR}/${name}.hsaco")
endfunction()
