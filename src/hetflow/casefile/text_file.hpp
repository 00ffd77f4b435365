#pragma once
#include <string>
#include <string_view>

namespace hetflow::casefile {

// Throws CaseError "<source> is not a text (YAML) case file: ..." when `content` holds a byte that YAML
// text cannot (a C0 control other than tab, line feed and carriage return, or DEL): a binary file given as
// a case (an executable, a PNG) is named as such rather than reported as a YAML escape error. Invalid
// UTF-8 in otherwise printable text is left to the parser, which names its line.
void check_text_file(std::string_view content, const std::string& source);

}  // namespace hetflow::casefile
