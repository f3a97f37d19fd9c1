# SPDX-License-Identifier: BSD-3-Clause
# The HIP language for tack and for projects that use tack's HIP backend (tackConfig.cmake includes
# this file in a HIP build of tack): `tack_find_hipcc(<var>)` and `tack_enable_hip_language()`.
#
# CMake's HIP language wants clang and a ROCm tree laid out as AMD's packages lay it out. Debian's
# ROCm (hipcc 5.2, clang 15) differs in ways that tack_enable_hip_language() bridges, so that
# `make test` builds with the Debian packages alone:
#  - the HIP compiler is `clang++-15` (hipcc's clang), not the default `clang++` (14, no HIP);
#  - CMake 3.25 looks for <root>/lib/cmake/hip-lang, Debian installs it under lib/<arch>/, and
#    declares /usr/include as the HIP headers' folder: a ROCm root in the build tree holds a
#    hip-lang package that forwards to Debian's and drops that folder (as -isystem it would come
#    before libstdc++'s headers and break their `#include_next <math.h>`);
#  - clang needs --rocm-path, --hip-version and --hip-device-lib-path, which hipcc passes for it
#    (without --hip-version clang takes the HIP as 3.5 and pre-includes no runtime wrapper).
# And one compiler bug: clang 15 crashes in HIP's device pass on C++20 with libstdc++ 12 (the
# implicit copy assignment of a class holding a std::pair of a non-trivially copyable type:
# libstdc++ 12's constrained pair; llvm-project#62017, kokkos#5737, AdaptiveCpp#801). Where a probe
# compilation fails, HIP sources compile against libstdc++ 11's headers (Debian's
# libstdc++-11-dev), whose pair has no constraints; its ABI is the library's (libstdc++.so.6). The
# flags are HIP-only interface options of tack::tack, so consumers' HIP sources get them too.
#
# Cache variables a user may set instead: CMAKE_HIP_COMPILER, CMAKE_HIP_COMPILER_ROCM_ROOT,
# CMAKE_HIP_ARCHITECTURES (default gfx90a), TACK_HIP_STDCXX_FLAGS.

# tack_find_hipcc(<var>): the path of hipcc, or <var>-NOTFOUND.
function(tack_find_hipcc var)
  find_program(TACK_HIPCC hipcc HINTS $ENV{ROCM_PATH}/bin /opt/rocm/bin)
  set(${var} ${TACK_HIPCC} PARENT_SCOPE)
endfunction()

