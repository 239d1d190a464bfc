#pragma once
// The headers that nearly every test of tests/core and tests/cli includes, precompiled once per folder in GCC builds
// (granular_add_test): parsing Qt Test, Eigen, nlohmann::json, the standard library and the core's world took ~8 of
// the ~12 s of a test's compilation on CI's host. Each test still includes what it uses: the sanitizer build (clang)
// compiles without this header.
#include "model/World.h"
#include "scenario/Scenario.h"
#include "sim/Simulation.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <QObject>
#include <QTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>
