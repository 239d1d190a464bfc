# CI's sanitizer job (scripts/test.sh): AddressSanitizer + UndefinedBehaviorSanitizer, float-cast-overflow
# included (not part of -fsanitize=undefined), every finding fatal. With GRANULAR_FUZZ the loaders' sources also
# carry libFuzzer's coverage instrumentation (granular_fuzz_instrument), so that the fuzz targets (tests/fuzz)
# are guided by it; the solvers' hot loops stay without it. Line tables (-gline-tables-only) are all the reports'
# file:line stack traces need; full debug information made every compilation ~10 % slower.
if(GRANULAR_SANITIZE OR GRANULAR_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GRANULAR_SANITIZE and GRANULAR_FUZZ need clang (CXX=clang++ CC=clang)")
  endif()
  set(granular_sanitizers -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
                          -fno-omit-frame-pointer)
  add_compile_options(${granular_sanitizers} -gline-tables-only)
  add_link_options(${granular_sanitizers})
  add_compile_definitions(GRANULAR_SANITIZERS=1)
endif()

# granular_fuzz_instrument(<sources>...): sources of the current directory's targets that the fuzz targets reach.
function(granular_fuzz_instrument)
  if(GRANULAR_FUZZ)
    set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS -fsanitize=fuzzer-no-link)
  endif()
endfunction()
