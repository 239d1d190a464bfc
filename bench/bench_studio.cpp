// Responsiveness of Granular Studio (not a test: prints figures and saves them as JSON).
//  1. piston2d from one compressed state: steps/s headless (Simulation::step in a loop) and with
//     the studio window open and playing (SimulationController + MainWindow), the same steps from
//     the same state; meanwhile a 10 ms QTimer probe on the GUI thread records how late the event
//     loop answers (max and 99th percentile).
//  1b. The studio's scene view alone, at its size in the window, drawing piston2d frames with no solver running.
//  2. The scene view alone with a packing of N spheres (default 20,000) and its force chains:
//     frames/s when every frame is a new Frame (what a running simulation costs) and when only
//     the camera turns.
// Run under Xvfb: xvfb-run -a -s "-screen 0 1600x1000x24" bench_studio [OUTPUT.json]
//   options: --prepare-steps N (2200) --steps N (600) --spheres N (20000) --seconds S (5)
//            --size WxH (1200x800, the scene view in part 2)
//            --hide-view, --hide-plots (diagnosis: the studio without its view or its plots)
//   solver threads: as the studio, OMP_NUM_THREADS if set, else every core
#include "BenchUsage.h"
#include "BuiltinScenarios.h"
#include "MainWindow.h"
#include "PlotPanel.h"
#include "SceneView.h"
#include "SimulationController.h"
#include "sim/Frame.h"
#include "sim/Simulation.h"
#include "util/Parallel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using namespace granular;

namespace {

struct Options {
    std::int64_t prepareSteps = 2200;
    std::int64_t steps = 600;
    int spheres = 20000;
    double seconds = 5.0;
    int width = 1200;  ///< the scene view's size in part 2, logical pixels
    int height = 800;
    std::string output;
    bool hideView = false;   ///< diagnosis: the window without its scene view
    bool hidePlots = false;  ///< diagnosis: the window without its plots
};

/// A parsed option's value; where there is none (its parse printed why), ends the bench, before any thread starts.
template <class T> T orRefuse(const std::optional<T>& value)
{
    if (!value) {
        std::exit(2);  // NOLINT(concurrency-mt-unsafe): before any thread
    }
    return *value;
}

Options parse(int argc, char** argv)
{
    Options o;
    const char* program = "bench_studio";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        // An option's value; "" where the command line ends before it, which its parse refuses, naming the option and
        // the accepted range.
        const auto next = [&] { return i + 1 < argc ? std::string_view(argv[++i]) : std::string_view(); };
        const auto whole = [&](long long least, long long most) {
            return orRefuse(bench::wholeValue(program, a.c_str(), next(), least, most));
        };
        constexpr long long kMostSpheres = 10'000'000;
        constexpr long long kMostPixels = 16384;
        constexpr long long kMostSteps = 1'000'000'000;  // far beyond a bench's minutes; sums of steps stay in range
        constexpr double kMostSeconds = 3600.0;          // the waits count milliseconds in an int
        if (a == "--prepare-steps") {
            o.prepareSteps = whole(0, kMostSteps);
        } else if (a == "--steps") {
            o.steps = whole(1, kMostSteps);
        } else if (a == "--spheres") {
            o.spheres = static_cast<int>(whole(1, kMostSpheres));
        } else if (a == "--seconds") {
            o.seconds = orRefuse(bench::positiveValue(program, "--seconds", next(), kMostSeconds));
        } else if (a == "--size") {
            const std::string_view size = next();
            const auto x = size.find('x');
            const auto side = [&](std::string_view text, const char* name) {
                return static_cast<int>(orRefuse(bench::wholeValue(program, name, text, 1, kMostPixels)));
            };
            o.width = side(size.substr(0, x), "--size's width");
            o.height = x == std::string_view::npos ? o.width : side(size.substr(x + 1), "--size's height");
        } else if (a == "--hide-view") {
            o.hideView = true;
        } else if (a == "--hide-plots") {
            o.hidePlots = true;
        } else if (a.starts_with('-')) {  // not taken as the JSON file to write (--help wrote a file named --help)
            std::exit(granular::bench::usageFor(  // NOLINT(concurrency-mt-unsafe): before any thread
                program, a,
                "usage: bench_studio [OUTPUT.json] [--prepare-steps N] [--steps N] [--spheres N] [--seconds S]\n"
                "  [--size WxH] [--hide-view] [--hide-plots] (under Xvfb; defaults 2200, 600, 20000, 5, 1200x800)\n"));
        } else {
            o.output = a;
        }
    }
    return o;
}