# tack_enable_hip_language(): enable_language(HIP) with the bridges above. A macro: enable_language
# must run in the caller's directory scope.
macro(tack_enable_hip_language)
  if(NOT CMAKE_HIP_COMPILER_LOADED)
    tack_find_hipcc(tack_hipcc)
    # hipcc's clang: `HIPCC_VERBOSE=1 hipcc --version` prints the command it runs.
    if(NOT CMAKE_HIP_COMPILER AND tack_hipcc)
      execute_process(COMMAND ${CMAKE_COMMAND} -E env HIPCC_VERBOSE=1 ${tack_hipcc} --version
                      OUTPUT_VARIABLE tack_hipcc_out ERROR_VARIABLE tack_hipcc_out)
      if(tack_hipcc_out MATCHES "hipcc-cmd: *([^ \n]+)")
        set(CMAKE_HIP_COMPILER ${CMAKE_MATCH_1} CACHE FILEPATH "HIP compiler (hipcc's clang)")
      endif()
    endif()
    if(NOT CMAKE_HIP_COMPILER_ROCM_ROOT)
      set(tack_rocm_root /opt/rocm)
      if(tack_hipcc)
        get_filename_component(tack_hip_bin ${tack_hipcc} DIRECTORY)
        execute_process(COMMAND ${tack_hip_bin}/hipconfig --rocmpath OUTPUT_VARIABLE tack_rocm_root
                        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      endif()
      if(NOT EXISTS "${tack_rocm_root}/lib/cmake/hip-lang/hip-lang-config.cmake"
         AND EXISTS "${tack_rocm_root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang")
        # Debian's layout: a ROCm root in the build tree whose hip-lang package forwards to
        # Debian's, then drops the /usr/include it declares as the HIP headers' folder: as a
        # -isystem folder it would come before libstdc++'s and break libstdc++'s
        # `#include_next <math.h>` (clang finds the HIP headers there anyway).
        set(tack_fake_root ${CMAKE_BINARY_DIR}/tack-rocm-root)
        set(tack_real_hip_lang "${tack_rocm_root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang")
        file(WRITE ${tack_fake_root}/lib/cmake/hip-lang/hip-lang-config-version.cmake
             "include(\"${tack_real_hip_lang}/hip-lang-config-version.cmake\")\n")
        file(WRITE ${tack_fake_root}/lib/cmake/hip-lang/hip-lang-config.cmake
             "# Written by tack (cmake/tack_hip.cmake): Debian's hip-lang without /usr/include.\n"
             "include(\"${tack_real_hip_lang}/hip-lang-config.cmake\")\n"
             "set_property(TARGET hip-lang::device PROPERTY INTERFACE_INCLUDE_DIRECTORIES \"\")\n"
             "set_property(TARGET hip-lang::device\n"
             "             PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES \"\")\n")
        set(CMAKE_HIP_COMPILER_ROCM_ROOT ${tack_fake_root} CACHE PATH "ROCm root for CMake's HIP")
        # hip-lang's config finds amd_comgr, which CMake's compiler checks (try_compile projects
        # without CMAKE_LIBRARY_ARCHITECTURE) would not find under lib/<arch>/cmake.
        set(amd_comgr_DIR "${tack_rocm_root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/amd_comgr"
            CACHE PATH "")
        list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES amd_comgr_DIR)
        # Without --hip-version clang takes Debian's HIP for 3.5 and pre-includes no HIP runtime
        # wrapper (no __host__ / __device__ without <hip/hip_runtime.h>).
        set(tack_bitcode "${tack_rocm_root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode")
        execute_process(COMMAND ${tack_hip_bin}/hipconfig --version OUTPUT_VARIABLE tack_hip_version
                        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" tack_hip_version "${tack_hip_version}")
        if(EXISTS ${tack_bitcode} AND tack_hip_version AND NOT CMAKE_HIP_FLAGS MATCHES "rocm-path")
          string(APPEND CMAKE_HIP_FLAGS " --rocm-path=${tack_rocm_root}"
                 " --hip-version=${tack_hip_version} --hip-device-lib-path=${tack_bitcode}")
          set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS}" CACHE STRING "Flags of the HIP compiler" FORCE)
        endif()
      else()
        set(CMAKE_HIP_COMPILER_ROCM_ROOT ${tack_rocm_root} CACHE PATH "ROCm root for CMake's HIP")
      endif()
    endif()
    if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
      # A build machine has no GPU to ask (rocm_agent_enumerator): MI200 by default.
      set(CMAKE_HIP_ARCHITECTURES gfx90a CACHE STRING "AMD GPU architectures of the HIP code")
    endif()
    enable_language(HIP)
  endif()
  if(NOT DEFINED TACK_HIP_STDCXX_FLAGS)
    # Does this HIP compiler survive libstdc++'s C++20 std::pair (see above)? If not, do libstdc++
    # 11's headers help? clang's resource folder first, as hipcc passes it: HIP's runtime headers
    # include its include/cuda_wrappers/*, whose #include_next must find libstdc++ after it.
    # -isystem joined to its folder: target_compile_options drops repeated options.
    execute_process(COMMAND ${CMAKE_HIP_COMPILER} -print-resource-dir
                    OUTPUT_VARIABLE tack_resource_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(tack_stdcxx11_flags -nostdinc++ -isystem${tack_resource_dir} -isystem/usr/include/c++/11
        -isystem/usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/c++/11
        -isystem/usr/include/c++/11/backward)
    set(tack_probe_dir ${CMAKE_BINARY_DIR}/CMakeFiles/tack_hip_pair_probe)
    file(WRITE ${tack_probe_dir}/probe.hip
         "#include <hip/hip_runtime.h>\n#include <utility>\n"
         "struct y { y(); y(const y&); y& operator=(const y&); };\n"
         "struct holder { std::pair<int, y> p; };\n"
         "__global__ void probe_kernel(int* p) { *p = sizeof(holder); }\n")
    set(tack_saved_target_type ${CMAKE_TRY_COMPILE_TARGET_TYPE})
    set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
    try_compile(tack_pair_ok ${tack_probe_dir}/default SOURCES ${tack_probe_dir}/probe.hip
                CMAKE_FLAGS -DCMAKE_HIP_ARCHITECTURES=${CMAKE_HIP_ARCHITECTURES}
                COMPILE_DEFINITIONS -std=c++20 OUTPUT_VARIABLE tack_probe_out)
    set(tack_stdcxx_flags "")
    if(NOT tack_pair_ok)
      try_compile(tack_pair11_ok ${tack_probe_dir}/stdcxx11 SOURCES ${tack_probe_dir}/probe.hip
                  CMAKE_FLAGS -DCMAKE_HIP_ARCHITECTURES=${CMAKE_HIP_ARCHITECTURES}
                  COMPILE_DEFINITIONS -std=c++20 ${tack_stdcxx11_flags}
                  OUTPUT_VARIABLE tack_probe11_out)
      if(NOT tack_pair11_ok)
        message(FATAL_ERROR "tack: the HIP compiler ${CMAKE_HIP_COMPILER} cannot compile a C++20 "
                            "std::pair in device code, with libstdc++'s default headers nor "
                            "with libstdc++ 11's (clang 15 crashes on libstdc++ 12's: "
                            "llvm-project#62017; Debian: apt-get install libstdc++-11-dev), or "
                            "set TACK_HIP_STDCXX_FLAGS."
                            "\nWith the default headers:\n${tack_probe_out}"
                            "\nWith libstdc++ 11's:\n${tack_probe11_out}")
      endif()
      set(tack_stdcxx_flags ${tack_stdcxx11_flags})
      message(STATUS "tack: HIP sources compile against libstdc++ 11's headers "
                     "(${CMAKE_HIP_COMPILER} fails on libstdc++'s default C++20 std::pair in "
                     "HIP's device pass)")
    endif()
    set(CMAKE_TRY_COMPILE_TARGET_TYPE ${tack_saved_target_type})
    set(TACK_HIP_STDCXX_FLAGS "${tack_stdcxx_flags}" CACHE STRING
        "Flags that pick the C++ standard library headers of HIP sources")
  endif()
endmacro()
