#include "hetflow/ftle/velocity_io.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/hdf5_reader.hpp"
#include "hetflow/io/yaml_header.hpp"

namespace hetflow::ftle {
namespace {

static_assert(std::endian::native == std::endian::little, "raw velocity files are little-endian");

using io::FormatError;

// More nodes than this fit no device; the limit keeps byte counts far from overflow.
constexpr std::int64_t max_nodes = std::int64_t{1} << 40;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Appended piece by piece: "(" + std::to_string(...) trips GCC 12's -Wrestrict false positive.
std::string node_text(const VelocityGrid& g, std::size_t node) {
  std::string s = "(";
  s += std::to_string(node % g.dims[0]);
  s += ", ";
  s += std::to_string(node / g.dims[0] % g.dims[1]);
  if (g.dimension == 3) {
    s += ", ";
    s += std::to_string(node / (g.dims[0] * g.dims[1]));
  }
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
  std::vector<std::vector<double>> snapshots;
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
    snapshots.push_back(std::move(snapshot));
  }
  g.hold(std::move(snapshots));
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
  g.hold({std::move(snapshot)});
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
  std::vector<std::shared_ptr<const void>> storages;  // each file's snapshot, viewed by the series
  for (std::size_t k = 0; k < files.size(); ++k) {
    VelocityGrid one = velocity_from_vti(io::read_vti(files[k]), array_name, files[k].string());
    if (k == 0) {
      series = std::move(one);
      series.times.clear();
    } else if (one.dims != series.dims || one.origin != series.origin || one.spacing != series.spacing) {
      throw FormatError(quoted(files[k].string()) + ": its grid differs from " + quoted(files[0].string()) +
                        "'s: expected every snapshot on the same grid");
    } else {
      series.snapshots.push_back(one.snapshots.front());
    }
    storages.push_back(std::move(one.storage));
    series.times.push_back(times[k]);
  }
  series.storage = std::make_shared<const std::vector<std::shared_ptr<const void>>>(std::move(storages));
  series.check(files.front().string());
  return series;
}

namespace {

// --- HDF5 / NetCDF-4 -------------------------------------------------------------------------------

std::string number_text(double v) { return core::number_text(v, 9); }

// "a, b, c", or "'a', 'b', 'c'" with `quote`.
std::string list_text(const std::vector<std::string>& v, bool quote = false) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + (quote ? quoted(x) : x);
  return s;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s;
  for (const std::size_t n : shape) s += (s.empty() ? "" : ", ") + std::to_string(n);
  return "(" + s + ")";
}

// A file being read, with what every message about it starts with.
struct Hdf5Source {
  io::Hdf5Reader file;
  std::string name;  // the file's path, quoted

