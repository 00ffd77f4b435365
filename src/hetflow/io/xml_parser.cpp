#include "hetflow/io/xml_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "hetflow/io/error.hpp"

namespace hetflow::io {

const std::string* XmlElement::attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return &v;
  return nullptr;
}

const XmlElement* XmlElement::child(std::string_view child_name) const {
  for (const auto& c : children)
    if (c.name == child_name) return &c;
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::children_named(std::string_view child_name) const {
  std::vector<const XmlElement*> out;
  for (const auto& c : children)
    if (c.name == child_name) out.push_back(&c);
  return out;
}

namespace {

constexpr int kMaxDepth = 64;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : s_(text), source_(source) {}

  XmlDocument parse() {
    XmlDocument doc;
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip_misc();
    if (at_end()) fail("no root element");
    if (s_[pos_] != '<') fail("expected '<' to start the root element");
    parse_element(doc.root, 0, doc);
    return doc;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw FormatError(std::string(source_) + ":" + std::to_string(line_at(std::min(pos_, s_.size()))) + ": " + what);
  }

  // Positions only grow while parsing, so lines are counted incrementally.
  std::size_t line_at(std::size_t pos) {
    if (pos < line_pos_) {
      line_pos_ = 0;
      line_ = 1;
    }
    line_ += static_cast<std::size_t>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(line_pos_),
                                                 s_.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    line_pos_ = pos;
    return line_;
  }

  bool at_end() const { return pos_ >= s_.size(); }
  bool starts(std::string_view p) const { return s_.substr(pos_).substr(0, p.size()) == p; }
  void skip_space() {
    while (!at_end() && is_space(s_[pos_])) ++pos_;
  }

  void skip_past(std::string_view terminator, std::string_view what) {
    const auto end = s_.find(terminator, pos_);
    if (end == std::string_view::npos) fail("unterminated " + std::string(what));
    pos_ = end + terminator.size();
  }

  // Prolog and epilog: declarations, comments, processing instructions, DOCTYPE.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<!DOCTYPE")) {
        skip_doctype();
      } else {
        return;
      }
    }
  }

  void skip_doctype() {
    int bracket = 0;
    for (; !at_end(); ++pos_) {
      const char c = s_[pos_];
      if (c == '[') ++bracket;
      else if (c == ']') --bracket;
      else if (c == '>' && bracket <= 0) {
        ++pos_;
        return;
      }
    }
    fail("unterminated DOCTYPE");
  }

  std::string parse_name() {
    const std::size_t start = pos_;
    if (at_end() || !is_name_start(s_[pos_])) fail("expected a name");
    while (!at_end() && is_name_char(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  void decode_entity(std::string& out) {
    const auto semi = s_.find(';', pos_);
    if (semi == std::string_view::npos || semi - pos_ > 12) fail("malformed entity reference");
    const std::string_view ent = s_.substr(pos_ + 1, semi - pos_ - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else if (ent.size() > 1 && ent[0] == '#') {
      const bool hex = ent[1] == 'x';
      const std::string_view digits = ent.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size() || cp == 0 || cp > 0x10FFFF)
        fail("invalid character reference '&" + std::string(ent) + ";'");
      append_utf8(out, cp);
    } else {
      fail("unknown entity '&" + std::string(ent) + ";'");
    }
    pos_ = semi + 1;
  }

  std::string parse_attribute_value() {
    if (at_end() || (s_[pos_] != '"' && s_[pos_] != '\'')) fail("expected a quoted attribute value");
    const char quote = s_[pos_++];
    std::string value;
    for (;;) {
      if (at_end()) fail("unterminated attribute value");
      const char c = s_[pos_];
      if (c == quote) {
        ++pos_;
        return value;
      }
      if (c == '<') fail("'<' inside an attribute value");
      if (c == '&') {
        decode_entity(value);
      } else {
        value += c;
        ++pos_;
      }
    }
  }

  void parse_element(XmlElement& el, int depth, XmlDocument& doc) {
    if (depth > kMaxDepth) fail("elements nested deeper than " + std::to_string(kMaxDepth));
    el.line = line_at(pos_);
    ++pos_;  // '<'
    el.name = parse_name();
    bool self_closing = false;
    for (;;) {
      const std::size_t before = pos_;
      skip_space();
      if (at_end()) fail("unterminated start tag <" + el.name + ">");
      if (starts("/>")) {
        pos_ += 2;
        self_closing = true;
        break;
      }
      if (s_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (pos_ == before) fail("expected whitespace before an attribute in <" + el.name + ">");
      std::string key = parse_name();
      skip_space();
      if (at_end() || s_[pos_] != '=') fail("expected '=' after attribute '" + key + "'");
      ++pos_;
      skip_space();
      std::string value = parse_attribute_value();
      if (el.attribute(key) != nullptr) fail("attribute '" + key + "' repeated in <" + el.name + ">");
      el.attributes.emplace_back(std::move(key), std::move(value));
    }
    if (self_closing) return;

    const std::string* encoding = el.attribute("encoding");
    if (el.name == "AppendedData" && encoding != nullptr && *encoding == "raw") {
      skip_space();
      if (at_end() || s_[pos_] != '_') fail("raw AppendedData does not start with '_'");
      doc.has_raw_data = true;
      doc.raw_data = s_.substr(pos_ + 1);
      pos_ = s_.size();
      stopped_ = true;
      return;
    }

    for (;;) {
      if (at_end()) fail("unexpected end of file inside <" + el.name + ">");
      if (starts("</")) {
        pos_ += 2;
        const std::string closing = parse_name();
        if (closing != el.name) fail("closing tag </" + closing + "> does not match <" + el.name + ">");
        skip_space();
        if (at_end() || s_[pos_] != '>') fail("expected '>' to end </" + closing + ">");
        ++pos_;
        return;
      }
      if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<![CDATA[")) {
        const std::size_t start = pos_ + 9;
        skip_past("]]>", "CDATA section");
        if (el.text.empty()) el.text = s_.substr(start, pos_ - 3 - start);
      } else if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (s_[pos_] == '<') {
        el.children.emplace_back();
        parse_element(el.children.back(), depth + 1, doc);
        if (stopped_) return;
      } else {
        const std::size_t start = pos_;
        const auto next = s_.find('<', pos_);
        pos_ = next == std::string_view::npos ? s_.size() : next;
        const std::string_view run = s_.substr(start, pos_ - start);
        const bool blank = std::all_of(run.begin(), run.end(), is_space);
        if (!blank && el.text.empty()) el.text = run;
      }
    }
  }

  std::string_view s_;
  std::string_view source_;
  std::size_t pos_ = 0;
  std::size_t line_pos_ = 0;
  std::size_t line_ = 1;
  bool stopped_ = false;
};

}  // namespace

XmlDocument parse_xml(std::string_view text, std::string_view source_name) {
  return Parser(text, source_name).parse();
}

}  // namespace hetflow::io
