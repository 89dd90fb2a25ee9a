# Build options for CI's second build (scripts/setup --sanitize): AddressSanitizer + UndefinedBehaviorSanitizer over
# everything, and libFuzzer's coverage instrumentation for the fuzz targets.
option(HEADCOUNT_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(HEADCOUNT_FUZZ "Link the fuzz/ targets with libFuzzer (clang); otherwise they only replay inputs" OFF)

if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 19)
  # libstdc++ 12 declares std::expected only when __cpp_concepts >= 202002L. Clang 16 implements what it needs
  # (P0848, conditionally trivial special members) but reports 201907L until clang 19, so say so for it.
  add_compile_options(-D__cpp_concepts=202002L -Wno-macro-redefined)
endif()
if(HEADCOUNT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(HEADCOUNT_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