  [[noreturn]] void fail(const std::string& what) const { throw FormatError(name + ": " + what); }
};

std::vector<std::string> component_names(const Hdf5Source& src, const Hdf5VelocityOptions& options) {
  std::vector<std::string> names = options.components;
  if (names.empty()) {
    names = {"u", "v"};
    if (src.file.has_dataset("w")) names.emplace_back("w");
  }
  if (names.size() != 2 && names.size() != 3)
    src.fail(std::to_string(names.size()) + " velocity components given (" + list_text(names) +
             "): expected 2 (2D) or 3 (3D)");
  for (std::size_t c = 0; c < names.size(); ++c) {
    const std::string& name = names[c];  // const: std::quoted would win the call on a mutable string
    if (src.file.has_dataset(name)) continue;
    src.fail("no variable " + quoted(name) + " (velocity component " + std::to_string(c + 1) + " of " +
             list_text(names) + "): expected a dataset of that name (datasets: " + list_text(src.file.datasets()) + ")");
  }
  return names;
}

// The components' common shape: rank d ([z,] y, x) or d + 1 (time first) for d components.
std::vector<std::size_t> component_shape(const Hdf5Source& src, const std::vector<std::string>& names) {
  const std::vector<std::size_t> shape = src.file.shape(names[0]);
  const std::size_t d = names.size();
  if (shape.size() != d && shape.size() != d + 1) {
    const std::string axes = d == 2 ? "y, x" : "z, y, x";
    src.fail("variable " + quoted(names[0]) + " has rank " + std::to_string(shape.size()) + ", shape " +
             shape_text(shape) + ": " + std::to_string(d) + " velocity components need rank " + std::to_string(d) +
             " (" + axes + ") or " + std::to_string(d + 1) + " (time, " + axes + ")");
  }
  for (std::size_t c = 1; c < d; ++c) {
    const auto other = src.file.shape(names[c]);
    if (other != shape)
      src.fail("variable " + quoted(names[c]) + " has shape " + shape_text(other) + " but " + quoted(names[0]) +
               " has " + shape_text(shape) + ": expected every velocity component on the same grid");
  }
  return shape;
}

// The coordinate variable of one axis of the first component: the dataset its netCDF dimension names,
// else the first of the conventional names the file has; "" when there is none.
std::string coordinate_name(const Hdf5Source& src, const std::vector<io::Hdf5Dimension>& dims, std::size_t axis,
                            const std::vector<std::string>& conventional) {
  if (axis < dims.size() && dims[axis].coordinates) return dims[axis].name;
  for (const std::string& n : conventional)
    if (src.file.has_dataset(n)) return n;
  return {};
}

std::string missing_coordinate(const std::vector<io::Hdf5Dimension>& dims, std::size_t axis,
                               const std::vector<std::string>& conventional) {
  std::string text = "expected a 1-D variable named " + list_text(conventional, true);
  if (axis < dims.size() && !dims[axis].name.empty())
    text += ", or a coordinate variable for the netCDF dimension " + quoted(dims[axis].name);
  return text;
}

// A coordinate variable's values, one per node along its axis, finite and strictly increasing.
io::Hdf5Dataset increasing_coordinate(const Hdf5Source& src, const std::string& name, std::size_t length,
                                      const std::string& axis_text) {
  io::Hdf5Dataset c = src.file.read(name);
  if (c.dims.size() != 1 || c.dims[0] != length)
    src.fail("coordinate variable " + quoted(name) + " has shape " + shape_text(c.dims) + ": expected one value per " +
             axis_text + ", (" + std::to_string(length) + ")");
  const std::vector<double>& x = c.values;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isfinite(x[i]) && (i == 0 || x[i] > x[i - 1])) continue;
    src.fail("coordinate variable " + quoted(name) + " is not strictly increasing: " + name + "[" + std::to_string(i) +
             "] = " + number_text(x[i]) + (i ? " after " + name + "[" + std::to_string(i - 1) + "] = " +
                                                   number_text(x[i - 1]) : std::string()) +
             ": expected finite, strictly increasing values");
  }
  return c;
}

// Origin and spacing of a spatial axis. Every value must lie within 1e-6 of the spacing (plus the
// rounding of its stored type, so float32 longitudes pass) of equal steps from the first to the last.
std::pair<double, double> uniform_axis(const Hdf5Source& src, const std::string& name, std::size_t length,
                                       const std::string& axis_text) {
  const io::Hdf5Dataset c = increasing_coordinate(src, name, length, axis_text);
  const std::vector<double>& x = c.values;
  const std::size_t last = x.size() - 1;
  const double h = (x[last] - x[0]) / static_cast<double>(last);
  const double tolerance = 1e-6 * h + 4 * c.rounding * std::max(std::abs(x[0]), std::abs(x[last]));
  for (std::size_t i = 1; i < last; ++i) {
    const double expected = x[0] + static_cast<double>(i) * h;
    if (std::abs(x[i] - expected) <= tolerance) continue;
    src.fail("coordinate variable " + quoted(name) + " is not uniformly spaced: " + name + "[" + std::to_string(i) +
             "] = " + number_text(x[i]) + ", but equal steps of " + number_text(h) + " from " + name + "[0] = " +
             number_text(x[0]) + " to " + name + "[" + std::to_string(last) + "] = " + number_text(x[last]) +
             " put " + number_text(expected) + " there: expected uniform spacing (within 1e-6 of a step)");
  }
  return {x[0], h};
}

// Origin, spacing and node counts from the spatial axes; shape is the components' (time first if any).
void read_axes(const Hdf5Source& src, const std::string& first, const std::vector<std::size_t>& shape,
               const std::vector<io::Hdf5Dimension>& dims, VelocityGrid& g) {
  static const std::vector<std::string> conventional[3] = {{"x", "lon", "longitude"}, {"y", "lat", "latitude"}, {"z"}};
  for (std::size_t a = 0; a < static_cast<std::size_t>(g.dimension); ++a) {
    const std::size_t axis = shape.size() - 1 - a;  // x is the last (fastest) axis
    const std::string axis_text = "node along the " + std::string(1, "xyz"[a]) + " axis (axis " +
                                  std::to_string(axis) + " of " + quoted(first) + ")";
    const std::string name = coordinate_name(src, dims, axis, conventional[a]);
    if (name.empty())
      src.fail("no coordinate variable for the " + std::string(1, "xyz"[a]) + " axis of " + quoted(first) + " (axis " +
               std::to_string(axis) + ", " + std::to_string(shape[axis]) + " nodes): " +
               missing_coordinate(dims, axis, conventional[a]));
    if (shape[axis] < 2)
      src.fail("variable " + quoted(first) + " has " + std::to_string(shape[axis]) + " node along the " +
               std::string(1, "xyz"[a]) + " axis: expected at least 2");
    g.dims[a] = shape[axis];
    std::tie(g.origin[a], g.spacing[a]) = uniform_axis(src, name, shape[axis], axis_text);
  }
}

