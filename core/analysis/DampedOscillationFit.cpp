#include "analysis/DampedOscillationFit.h"

// Eigen, unsupported modules included, comes in through the imported target as a SYSTEM include:
// its old-style casts and shadowing do not trip the project's warnings-as-errors.
#include <Eigen/Dense>
#include <unsupported/Eigen/NonLinearOptimization>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace granular::analysis {

namespace {

constexpr double kPi = std::numbers::pi;
/// The smallest squared amplitude a^2 + b^2 of the normalized signal that the amplitude's error divides by (order 1
/// where there is an oscillation; 0 would divide by zero).
constexpr double kSmallestSquaredAmplitude = 1e-300;

// The fit works on s = (t - t_first)/(t_last - t_first) in [0, 1] and y = (x - mean)/spread, with
// y(s) = c + exp(-l s) (a sin(w s) + b cos(w s)). This form is linear in c, a, b (no amplitude sign
// or phase wrap for the optimiser to cross) and its parameters are of order one whatever the units.
struct Normalized {
    Eigen::VectorXd s;
    Eigen::VectorXd y;
};

/// c, a, b, l, w of the normalized model.
using Parameters = Eigen::Matrix<double, 5, 1>;

/// exp(-l s) sin(w s) and exp(-l s) cos(w s): the columns that multiply a and b.
struct Oscillation {
    Eigen::ArrayXd sine;
    Eigen::ArrayXd cosine;
};

Oscillation oscillation(const Eigen::VectorXd& s, double l, double w)
{
    const Eigen::ArrayXd envelope = (-l * s.array()).exp();
    return {envelope * (w * s.array()).sin(), envelope * (w * s.array()).cos()};
}

/// c, a, b by linear least squares for given l and w, and the sum of squared residuals.
struct LinearPart {
    Eigen::Vector3d cab;
    double squaredResidual = 0.0;
};

LinearPart solveLinearPart(const Eigen::VectorXd& s, const Eigen::VectorXd& y, double l, double w)
{
    const Oscillation o = oscillation(s, l, w);
    Eigen::MatrixXd design(s.size(), 3);
    design.col(0).setOnes();
    design.col(1) = o.sine.matrix();
    design.col(2) = o.cosine.matrix();
    LinearPart part;
    part.cab = design.colPivHouseholderQr().solve(y);
    part.squaredResidual = (design * part.cab - y).squaredNorm();
    return part;
}

Parameters startingPoint(const Normalized& data, double l, double w)
{
    const LinearPart part = solveLinearPart(data.s, data.y, l, w);
    Parameters p;
    p << part.cab, l, w;
    return p;
}

/// Residuals model - y and their Jacobian for Eigen's Levenberg-Marquardt.
struct Residuals {
    const Normalized& data;

    [[nodiscard]] Eigen::Index values() const { return data.s.size(); }

    int operator()(const Eigen::VectorXd& p, Eigen::VectorXd& r) const
    {
        const Oscillation o = oscillation(data.s, p[3], p[4]);
        r = (p[0] + p[1] * o.sine + p[2] * o.cosine).matrix() - data.y;
        return 0;
    }

