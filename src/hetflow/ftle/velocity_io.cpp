#include "hetflow/ftle/velocity_io.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "hetflow/core/error.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/yaml_header.hpp"

namespace hetflow::ftle {
namespace {

static_assert(std::endian::native == std::endian::little, "raw velocity files are little-endian");

using io::FormatError;

// More nodes than this fit no device; the limit keeps byte counts far from overflow.
constexpr std::int64_t max_nodes = std::int64_t{1} << 40;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string node_text(const VelocityGrid& g, std::size_t node) {
  std::string s = "(" + std::to_string(node % g.dims[0]) + ", " + std::to_string(node / g.dims[0] % g.dims[1]);
  if (g.dimension == 3) s += ", " + std::to_string(node / (g.dims[0] * g.dims[1]));
  return s + ")";
}

// A snapshot's values, each checked to be finite.
void check_finite(const VelocityGrid& g, const std::vector<double>& values, const std::string& source) {
  const auto dim = static_cast<std::size_t>(g.dimension);
  for (std::size_t v = 0; v < values.size(); ++v) {
    if (std::isfinite(values[v])) continue;
    throw FormatError(quoted(source) + ": node " + node_text(g, v / dim) + ", component " +
                      std::string(1, "uvw"[v % dim]) + " is " + std::to_string(values[v]) +
                      ": expected finite velocities");
  }
}

// The grid shape, spacing, origin, value type, files and times of a raw header; problems are collected.
struct RawHeader {
  VelocityGrid grid;  // without snapshots
  bool float32 = false;
  std::vector<std::string> files;
};

RawHeader parse_header(io::YamlHeader& h) {
  RawHeader r;
  VelocityGrid& g = r.grid;
  const std::string dims_form = "2 or 3 node counts, each at least 2, e.g. [257, 129]";
  if (const auto dims = h.integers("dims", dims_form)) {
    std::int64_t total = 1;
    bool ok = dims->size() == 2 || dims->size() == 3;
    for (std::int64_t n : *dims) {
      ok = ok && n >= 2 && n <= max_nodes / total;
      if (ok) total *= n;
    }
    if (!ok) {
      h.fail("dims", dims_form + " and at most 2^40 nodes");
    } else {
      g.dimension = static_cast<int>(dims->size());
      for (std::size_t a = 0; a < dims->size(); ++a) g.dims[a] = static_cast<std::size_t>((*dims)[a]);
    }
  }
  const std::size_t dim = static_cast<std::size_t>(g.dimension);
  const std::string spacing_form = "a positive number or one per axis";
  if (const auto s = h.reals("spacing", spacing_form, true, true)) {
    if ((s->size() != 1 && s->size() != dim) || std::any_of(s->begin(), s->end(), [](double v) { return v <= 0; }))
      h.fail("spacing", spacing_form);
    else
      for (std::size_t a = 0; a < dim; ++a) g.spacing[a] = (*s)[s->size() == 1 ? 0 : a];
  }
  if (const auto o = h.reals("origin", "one number per axis", false)) {
    if (o->size() != dim) h.fail("origin", std::to_string(dim) + " numbers, one per axis");
    else std::copy(o->begin(), o->end(), g.origin.begin());
  }
  if (const auto type = h.text("type", "float32 or float64", false)) {
    if (*type == "float32") r.float32 = true;
    else if (*type != "float64") h.fail("type", "float32 or float64");
  }
  if (const auto files = h.texts("files", "a list of raw files, one per snapshot")) r.files = *files;
  if (const auto times = h.reals("times", "increasing times, one per file", false, true)) {
    g.times = *times;
    if (!r.files.empty() && g.times.size() != r.files.size())
      h.problem("times", std::to_string(g.times.size()) + " times for " + std::to_string(r.files.size()) +
                             " files: expected one time per file");
    for (std::size_t k = 1; k < g.times.size(); ++k) {
      if (!(g.times[k] > g.times[k - 1])) {
        h.fail("times", "strictly increasing times");
        break;
      }
    }
  } else if (!h.find("times")) {
    if (r.files.size() > 1) h.problem("files", "several files need their times: expected a key 'times'");
    g.times = {0.0};
  }
  return r;
}

}  // namespace

VelocityGrid read_velocity_raw(const std::filesystem::path& header_path) {
  const std::string header_name = header_path.string();
  const std::vector<char> text = io::read_file_bytes(header_path);
  io::YamlHeader h({text.data(), text.size()}, header_name, {"dims", "spacing", "origin", "type", "files", "times"});
  RawHeader r = parse_header(h);
  h.finish();
  VelocityGrid& g = r.grid;
  const std::size_t width = r.float32 ? 4 : 8;
  const std::size_t values = g.nodes() * static_cast<std::size_t>(g.dimension);
  for (const std::string& file : r.files) {
    const std::filesystem::path path = header_path.parent_path() / file;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
      throw io::IoError(header_name + ":" + std::to_string(h.line("files")) + ": key 'files': cannot read " +
                        quoted(path.string()) + ": " + ec.message());
    if (size != values * width)
      throw FormatError(quoted(path.string()) + " holds " + std::to_string(size) + " bytes, but " + quoted(header_name) +
                        " (" + std::to_string(g.nodes()) + " nodes, " + std::to_string(g.dimension) + " components, " +
                        (r.float32 ? "float32" : "float64") + ") needs " + std::to_string(values * width) + " bytes");
    const std::vector<char> bytes = io::read_file_bytes(path);
    std::vector<double> snapshot(values);
    for (std::size_t i = 0; i < values; ++i) {
      if (r.float32) {
        float f;
        std::memcpy(&f, bytes.data() + 4 * i, 4);
        snapshot[i] = f;
      } else {
        std::memcpy(&snapshot[i], bytes.data() + 8 * i, 8);
      }
    }
    check_finite(g, snapshot, path.string());
    g.snapshots.push_back(std::move(snapshot));
  }
  g.check(header_name);
  return g;
}

VelocityGrid velocity_from_vti(const io::VtkImageData& image, std::string_view array_name, const std::string& source) {
  const io::DataArray* array = nullptr;
  for (const auto& a : image.point_data) {
    if (array_name.empty() ? (a.components == 2 || a.components == 3) : a.name == array_name) {
      array = &a;
      break;
    }
  }
  if (!array) {
    std::string names;
    for (const auto& a : image.point_data) names += (names.empty() ? "" : ", ") + quoted(a.name);
    throw FormatError(quoted(source) + ": no point-data array " +
                      (array_name.empty() ? std::string("of 2 or 3 components") : quoted(std::string(array_name))) +
                      ": expected the velocity" + (names.empty() ? "" : " (arrays: " + names + ")"));
  }
  VelocityGrid g;
  g.dimension = image.dims[2] > 1 ? 3 : 2;
  if (array->components < g.dimension)
    throw FormatError(quoted(source) + ": array " + quoted(array->name) + " has " + std::to_string(array->components) +
                      " components: a " + std::to_string(g.dimension) + "D grid needs " + std::to_string(g.dimension));
  g.dims = image.dims;
  g.origin = image.origin;
  g.spacing = image.spacing;
  if (array->tuples() != g.nodes())
    throw FormatError(quoted(source) + ": array " + quoted(array->name) + " has " + std::to_string(array->tuples()) +
                      " tuples: expected one per point, " + std::to_string(g.nodes()));
  const std::vector<double> all = array->to_double();
  const auto comps = static_cast<std::size_t>(array->components);
  std::vector<double> snapshot;
  snapshot.reserve(g.nodes() * static_cast<std::size_t>(g.dimension));
  for (std::size_t n = 0; n < g.nodes(); ++n)
    for (std::size_t c = 0; c < static_cast<std::size_t>(g.dimension); ++c) snapshot.push_back(all[n * comps + c]);
  check_finite(g, snapshot, source);
  g.snapshots.push_back(std::move(snapshot));
  g.times = {0.0};
  return g;
}

VelocityGrid read_velocity_vti(const std::vector<std::filesystem::path>& files, const std::vector<double>& times,
                               std::string_view array_name) {
  if (files.empty()) throw FormatError("no .vti velocity file: expected at least one");
  if (times.size() != files.size())
    throw FormatError(std::to_string(times.size()) + " times for " + std::to_string(files.size()) +
                      " .vti velocity files: expected one time per file");
  VelocityGrid series;
  for (std::size_t k = 0; k < files.size(); ++k) {
    VelocityGrid one = velocity_from_vti(io::read_vti(files[k]), array_name, files[k].string());
    if (k == 0) {
      series = std::move(one);
      series.times.clear();
    } else if (one.dims != series.dims || one.origin != series.origin || one.spacing != series.spacing) {
      throw FormatError(quoted(files[k].string()) + ": its grid differs from " + quoted(files[0].string()) +
                        "'s: expected every snapshot on the same grid");
    } else {
      series.snapshots.push_back(std::move(one.snapshots.front()));
    }
    series.times.push_back(times[k]);
  }
  series.check(files.front().string());
  return series;
}

}  // namespace hetflow::ftle