/// Waits in the event loop (sleeping while idle) until `done` holds or `seconds` pass; returns
/// whether it held.
template <class Done> bool waitFor(Done done, double seconds)
{
    if (done()) {
        return true;
    }
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done()) {
            loop.quit();
        }
    });
    poll.start(5);
    QTimer::singleShot(static_cast<int>(seconds * 1000.0), &loop, &QEventLoop::quit);
    loop.exec();
    return done();
}

/// A QTimer firing every `interval` ms on the GUI thread; records how much later than due each
/// timeout came.
class LatencyProbe {
public:
    explicit LatencyProbe(int interval) : interval_(interval)
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(interval);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.nsecsElapsed();
            lateness_.push_back(1e-6 * static_cast<double>(now - last_) - interval_);
            last_ = now;
        });
    }
    void start()
    {
        lateness_.clear();
        clock_.start();
        last_ = 0;
        timer_.start();
    }
    void stop() { timer_.stop(); }
    [[nodiscard]] double maximum() const
    {
        return lateness_.empty() ? 0.0 : *std::max_element(lateness_.begin(), lateness_.end());
    }
    [[nodiscard]] double percentile(double q) const
    {
        if (lateness_.empty()) {
            return 0.0;
        }
        auto sorted = lateness_;
        std::sort(sorted.begin(), sorted.end());
        return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    }
    [[nodiscard]] std::size_t samples() const { return lateness_.size(); }

private:
    int interval_;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    std::vector<double> lateness_;  ///< ms
};

/// Another thread posts a call to the GUI thread every `interval` ms; records how long each took to
/// be answered (what a user's click or key press would wait for).
class PostedCallProbe {
public:
    explicit PostedCallProbe(int interval) : interval_(interval) {}
    ~PostedCallProbe() { stop(); }
    PostedCallProbe(const PostedCallProbe&) = delete;
    PostedCallProbe& operator=(const PostedCallProbe&) = delete;
    PostedCallProbe(PostedCallProbe&&) = delete;
    PostedCallProbe& operator=(PostedCallProbe&&) = delete;

    void start()
    {
        delays_ = std::make_shared<std::vector<double>>();
        running_ = true;
        thread_ = std::thread([this, delays = delays_] {
            while (running_) {
                const auto sent = std::chrono::steady_clock::now();
                QMetaObject::invokeMethod(
                    qApp,
                    [delays, sent] {
                        delays->push_back(
                            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - sent).count());
                    },
                    Qt::QueuedConnection);
                std::this_thread::sleep_for(std::chrono::milliseconds(interval_));
            }
        });
    }
    void stop()
    {
        running_ = false;
        if (thread_.joinable()) {
            thread_.join();
        }
    }
    [[nodiscard]] double maximum() const
    {
        return delays_->empty() ? 0.0 : *std::max_element(delays_->begin(), delays_->end());
    }
    [[nodiscard]] double percentile(double q) const
    {
        if (delays_->empty()) {
            return 0.0;
        }
        auto sorted = *delays_;
        std::sort(sorted.begin(), sorted.end());
        return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    }
    [[nodiscard]] std::size_t samples() const { return delays_->size(); }

private:
    int interval_;
    std::atomic<bool> running_{false};
    std::thread thread_;
    std::shared_ptr<std::vector<double>> delays_ = std::make_shared<std::vector<double>>();
};

/// The application, timing every top-level event delivery on the GUI thread: which receivers
/// keep the event loop busy the longest (the probe says how long, this says who).
class TimedApplication final : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override
    {
        // Only the GUI thread's events: the simulation thread's batches also pass through here.
        if (QThread::currentThread() != thread()) {
            return QApplication::notify(receiver, event);
        }
        if (depth_ > 0 || !recording) {
            ++depth_;
            const bool result = QApplication::notify(receiver, event);
            --depth_;
            return result;
        }
        ++depth_;
        QElapsedTimer clock;
        clock.start();
        const QObject* owner = receiver->parent();
        const QString what = QStringLiteral("%1 '%2' of %3 (event %4)")
                                 .arg(QString::fromLatin1(receiver->metaObject()->className()), receiver->objectName(),
                                      QString::fromLatin1(owner != nullptr ? owner->metaObject()->className() : "-"))
                                 .arg(static_cast<int>(event->type()));
        const bool result = QApplication::notify(receiver, event);
        const double ms = 1e-6 * static_cast<double>(clock.nsecsElapsed());
        --depth_;
        auto& slot = slowest[what.toStdString()];
        slot.first = std::max(slot.first, ms);
        slot.second += ms;
        return result;
    }

    bool recording = false;
    std::map<std::string, std::pair<double, double>> slowest;  ///< receiver/event: max and total ms