    int df(const Eigen::VectorXd& p, Eigen::MatrixXd& jacobian) const
    {
        const Oscillation o = oscillation(data.s, p[3], p[4]);
        const Eigen::ArrayXd s = data.s.array();
        jacobian.col(0).setOnes();
        jacobian.col(1) = o.sine.matrix();
        jacobian.col(2) = o.cosine.matrix();
        jacobian.col(3) = (-s * (p[1] * o.sine + p[2] * o.cosine)).matrix();
        jacobian.col(4) = (s * (p[1] * o.cosine - p[2] * o.sine)).matrix();
        return 0;
    }
};

struct Attempt {
    Parameters p;
    double squaredResidual = std::numeric_limits<double>::infinity();
    int iterations = 0;
    bool converged = false;
};

Attempt refine(const Normalized& data, const Parameters& start)
{
    Residuals residuals{data};
    Eigen::LevenbergMarquardt<Residuals> lm(residuals);
    // Tighter than the defaults (sqrt(eps) ~ 1.5e-8) so that noise-free data give the parameters to ~1e-10.
    lm.parameters.ftol = 1e-13;
    lm.parameters.xtol = 1e-11;
    lm.parameters.maxfev = 1000;
    Eigen::VectorXd p = start;
    const auto status = lm.minimize(p);
    Attempt attempt;
    attempt.p = p;
    attempt.iterations = static_cast<int>(lm.iter);
    // The "tolerance too small" statuses mean no further progress is possible at double precision:
    // the optimum is reached (typical for noise-free data), not a failure.
    using namespace Eigen::LevenbergMarquardtSpace;
    attempt.converged = status != ImproperInputParameters && status != TooManyFunctionEvaluation && p.allFinite();
    Eigen::VectorXd r;
    residuals(p, r);
    attempt.squaredResidual = p.allFinite() ? r.squaredNorm() : std::numeric_limits<double>::infinity();
    return attempt;
}

/// The covariance of c, a, b, l, w at the optimum p: s^2 (J^T J)^-1 with s^2 = SS_res / (n - 5) the residual variance
/// (the asymptotic covariance of nonlinear least squares, e.g. Seber & Wild 1989, sec. 2.1); nullopt where J^T J is
/// singular (a parameter that the data do not determine).
std::optional<Eigen::Matrix<double, 5, 5>> parameterCovariance(const Normalized& data, const Parameters& p,
                                                               double squaredResidual)
{
    const Residuals residuals{data};
    Eigen::MatrixXd jacobian(data.s.size(), 5);
    residuals.df(p, jacobian);
    const Eigen::Matrix<double, 5, 5> normal = jacobian.transpose() * jacobian;
    const Eigen::FullPivLU<Eigen::Matrix<double, 5, 5>> lu(normal);
    if (!lu.isInvertible()) {
        return std::nullopt;
    }
    return (squaredResidual / static_cast<double>(data.s.size() - 5)) * lu.inverse();
}

/// The fit's standard errors in the samples' units from the covariance of the normalized parameters (x = mean + spread
/// y, t = start + duration s): x0 = spread c, A(start) = spread sqrt(a^2 + b^2) by the delta method, tau = duration /
/// l, omega = w / duration. +inf without a covariance.
void setStandardErrors(DampedOscillationFit& fit, const std::optional<Eigen::Matrix<double, 5, 5>>& covariance,
                       const Parameters& p, double spread, double duration)
{
    constexpr double kUnknown = std::numeric_limits<double>::infinity();
    if (!covariance) {
        fit.x0Error = fit.amplitudeAtStartError = fit.tauError = fit.omegaError = kUnknown;
        return;
    }
    const Eigen::Matrix<double, 5, 5>& c = *covariance;
    const double a = p[1];
    const double b = p[2];
    const double l = p[3];
    const double amplitudeVariance = (a * a * c(1, 1) + 2.0 * a * b * c(1, 2) + b * b * c(2, 2)) /
                                     std::max(a * a + b * b, kSmallestSquaredAmplitude);
    fit.x0Error = spread * std::sqrt(c(0, 0));
    fit.amplitudeAtStartError = spread * std::sqrt(std::max(amplitudeVariance, 0.0));
    fit.tauError = duration * std::sqrt(c(3, 3)) / (l * l);
    fit.omegaError = std::sqrt(c(4, 4)) / duration;
}

/// Zero crossings of y - c, counted with hysteresis so that noise around the baseline in a decayed
/// tail does not add crossings: a crossing counts once the signal has gone beyond +-threshold on
/// the other side, and is placed where it last changed sign, by linear interpolation.
std::vector<double> zeroCrossings(const Normalized& data, double c, double threshold)
{
    std::vector<double> crossings;
    const Eigen::Index n = data.s.size();
    int side = std::fabs(data.y[0] - c) > threshold ? (data.y[0] > c ? 1 : -1) : 0;
    double lastSignChange = std::numeric_limits<double>::quiet_NaN();
    for (Eigen::Index i = 1; i < n; ++i) {
        const double before = data.y[i - 1] - c;
        const double now = data.y[i] - c;
        if ((before < 0.0) != (now < 0.0)) {
            lastSignChange = data.s[i - 1] + (data.s[i] - data.s[i - 1]) * before / (before - now);
        }
        if (std::fabs(now) > threshold) {
            const int nowSide = now > 0.0 ? 1 : -1;
            if (side != 0 && nowSide != side) {
                crossings.push_back(lastSignChange);
            }
            side = nowSide;
        }
    }
    return crossings;
}

/// Decay rate l from the largest |y - c| of each complete half cycle: log(peak) falls as -l s.
/// NaN with fewer than two half cycles.
double envelopeDecayRate(const Normalized& data, double c, const std::vector<double>& crossings)
{
    std::vector<double> times;
    std::vector<double> logPeaks;
    Eigen::Index i = 0;
    for (std::size_t k = 0; k + 1 < crossings.size(); ++k) {
        double peak = 0.0;
        double peakTime = crossings[k];
        for (; i < data.s.size() && data.s[i] <= crossings[k + 1]; ++i) {
            if (data.s[i] >= crossings[k] && std::fabs(data.y[i] - c) > peak) {
                peak = std::fabs(data.y[i] - c);
                peakTime = data.s[i];
            }
        }
        if (peak > 0.0) {
            times.push_back(peakTime);
            logPeaks.push_back(std::log(peak));
        }
    }
    if (times.size() < 2) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    const auto count = static_cast<double>(times.size());
    double meanTime = 0.0;
    double meanLog = 0.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
        meanTime += times[k] / count;
        meanLog += logPeaks[k] / count;
    }
    double covariance = 0.0;
    double variance = 0.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
        covariance += (times[k] - meanTime) * (logPeaks[k] - meanLog);
        variance += (times[k] - meanTime) * (times[k] - meanTime);
    }
    return variance > 0.0 ? -covariance / variance : std::numeric_limits<double>::quiet_NaN();
}

