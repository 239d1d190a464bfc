#pragma once

// <immintrin.h> for the AVX-512 lanes of md (md/PairLanesAvx512.cpp, md/VerletLanesAvx512.cpp) where the compiler
// targets x86-64. GCC 12's AVX-512 intrinsics start their results from a deliberately undefined register (`__Y = __Y`),
// which -Wuninitialized reports at every use (GCC bug 105593): silenced for the including file, which must leave
// nothing of its own uninitialised. Include it from source files only.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif
