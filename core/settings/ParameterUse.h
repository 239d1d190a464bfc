#pragma once

#include "settings/Settings.h"

#include <string>
#include <string_view>

namespace granular {

/// Why a schema key does not act on a run with these settings ("used by cd and cd_pressure; this run: md"),
/// or an empty string when it does. Conservative: a key is called unused only where the method, setup,
/// dimension or another key's value leaves it out entirely. The studio's parameter panel shows the used
/// keys first and greys the others with this reason.
[[nodiscard]] std::string unusedReason(std::string_view key, const Settings& settings);

}  // namespace granular
