# flags.cmake - compiler flags for the libFuzzer build (GPUPERF_FUZZ=ON).
#
# Included from the top-level CMakeLists.txt before any target is defined, so
# that the library, the plugins and the harnesses are all instrumented for
# coverage (-fsanitize=fuzzer-no-link) and checked by AddressSanitizer and
# UndefinedBehaviorSanitizer. Only a compiler that links -fsanitize=fuzzer
# (clang with its libFuzzer runtime) builds the harnesses; with another
# compiler the option only warns, and a normal build (the option OFF) is not
# affected at all. GP_FUZZ_ENABLED tells tests/fuzz/CMakeLists.txt.
include(CheckCSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
check_c_source_compiles("
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{ (void)data; (void)size; return 0; }" GP_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(GP_HAVE_LIBFUZZER)
  set(GP_FUZZ_ENABLED ON)
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
else()
  set(GP_FUZZ_ENABLED OFF)
  message(WARNING "GPUPERF_FUZZ=ON, but ${CMAKE_C_COMPILER_ID} cannot link -fsanitize=fuzzer: "
          "the libFuzzer harnesses are not built (configure with -DCMAKE_C_COMPILER=clang; "
          "Debian's clang and libclang-rt-14-dev provide libFuzzer). The corpus replay "
          "tests are built either way.")
endif()
