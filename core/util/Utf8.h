#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace granular {

/// `text` without the byte-order mark (U+FEFF) that some programs put at the start of a UTF-8 file (a spreadsheet's
/// "CSV UTF-8"): no part of the file's text.
[[nodiscard]] inline std::string_view withoutByteOrderMark(std::string_view text)
{
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    if (text.starts_with(kByteOrderMark)) {
        text.remove_prefix(kByteOrderMark.size());
    }
    return text;
}

/// A byte as two hexadecimal digits after "0x" (upper case: "0xFC"), for messages about bytes that are not text.
[[nodiscard]] inline std::string hexByte(unsigned char byte)
{
    constexpr std::string_view kDigits = "0123456789ABCDEF";
    return std::string("0x") + kDigits[byte >> 4U] + kDigits[byte & 15U];
}

/// Where `text` stops being well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing beyond U+10FFFF):
/// the offset of the first byte of the first ill-formed sequence, or std::string_view::npos where all of it is
/// well-formed. The JSON files a run writes hold only UTF-8 text: a scenario's texts are checked as they are read.
[[nodiscard]] std::size_t firstInvalidUtf8(std::string_view text);

}  // namespace granular