/// Start from zero crossings (w) and the peak envelope (l), with the baseline c first taken as the
/// mean and then from the linear fit at that w and l, since a mean over a non-integer number of
/// periods is off. Empty when there are too few crossings to measure a period.
std::optional<Parameters> crossingStart(const Normalized& data)
{
    // A decay rate of 1 (the window lasts one damping time) when the envelope cannot be measured.
    constexpr double kDefaultDecay = 1.0;
    double c = 0.0;  // the mean of y
    std::optional<Parameters> start;
    for (int pass = 0; pass < 2; ++pass) {
        const double threshold = 0.1 * (data.y.array() - c).abs().maxCoeff();
        const std::vector<double> crossings = zeroCrossings(data, c, threshold);
        if (crossings.size() < 2) {
            return start;
        }
        const double w = kPi * static_cast<double>(crossings.size() - 1) / (crossings.back() - crossings.front());
        const double decay = envelopeDecayRate(data, c, crossings);
        start = startingPoint(data, std::isfinite(decay) ? decay : kDefaultDecay, w);
        c = (*start)[0];
    }
    return start;
}

/// Starts from a coarse damped periodogram: on a grid of w and l, the residual of the linear fit
/// of c, a, b; the best few grid points with distinct w. Evaluated on at most ~512 samples.
std::vector<Parameters> periodogramStarts(const Normalized& data)
{
    constexpr Eigen::Index kMaxGridSamples = 512;
    constexpr double kStep = kPi / 2.0;  // a quarter period of drift over the window: inside the basin
    constexpr int kStarts = 3;
    const Eigen::Index n = data.s.size();
    const Eigen::Index stride = (n + kMaxGridSamples - 1) / kMaxGridSamples;
    const Eigen::Index m = (n + stride - 1) / stride;
    Normalized coarse{Eigen::VectorXd(m), Eigen::VectorXd(m)};
    for (Eigen::Index i = 0; i < m; ++i) {
        coarse.s[i] = data.s[i * stride];
        coarse.y[i] = data.y[i * stride];
    }
    // Nyquist frequency of the coarse samples, from their median spacing (times may be uneven).
    std::vector<double> spacing(static_cast<std::size_t>(m - 1));
    for (Eigen::Index i = 1; i < m; ++i) {
        spacing[static_cast<std::size_t>(i - 1)] = coarse.s[i] - coarse.s[i - 1];
    }
    std::nth_element(spacing.begin(), spacing.begin() + static_cast<std::ptrdiff_t>(spacing.size() / 2), spacing.end());
    // Up to that Nyquist frequency: a grid that ended at 64 periods left a noisy window of more periods to the
    // zero-crossing start, which noise as large as the amplitude defeats (70 periods: a side minimum, 'not resolved').
    // Bounded by the even spacing's over the window (s spans [0, 1]): where most samples bunch up, their median spacing
    // alone would ask for a grid of millions.
    const double maxW = std::min(kPi / spacing[spacing.size() / 2], kPi * static_cast<double>(m - 1));

    struct GridPoint {
        double w;
        double l;
        double squaredResidual;
    };
    std::vector<GridPoint> best;  // per w, the l with the smallest residual
    for (int k = 1; k * kStep <= maxW; ++k) {
        const double w = k * kStep;
        GridPoint point{w, 0.0, std::numeric_limits<double>::infinity()};
        for (const double l : {0.0, 1.0, 3.0, 10.0}) {
            const double squaredResidual = solveLinearPart(coarse.s, coarse.y, l, w).squaredResidual;
            if (squaredResidual < point.squaredResidual) {
                point = {w, l, squaredResidual};
            }
        }
        best.push_back(point);
    }
    std::sort(best.begin(), best.end(),
              [](const GridPoint& p, const GridPoint& q) { return p.squaredResidual < q.squaredResidual; });
    std::vector<Parameters> starts;
    std::vector<double> chosen;
    for (const GridPoint& point : best) {
        const bool distinct =
            std::none_of(chosen.begin(), chosen.end(), [&](double w) { return std::fabs(w - point.w) < 2.5 * kStep; });
        if (distinct) {
            chosen.push_back(point.w);
            starts.push_back(startingPoint(data, point.l, point.w));
            if (static_cast<int>(starts.size()) == kStarts) {
                break;
            }
        }
    }
    return starts;
}