private:
    int depth_ = 0;
};

/// N spheres of radius 0.5 m on a cubic lattice of spacing 1 m in a box, each touching its +x,
/// +y, +z neighbours; f_n grows with depth and varies from contact to contact (a fixed hash), so
/// that the strong network is about a third of the contacts. Shifted by `phase` m in x.
std::shared_ptr<const Frame> packing(int spheres, double phase)
{
    auto frame = std::make_shared<Frame>();
    frame->dimension = 3;
    const int side = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(spheres))));
    std::vector<int> index(static_cast<std::size_t>(side * side * side), -1);
    const auto at = [side](int i, int j, int k) { return static_cast<std::size_t>((i * side + j) * side + k); };
    for (int j = 0; j < side && static_cast<int>(frame->position.size()) < spheres; ++j) {
        for (int i = 0; i < side && static_cast<int>(frame->position.size()) < spheres; ++i) {
            for (int k = 0; k < side && static_cast<int>(frame->position.size()) < spheres; ++k) {
                index[at(i, j, k)] = static_cast<int>(frame->position.size());
                frame->position.emplace_back(static_cast<float>(0.5 + i + phase), static_cast<float>(0.5 + j),
                                             static_cast<float>(0.5 + k));
                frame->velocity.emplace_back(Eigen::Vector3f::Zero());
                frame->radius.push_back(0.5F);
            }
        }
    }
    const auto n = frame->position.size();
    frame->coordination.assign(n, 0);
    frame->overlap.assign(n, 0.0F);
    std::uint32_t hash = 12345U;
    for (int i = 0; i < side; ++i) {
        for (int j = 0; j < side; ++j) {
            for (int k = 0; k < side; ++k) {
                const int a = index[at(i, j, k)];
                if (a < 0) {
                    continue;
                }
                for (const auto& [di, dj, dk] : {std::array{1, 0, 0}, std::array{0, 1, 0}, std::array{0, 0, 1}}) {
                    if (i + di >= side || j + dj >= side || k + dk >= side) {
                        continue;
                    }
                    const int b = index[at(i + di, j + dj, k + dk)];
                    if (b < 0) {
                        continue;
                    }
                    hash = hash * 1664525U + 1013904223U;
                    const double u = (static_cast<double>(hash >> 8) + 0.5) / 16777216.0;
                    const double force = (1.0 + side - j) * -std::log(u);  // exponential tail, as in packings
                    frame->contacts.push_back({a, b, static_cast<float>(force)});
                    ++frame->coordination[static_cast<std::size_t>(a)];
                    ++frame->coordination[static_cast<std::size_t>(b)];
                }
            }
        }
    }
    frame->bounds = Eigen::AlignedBox3d(Eigen::Vector3d::Zero(), Eigen::Vector3d::Constant(side));
    frame->walls.push_back({"floor", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()});
    return frame;
}

/// Frames a scene view shows per second while `change` (called with the frames swapped so far) runs after each
/// swap: the view is shown with `first` and has drawn it before measuring starts.
class ViewMeter {
public:
    ViewMeter(ui::SceneView& view, const std::shared_ptr<const Frame>& first) : view_(view)
    {
        QObject::connect(&view_, &QOpenGLWindow::frameSwapped, [this] { ++swapped_; });
        view_.show();
        view_.showFrame(first);
        waitFor([this] { return swapped_ > 0; }, 60.0);
    }

    template <class Change> double framesPerSecond(Change change, double seconds)
    {
        const qint64 first = swapped_;
        QElapsedTimer clock;
        clock.start();
        const auto next = QObject::connect(&view_, &QOpenGLWindow::frameSwapped, [&] { change(swapped_); });
        change(0);
        waitFor([] { return false; }, seconds);
        QObject::disconnect(next);
        return static_cast<double>(swapped_ - first) / (1e-3 * static_cast<double>(clock.elapsed()));
    }

private:
    ui::SceneView& view_;
    qint64 swapped_ = 0;
};

}  // namespace

