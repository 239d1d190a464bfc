#pragma once

#include <iosfwd>
#include <string>

namespace granular::cli {

/// `granular compare RUN REFERENCE`: Brodu et al. 2015's measures of a compression run against a reference
/// run (analysis::compareCompression), printed as JSON.
int compareRuns(const std::string& run, const std::string& reference, std::ostream& out, std::ostream& err);

}  // namespace granular::cli