// The snapshots' times: the time variable when the components have a time axis (optional for one
// snapshot), else the single steady snapshot at 0.
std::vector<double> read_times(const Hdf5Source& src, const std::string& first, const std::vector<std::size_t>& shape,
                               const std::vector<io::Hdf5Dimension>& dims, int dimension) {
  if (shape.size() == static_cast<std::size_t>(dimension)) return {0.0};
  static const std::vector<std::string> conventional{"time", "t"};
  const std::string name = coordinate_name(src, dims, 0, conventional);
  if (name.empty()) {
    if (shape[0] == 1) return {0.0};
    src.fail(std::to_string(shape[0]) + " snapshots along the first axis of " + quoted(first) +
             " need their times: " + missing_coordinate(dims, 0, conventional) + ", increasing, one per snapshot");
  }
  return increasing_coordinate(src, name, shape[0], "snapshot (axis 0 of " + quoted(first) + ")").values;
}

// How a component's stored values become velocities, and which stored values mark missing data.
struct Packing {
  std::vector<double> missing;  // _FillValue and missing_value
  double scale = 1, offset = 0;
};

Packing packing_of(const Hdf5Source& src, const std::string& var) {
  Packing p;
  for (const char* key : {"_FillValue", "missing_value"})
    if (auto v = src.file.number_attribute(var, key)) p.missing.insert(p.missing.end(), v->begin(), v->end());
  if (auto v = src.file.number_attribute(var, "scale_factor"); v && !v->empty()) p.scale = v->front();
  if (auto v = src.file.number_attribute(var, "add_offset"); v && !v->empty()) p.offset = v->front();
  return p;
}

// Fills component c of every snapshot of `g` from its dataset, refusing missing and non-finite values.
void read_component(const Hdf5Source& src, const std::string& var, std::size_t c, const VelocityGrid& g,
                    std::vector<std::vector<double>>& snapshots) {
  const Packing p = packing_of(src, var);
  const std::vector<double> stored = src.file.read(var).values;
  const std::size_t nodes = g.nodes(), dim = static_cast<std::size_t>(g.dimension);
  for (std::size_t k = 0; k < g.times.size(); ++k) {
    std::vector<double>& snap = snapshots[k];
    for (std::size_t n = 0; n < nodes; ++n) {
      const double raw = stored[k * nodes + n];
      const bool missing = std::find(p.missing.begin(), p.missing.end(), raw) != p.missing.end();
      const double v = raw * p.scale + p.offset;
      if (missing || !std::isfinite(v))
        src.fail("variable " + quoted(var) + " is " + number_text(raw) + (missing ? " (its fill or missing value)" : "") +
                 " at node " + node_text(g, n) + " of snapshot " + std::to_string(k) + " (t = " +
                 number_text(g.times[k]) + "): expected a finite velocity at every node");
      snap[n * dim + c] = v;
    }
  }
}

}  // namespace

bool is_hdf5_velocity_file(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  return ext == ".h5" || ext == ".hdf5" || ext == ".nc";
}

VelocityGrid read_velocity_hdf5(const std::filesystem::path& file, const Hdf5VelocityOptions& options) {
  const Hdf5Source src{io::Hdf5Reader(file), quoted(file.string())};
  const std::vector<std::string> names = component_names(src, options);
  const std::vector<std::size_t> shape = component_shape(src, names);
  const std::vector<io::Hdf5Dimension> dims = src.file.dimensions(names[0]);
  VelocityGrid g;
  g.dimension = static_cast<int>(names.size());
  read_axes(src, names[0], shape, dims, g);
  g.times = read_times(src, names[0], shape, dims, g.dimension);
  std::vector<std::vector<double>> snapshots(g.times.size(), std::vector<double>(g.nodes() * names.size()));
  for (std::size_t c = 0; c < names.size(); ++c) read_component(src, names[c], c, g, snapshots);
  g.hold(std::move(snapshots));
  g.check(file.string());
  return g;
}

}  // namespace hetflow::ftle
