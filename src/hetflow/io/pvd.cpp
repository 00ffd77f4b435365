#include "hetflow/io/pvd.hpp"

#include <charconv>
#include <utility>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/xml_parser.hpp"
#include "hetflow/io/xml_text.hpp"

namespace hetflow::io {

PvdSeries::PvdSeries(std::filesystem::path pvd_path) : path_(std::move(pvd_path)) {}

void PvdSeries::add(double time, const std::filesystem::path& file, int part) {
  // ParaView resolves entries against the .pvd's directory, so the run directory stays relocatable.
  std::filesystem::path base = path_.parent_path();
  if (base.empty()) base = ".";
  std::filesystem::path rel = file;
  if (file.is_absolute() || !path_.parent_path().empty()) {
    rel = std::filesystem::absolute(file).lexically_relative(std::filesystem::absolute(base));
    if (rel.empty()) rel = file;
  }
  entries_.push_back({time, rel.generic_string(), part});
  write_file_atomically(path_, pvd_text(entries_));
}

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const auto& e : entries) {
    xml += "    <DataSet timestep=\"" + format_double(e.time) + "\" group=\"\" part=\"" + std::to_string(e.part) +
           "\" file=\"" + xml_escape(e.file) + "\"/>\n";
  }
  xml += "  </Collection>\n</VTKFile>\n";
  return xml;
}

std::vector<PvdEntry> read_pvd(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  const std::string_view text(bytes.data(), bytes.size());
  const std::string name = path.string();
  const XmlDocument doc = parse_xml(text, name);
  auto fail = [&](const XmlElement& el, const std::string& what) {
    return FormatError(name + ":" + std::to_string(el.line) + ": " + what);
  };
  const auto* type = doc.root.attribute("type");
  if (doc.root.name != "VTKFile" || type == nullptr || *type != "Collection")
    throw fail(doc.root, "not a VTK Collection file");
  const XmlElement* coll = doc.root.child("Collection");
  if (coll == nullptr) throw fail(doc.root, "<VTKFile> has no <Collection>");
  std::vector<PvdEntry> out;
  for (const auto* ds : coll->children_named("DataSet")) {
    PvdEntry e;
    const auto* file = ds->attribute("file");
    if (file == nullptr) throw fail(*ds, "<DataSet> lacks the attribute 'file'");
    e.file = *file;
    if (const auto* t = ds->attribute("timestep")) {
      const auto r = std::from_chars(t->data(), t->data() + t->size(), e.time);
      if (r.ec != std::errc() || r.ptr != t->data() + t->size()) throw fail(*ds, "timestep=\"" + *t + "\" is not a number");
    }
    if (const auto* p = ds->attribute("part")) {
      const auto r = std::from_chars(p->data(), p->data() + p->size(), e.part);
      if (r.ec != std::errc() || r.ptr != p->data() + p->size()) throw fail(*ds, "part=\"" + *p + "\" is not an integer");
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace hetflow::io
