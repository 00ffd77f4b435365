#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hetflow::io {

// A deliberately small XML reader for the formats hetflow reads back (VTK XML, PVD, XDMF): elements,
// attributes, character data, comments, processing instructions, a DOCTYPE and CDATA. Namespaces, DTD
// entities and encodings other than UTF-8/ASCII are out of scope. It also knows VTK's one departure from
// XML: after `<AppendedData encoding="raw">` and an underscore, the rest of the file is raw bytes.
struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  std::string_view text;  // first run of character data directly inside, a view into the parsed buffer
  std::size_t line = 0;

  const std::string* attribute(std::string_view key) const;
  const XmlElement* child(std::string_view child_name) const;
  std::vector<const XmlElement*> children_named(std::string_view child_name) const;
};

struct XmlDocument {
  XmlElement root;
  bool has_raw_data = false;
  std::string_view raw_data;  // the bytes after the '_' of a raw AppendedData section, to the buffer's end
};

// Throws FormatError "<source_name>:<line>: <problem>". Views in the result point into `text`, which must
// outlive it. Nesting deeper than 64 elements is rejected so hostile input cannot exhaust the stack.
XmlDocument parse_xml(std::string_view text, std::string_view source_name);

}  // namespace hetflow::io
