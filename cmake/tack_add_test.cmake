# SPDX-License-Identifier: BSD-3-Clause
# Test helpers: one GoogleTest executable per test file, compile-fail checks, and backend labels.

set(tack_test_warnings -Wall -Wextra -Wpedantic)
if(TACK_WARNINGS_AS_ERRORS)
  list(APPEND tack_test_warnings -Werror)
endif()

# Host tests check behaviour, not speed: in optimized builds they are compiled at -O1, which halves
# their compile time (most of `make test`). The typed backend tests keep the build type's level
# (-O3 in Release), so kernels, views and their aliasing are tested as optimized code; the library,
# benchmarks and examples keep it too. Empty keeps the build type's level for every test.
set(TACK_HOST_TEST_OPTIMIZATION "-O1" CACHE STRING
    "Optimization flag of host (non-backend) test programs in Release/RelWithDebInfo builds; empty: the build type's")

# tack_host_test_options(<target>): the warnings and the optimization level of a host test program.
function(tack_host_test_options target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${tack_test_warnings}>)
  if(TACK_HOST_TEST_OPTIMIZATION AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${TACK_HOST_TEST_OPTIMIZATION}>)
  endif()
endfunction()

# tack_add_test(<name> SOURCES <files...> [BACKENDS] [LABELS <labels...>] [LIBS <libs...>])
#   BACKENDS marks a typed test over the serial/openmp/GPU backends: in a CUDA build its sources are
#   compiled by nvcc and it is labelled `cuda`, in a HIP build by hipcc (for
#   CMAKE_HIP_ARCHITECTURES) and labelled `hip`, so code that would not compile for the GPU fails
#   the build. A build with
#   TACK_TESTS_GPU_ONLY adds only these tests.
function(tack_add_test name)
  cmake_parse_arguments(arg "BACKENDS" "" "SOURCES;LABELS;LIBS" ${ARGN})
  if(TACK_TESTS_GPU_ONLY AND NOT arg_BACKENDS)
    return()
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE tack::tack GTest::gtest GTest::gtest_main ${arg_LIBS})
  # Shared test support: tests include "common/tack_test.hpp".
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  if(arg_BACKENDS)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${tack_test_warnings}>)
  else()
    tack_host_test_options(${name})
  endif()
  set(labels ${arg_LABELS})
  if(arg_BACKENDS)
    list(APPEND labels backends)
    if(TACK_HAS_CUDA)
      set_source_files_properties(${arg_SOURCES} PROPERTIES LANGUAGE CUDA)
      target_compile_options(${name} PRIVATE
        $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --extended-lambda --expt-relaxed-constexpr>)
      list(APPEND labels cuda)
    elseif(TACK_HAS_HIP)
      set_source_files_properties(${arg_SOURCES} PROPERTIES LANGUAGE HIP)
      target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:${tack_test_warnings}>)
      list(APPEND labels hip)
    endif()
  endif()
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 600)
endfunction()

# tack_add_compile_fail_test(<name> SOURCE <file> CASE <n> EXPECT <regex>)
#   Compiles <file> with -DTACK_COMPILE_FAIL_CASE=<n>; the test passes when compilation fails and the
#   compiler output matches <regex> (our static_assert message). Case 0 of each file must compile,
#   which proves the failures come from the misuse and not from a broken file.
function(tack_add_compile_fail_test name)
  cmake_parse_arguments(arg "" "SOURCE;CASE;EXPECT" "" ${ARGN})
  set(cmd ${CMAKE_CXX_COMPILER} -std=c++20 -fsyntax-only
      -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_BINARY_DIR}/include
      -DTACK_COMPILE_FAIL_CASE=${arg_CASE} ${arg_SOURCE})
  add_test(NAME ${name} COMMAND ${cmd})
  if(arg_CASE EQUAL 0)
    set_tests_properties(${name} PROPERTIES LABELS compile_fail)
  else()
    set_tests_properties(${name} PROPERTIES LABELS compile_fail WILL_FAIL OFF
                         PASS_REGULAR_EXPRESSION "${arg_EXPECT}")
  endif()
endfunction()

# tack_add_tests_in_directory(<area>)
#   Adds every test of the calling directory by file name, so that adding a test adds no CMake line:
#     <name>_test.cpp           a host test (GoogleTest)
#     <name>_backend_test.cpp   a typed test over every backend (compiled by nvcc in CUDA builds,
#                               by hipcc in HIP builds)
#     <name>_tsan_test.cpp      a host test that also runs under ThreadSanitizer (`make test-sanitize`)
#   Each test is labelled with <area>.
function(tack_add_tests_in_directory area)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
  foreach(src ${sources})
    get_filename_component(stem ${src} NAME_WE)
    set(labels ${area})
    if(stem MATCHES "_tsan_test$")
      list(APPEND labels tsan)
    endif()
    if(stem MATCHES "_backend_test$")
      tack_add_test(${area}_${stem} SOURCES ${src} BACKENDS LABELS ${labels})
    else()
      tack_add_test(${area}_${stem} SOURCES ${src} LABELS ${labels})
    endif()
  endforeach()
endfunction()
