#pragma once
#include <string>
#include <string_view>

namespace hetflow::io {

// Shortest text that reads back to the same double (std::to_chars round-trip guarantee), independent of
// the C locale; "nan", "inf" and "-inf" for non-finite values.
std::string format_double(double v);

// Escape &, <, >, " and ' so text can sit inside an XML attribute or element.
std::string xml_escape(std::string_view text);

}  // namespace hetflow::io
