#pragma once

#include <cstddef>
#include <string_view>

namespace granular {

/// The byte-order mark that some programs put at the start of a UTF-8 file (U+FEFF): no part of its text.
inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

/// Where `text` stops being well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing beyond U+10FFFF):
/// the offset of the first byte of the first ill-formed sequence, or std::string_view::npos where all of it is
/// well-formed. The JSON files a run writes hold only UTF-8 text: a scenario's texts are checked as they are read.
[[nodiscard]] std::size_t firstInvalidUtf8(std::string_view text);

}  // namespace granular
