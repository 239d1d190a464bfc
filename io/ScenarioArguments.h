#pragma once

#include "scenario/Scenario.h"

#include <string>
#include <vector>

namespace granular {

/// A built-in name or JSON path with every `--set KEY=VALUE` applied in order, as both programs
/// take them on their command lines. Throws ScenarioError naming the bad argument or key, or a key given twice.
/// The first of `assignments` (`KEY=VALUE`, as --set takes them) that sets `key`, or null.
[[nodiscard]] const std::string* assignmentOf(const std::vector<std::string>& assignments, const std::string& key);

Scenario scenarioFromArguments(const std::string& nameOrPath, const std::vector<std::string>& assignments);

/// `saved` (the scenario of a saved state) with every `--set KEY=VALUE` applied in order, where only live keys may
/// change (those the studio changes mid-run, e.g. run.time, material.stiffness, view.grain_size): the others apply
/// when a world is built. `goingOn` names what goes on from the state ("a resumed run") in the message. Throws
/// ScenarioError naming the bad argument or key, or a key given twice.
Scenario scenarioWithLiveAssignments(Scenario saved, const std::vector<std::string>& assignments,
                                     const std::string& goingOn);

}  // namespace granular
