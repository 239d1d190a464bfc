#include "analysis/StudentQuantile.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace granular::analysis {

double studentQuantile975(long nu)
{
    // nu = 1 ... 30
    static constexpr std::array<double, 30> kTable = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                                                      2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
                                                      2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                                                      2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
    if (nu < 1) {
        throw std::invalid_argument("studentQuantile975: nu < 1");
    }
    if (nu <= static_cast<long>(kTable.size())) {
        return kTable[static_cast<std::size_t>(nu - 1)];
    }
    // Cornish-Fisher: t = z + g1/nu + g2/nu^2 + g3/nu^3 (Abramowitz & Stegun 26.7.5).
    constexpr double z = 1.959963984540054;
    const double z2 = z * z;
    const double g1 = (z2 + 1.0) * z / 4.0;
    const double g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    const double g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    const auto v = static_cast<double>(nu);
    return z + g1 / v + g2 / (v * v) + g3 / (v * v * v);
}

}  // namespace granular::analysis