std::string describe(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

void checkSamples(std::span<const double> t, std::span<const double> x)
{
    if (t.size() != x.size()) {
        throw std::invalid_argument("damped oscillation fit: " + std::to_string(t.size()) + " times but " +
                                    std::to_string(x.size()) + " values");
    }
    if (t.size() < kMinimumFitSamples) {
        throw std::invalid_argument("damped oscillation fit: " + std::to_string(t.size()) + " samples, at least " +
                                    std::to_string(kMinimumFitSamples) + " are needed");
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!std::isfinite(t[i]) || !std::isfinite(x[i])) {
            throw std::invalid_argument("damped oscillation fit: sample " + std::to_string(i) +
                                        " (t = " + describe(t[i]) + ", x = " + describe(x[i]) + ") is not finite");
        }
        if (i > 0 && t[i] <= t[i - 1]) {
            throw std::invalid_argument("damped oscillation fit: times must increase, but sample " + std::to_string(i) +
                                        " has t = " + describe(t[i]) + " after " + describe(t[i - 1]));
        }
    }
    const auto [low, high] = std::minmax_element(x.begin(), x.end());
    // A spread at round-off level carries no oscillation to fit.
    if (*high - *low <= 1e-12 * std::max(std::fabs(*low), std::fabs(*high))) {
        throw std::invalid_argument("damped oscillation fit: the signal is constant (x = " + describe(*low) +
                                    "), there is no oscillation to fit");
    }
}

}  // namespace

double DampedOscillationFit::valueAt(double t) const
{
    // From the amplitude at the first sample: A exp(-t/tau) alone overflows for a window late in units of tau.
    return x0 + amplitudeAtStart * std::exp(-(t - start) / tau) * std::sin(omega * t + phase);
}

TimeSeries selectWindow(std::span<const double> t, std::span<const double> x, std::optional<double> from,
                        std::optional<double> to)
{
    if (t.size() != x.size()) {
        throw std::invalid_argument("time window: " + std::to_string(t.size()) + " times but " +
                                    std::to_string(x.size()) + " values");
    }
    if (from && to && *from >= *to) {
        throw std::invalid_argument("time window: from " + describe(*from) + " is not before to " + describe(*to));
    }
    TimeSeries window;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if ((!from || t[i] >= *from) && (!to || t[i] <= *to)) {
            window.t.push_back(t[i]);
            window.x.push_back(x[i]);
        }
    }
    return window;
}