int main(int argc, char** argv)
{
    const Options options = parse(argc, argv);
    granular::setSolverThreads(granular::defaultSolverThreads());  // as the studio starts (OMP_NUM_THREADS)
    QSurfaceFormat::setDefaultFormat(ui::SceneView::requiredFormat());
    TimedApplication app(argc, argv);
    nlohmann::json out;

    // 1. piston2d: one compressed state, then the same steps headless and in the studio.
    const Scenario scenario = resolveScenario("piston2d");
    World state;
    {
        Simulation prepare(scenario);
        for (std::int64_t n = 0; n < options.prepareSteps; ++n) {
            prepare.step();
        }
        state = prepare.world();
    }
    double headless = 0.0;
    {
        Simulation simulation(scenario, state);
        const auto start = std::chrono::steady_clock::now();
        for (std::int64_t n = 0; n < options.steps; ++n) {
            simulation.step();
        }
        headless = static_cast<double>(options.steps) /
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    double studio = 0.0;
    double framesPerSecond = 0.0;
    QSize studioViewSize;
    LatencyProbe probe(10);
    PostedCallProbe posted(10);
    {
        // The simulation thread alone (no window): what stepping costs the GUI thread by itself.
        ui::SimulationController controller(std::make_unique<Simulation>(scenario, state), "piston2d");
        bool stopped = false;
        QObject::connect(&controller, &ui::SimulationController::runningChanged,
                         [&stopped](bool running) { stopped = !running; });
        QObject::connect(&controller, &ui::SimulationController::updateAvailable,
                         [&controller] { (void)controller.takeUpdate(); });
        const std::int64_t steps = std::max<std::int64_t>(1, options.steps / 2);
        probe.start();
        const auto start = std::chrono::steady_clock::now();
        controller.playSteps(steps);
        waitFor([&] { return stopped && controller.steps() >= state.steps + steps; }, 600.0);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        probe.stop();
        std::printf("controller without a window: %.1f steps/s; 10 ms timer late by at most %.1f ms (99th percentile "
                    "%.1f ms)\n",
                    static_cast<double>(steps) / seconds, probe.maximum(), probe.percentile(0.99));
        out["controller_only"] = {{"steps_per_s", static_cast<double>(steps) / seconds},
                                  {"event_loop_max_delay_ms", probe.maximum()}};
    }
    {
        ui::SimulationController controller(std::make_unique<Simulation>(scenario, state), "piston2d");
        ui::MainWindow window(controller);
        window.show();
        if (!waitFor([&] { return window.renderedFrames() > 0 && window.receivedFrames() > 0; }, 60.0)) {
            std::fprintf(stderr, "bench_studio: the studio window did not render\n");
            return 1;
        }
        if (options.hideView) {
            window.sceneViewContainer()->hide();
        }
        if (options.hidePlots) {
            window.plotPanel()->hide();
        }
        waitFor([] { return false; }, 1.0);  // let the first plots and layout settle
        probe.start();
        waitFor([] { return false; }, 2.0);
        probe.stop();
        std::printf("GUI event loop with the studio open and paused: 10 ms timer late by at most %.1f ms (99th "
                    "percentile %.1f ms)\n",
                    probe.maximum(), probe.percentile(0.99));
        std::fflush(stdout);
        out["idle_event_loop_max_delay_ms"] = probe.maximum();
        bool stopped = false;
        QObject::connect(&controller, &ui::SimulationController::runningChanged,
                         [&stopped](bool running) { stopped = !running; });
        const qint64 rendered = window.renderedFrames();
        posted.start();
        probe.start();
        app.recording = true;
        const auto start = std::chrono::steady_clock::now();
        controller.playSteps(options.steps);
        const std::int64_t target = state.steps + options.steps;
        waitFor([&] { return stopped && controller.steps() >= target; }, 600.0);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        probe.stop();
        posted.stop();
        app.recording = false;
        studio = static_cast<double>(controller.steps() - state.steps) / seconds;
        framesPerSecond = static_cast<double>(window.renderedFrames() - rendered) / seconds;
        studioViewSize = window.sceneView()->size();
    }
    std::printf("piston2d (%zu disks, steps %lld..%lld): headless %.1f steps/s, studio %.1f steps/s (%.0f %%), "
                "view %.1f frames/s\n",
                state.particles.size(), static_cast<long long>(state.steps),
                static_cast<long long>(state.steps + options.steps), headless, studio, 100.0 * studio / headless,
                framesPerSecond);
    std::printf("GUI event loop while playing: 10 ms timer late by at most %.1f ms (99th percentile %.1f ms, %zu "
                "samples)\n",
                probe.maximum(), probe.percentile(0.99), probe.samples());
    std::printf("GUI event loop while playing: a call posted from another thread waited at most %.1f ms (99th "
                "percentile %.1f ms, %zu samples)\n",
                posted.maximum(), posted.percentile(0.99), posted.samples());
    std::vector<std::pair<std::string, std::pair<double, double>>> busiest(app.slowest.begin(), app.slowest.end());
    std::sort(busiest.begin(), busiest.end(),
              [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    for (std::size_t i = 0; i < busiest.size() && i < 6; ++i) {
        std::printf("  GUI thread busy in %s: %.0f ms in all, %.1f ms at most\n", busiest[i].first.c_str(),
                    busiest[i].second.second, busiest[i].second.first);
    }
    out["piston2d"] = {{"particles", state.particles.size()},
                       {"first_step", state.steps},
                       {"steps", options.steps},
                       {"headless_steps_per_s", headless},
                       {"studio_steps_per_s", studio},
                       {"studio_over_headless", studio / headless},
                       {"studio_view_frames_per_s", framesPerSecond},
                       {"event_loop_max_delay_ms", probe.maximum()},
                       {"event_loop_p99_delay_ms", probe.percentile(0.99)},
                       {"posted_call_max_delay_ms", posted.maximum()},
                       {"posted_call_p99_delay_ms", posted.percentile(0.99)}};

    // 1b. The studio's scene view by itself, at the size it had in the window, drawing piston2d frames (two states
    // 20 steps apart, in turn) with nothing else running: what a frame costs to draw when no solver shares the cores.
    {
        Simulation simulation(scenario, state);
        const auto first = simulation.frame();
        for (int n = 0; n < 20; ++n) {
            simulation.step();
        }
        const std::array frames{first, simulation.frame()};
        ui::SceneView view;
        view.resize(studioViewSize);
        ViewMeter meter(view, frames[0]);
        const double alone = meter.framesPerSecond(
            [&](qint64 k) { view.showFrame(frames[static_cast<std::size_t>(k % 2)]); }, options.seconds);
        std::printf("piston2d's scene view alone (%dx%d, no solver running): %.1f frames/s with a new frame each time "
                    "(%.1f ms a frame)\n",
                    studioViewSize.width(), studioViewSize.height(), alone, 1e3 / alone);
        out["piston2d"]["view_alone_frames_per_s"] = alone;
        out["piston2d"]["view_width"] = studioViewSize.width();
        out["piston2d"]["view_height"] = studioViewSize.height();
    }

    // 2. The view alone: N spheres with force chains.
    {
        ui::SceneView view;
        view.resize(options.width, options.height);
        const std::array frames{packing(options.spheres, 0.0), packing(options.spheres, 0.02)};
        ViewMeter meter(view, frames[0]);
        const auto contacts = frames[0]->contacts.size();
        const auto measure = [&](auto change) { return meter.framesPerSecond(change, options.seconds); };
        // New frames: each paint shows the other frame (data upload + render).
        const double newFrames = measure([&](qint64 k) { view.showFrame(frames[static_cast<std::size_t>(k % 2)]); });
        const double orbit = measure([&](qint64) { view.orbit(1.0); });
        const int turningReduction = view.drawnReduction();
        std::printf("scene view %dx%d, %d spheres, %zu contacts (chains f_n >= <f_n>): %.1f frames/s with a new "
                    "frame each time, %.1f frames/s turning the camera (drawn at 1/%d of the resolution while "
                    "it turns)\n",
                    options.width, options.height, options.spheres, contacts, newFrames, orbit, turningReduction);
        out["view"] = {{"spheres", options.spheres},
                       {"contacts", contacts},
                       {"width", options.width},
                       {"height", options.height},
                       {"new_frame_frames_per_s", newFrames},
                       {"orbit_frames_per_s", orbit},
                       {"orbit_resolution_divisor", turningReduction}};
    }
    if (!options.output.empty()) {
        std::ofstream(options.output) << out.dump(2) << '\n';
    }
    return 0;
}
