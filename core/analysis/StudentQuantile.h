#pragma once

namespace granular::analysis {

/// t_{0.975, nu}: the two-sided 95 % quantile of Student's t distribution with `nu` >= 1 degrees of freedom, so that
/// mean +- t s / sqrt(n) (nu = n - 1) covers the true mean of a normal quantity in 95 % of ensembles. Tabulated to
/// nu = 30 (four decimals, as in the standard tables), beyond by the Cornish-Fisher expansion about the normal
/// quantile 1.959964 (within 1e-4 there). Throws std::invalid_argument for nu < 1.
[[nodiscard]] double studentQuantile975(long nu);

}  // namespace granular::analysis