DampedOscillationFit fitDampedOscillation(std::span<const double> t, std::span<const double> x)
{
    checkSamples(t, x);
    const auto n = static_cast<Eigen::Index>(t.size());
    const double timeOrigin = t.front();
    const double duration = t.back() - t.front();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), n);
    // Values near a double's range (1e308) overflow the sums: they are then taken in units of the largest |x|.
    const double scale = std::isfinite(xs.squaredNorm()) ? 1.0 : xs.cwiseAbs().maxCoeff();
    const double scaledMean = (xs.array() / scale).mean();
    const double mean = scale * scaledMean;
    const double scaledSpread = std::sqrt((xs.array() / scale - scaledMean).square().mean());
    const double spread = scale * scaledSpread;
    Normalized data{Eigen::VectorXd(n), (xs.array() / scale - scaledMean).matrix() / scaledSpread};
    for (Eigen::Index i = 0; i < n; ++i) {
        data.s[i] = (t[static_cast<std::size_t>(i)] - timeOrigin) / duration;
    }

    std::vector<Parameters> starts;
    if (const auto start = crossingStart(data)) {
        starts.push_back(*start);
    }
    const std::vector<Parameters> gridStarts = periodogramStarts(data);
    starts.insert(starts.end(), gridStarts.begin(), gridStarts.end());
    // Every start is refined: the first to converge may have found a side minimum (an alias of w).
    Attempt best = refine(data, starts.front());
    for (std::size_t k = 1; k < starts.size(); ++k) {
        const Attempt attempt = refine(data, starts[k]);
        const bool better =
            attempt.converged != best.converged ? attempt.converged : attempt.squaredResidual < best.squaredResidual;
        if (better) {
            best = attempt;
        }
    }

    double a = best.p[1];
    const double b = best.p[2];
    double w = best.p[4];
    if (w < 0.0) {  // a sin(w s) + b cos(w s) is unchanged by w -> -w, a -> -a
        a = -a;
        w = -w;
    }
    DampedOscillationFit fit;
    fit.x0 = mean + spread * best.p[0];
    fit.omega = w / duration;
    fit.tau = duration / best.p[3];
    // Back from s = (t - timeOrigin)/duration to t: exp(-l s) = exp(-t/tau) exp(timeOrigin/tau) and
    // sin(w s + phi) = sin(omega t + phi - omega timeOrigin).
    fit.start = timeOrigin;
    fit.amplitudeAtStart = spread * std::hypot(a, b);
    fit.amplitude = fit.amplitudeAtStart * std::exp(timeOrigin / fit.tau);
    const double phase = std::atan2(b, a) - fit.omega * timeOrigin;
    fit.phase = phase - 2.0 * kPi * std::floor((phase + kPi) / (2.0 * kPi));
    fit.rmse = spread * std::sqrt(best.squaredResidual / static_cast<double>(n));
    fit.r2 = 1.0 - best.squaredResidual / static_cast<double>(n);  // SS_tot = n in units of spread^2
    fit.iterations = best.iterations;
    // A fit whose parameters do not fit in a double (data near 1e308) has not converged, whatever the solver said;
    // the amplitude referred back to t = 0 may overflow for a late window while the fit is good (amplitudeAtStart).
    const bool finite = std::isfinite(fit.x0) && std::isfinite(fit.omega) && std::isfinite(fit.tau) &&
                        std::isfinite(fit.amplitudeAtStart) && std::isfinite(fit.phase) && std::isfinite(fit.rmse) &&
                        std::isfinite(fit.r2);
    fit.converged = best.converged && finite;
    setStandardErrors(fit, parameterCovariance(data, best.p, best.squaredResidual), best.p, spread, duration);
    // At least half a period in the window: a slower "oscillation" is a drift that a sine's arc happens to fit.
    fit.resolved = fit.converged && fit.amplitudeAtStart > kResolvedAmplitude * fit.amplitudeAtStartError &&
                   fit.omega * duration >= kPi;
    return fit;
}

}  // namespace granular::analysis
