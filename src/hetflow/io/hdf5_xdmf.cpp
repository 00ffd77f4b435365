#include "hetflow/io/hdf5_xdmf.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>
#include <utility>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/xml_text.hpp"

#include "hetflow/io/hdf5_handle.hpp"
#include "hetflow/io/hdf5_reader.hpp"

namespace hetflow::io {
namespace {

using FieldInfo = XdmfSeries::FieldInfo;
using Step = XdmfSeries::Step;

[[noreturn, maybe_unused]] void no_hdf5(const std::filesystem::path& path) {
  throw IoError("cannot write or read '" + path.string() + "': hetflow was built without HDF5");
}

std::array<std::size_t, 3> cell_dims(const ImageGrid& g) {
  std::array<std::size_t, 3> d{};
  for (std::size_t a = 0; a < 3; ++a) d[a] = g.dims[a] > 1 ? g.dims[a] - 1 : 1;
  return d;
}

// The shape a field is stored with: slowest axis first.
std::vector<std::size_t> field_shape(const ImageGrid& g, const FieldInfo& f) {
  const auto d = f.cell ? cell_dims(g) : g.dims;
  std::vector<std::size_t> shape{d[2], d[1], d[0]};
  if (f.components != 1) shape.push_back(static_cast<std::size_t>(f.components));
  return shape;
}

std::string join(const std::vector<std::size_t>& v) {
  std::string s;
  for (const auto x : v) {
    if (!s.empty()) s += ' ';
    s += std::to_string(x);
  }
  return s;
}

std::string number_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return "NumberType=\"Float\" Precision=\"4\"";
    case ScalarType::Float64: return "NumberType=\"Float\" Precision=\"8\"";
    case ScalarType::Int32: return "NumberType=\"Int\" Precision=\"4\"";
    case ScalarType::UInt8: return "NumberType=\"UChar\" Precision=\"1\"";
    default: return "NumberType=\"Float\" Precision=\"8\"";
  }
}

std::string attribute_type(int components) {
  switch (components) {
    case 1: return "Scalar";
    case 3: return "Vector";
    case 9: return "Tensor";
    default: return "Matrix";
  }
}

std::string grid_xml(const Step& s, const std::string& indent, bool with_time) {
  const ImageGrid& g = s.grid;
  // XDMF counts a mesh's cells as its nodes − 1 along each axis, so a flat grid whose fields are all cell
  // data is described one cell thick (two nodes in z); otherwise its cells would number zero.
  const bool cells_only = std::all_of(s.fields.begin(), s.fields.end(), [](const FieldInfo& f) { return f.cell; });
  const std::size_t nz = g.dims[2] == 1 && !s.fields.empty() && cells_only ? 2 : g.dims[2];
  const std::string dims = join({nz, g.dims[1], g.dims[0]});
  std::string x = indent + "<Grid Name=\"grid\" GridType=\"Uniform\">\n";
  if (with_time) x += indent + "  <Time Value=\"" + format_double(s.time) + "\"/>\n";
  x += indent + "  <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" + dims + "\"/>\n";
  x += indent + "  <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n";
  x += indent + "    <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">" +
       format_double(g.origin[2]) + " " + format_double(g.origin[1]) + " " + format_double(g.origin[0]) +
       "</DataItem>\n";
  x += indent + "    <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">" +
       format_double(g.spacing[2]) + " " + format_double(g.spacing[1]) + " " + format_double(g.spacing[0]) +
       "</DataItem>\n";
  x += indent + "  </Geometry>\n";
  for (const auto& f : s.fields) {
    x += indent + "  <Attribute Name=\"" + xml_escape(f.name) + "\" AttributeType=\"" + attribute_type(f.components) +
         "\" Center=\"" + (f.cell ? "Cell" : "Node") + "\">\n";
    x += indent + "    <DataItem Dimensions=\"" + join(field_shape(g, f)) + "\" " + number_type(f.type) +
         " Format=\"HDF\">" + xml_escape(s.h5_name) + ":/" + xml_escape(f.name) + "</DataItem>\n";
    x += indent + "  </Attribute>\n";
  }
  x += indent + "</Grid>\n";
  return x;
}

std::string xdmf_header() {
  return "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n<Xdmf Version=\"3.0\">\n  <Domain>\n";
}
std::string xdmf_footer() { return "  </Domain>\n</Xdmf>\n"; }

std::vector<FieldInfo> describe(const std::filesystem::path& path, const ImageGrid& grid,
                                std::span<const Field> point_data, std::span<const Field> cell_data) {
  std::vector<FieldInfo> out;
  std::set<std::string> names;
  auto add = [&](const Field& f, bool cell) {
    const std::string prefix = "cannot write '" + path.string() + "': field '" + f.name + "' ";
    if (f.name.empty() || f.name.find('/') != std::string::npos || f.name == "." || f.name == "..")
      throw IoError(prefix + "needs a name without '/' to become an HDF5 dataset");
    if (!names.insert(f.name).second) throw IoError(prefix + "appears twice (point and cell data share one file)");
    if (f.components < 1) throw IoError(prefix + "has no components");
    const std::size_t tuples = cell ? grid.cell_count() : grid.point_count();
    if (f.size() != tuples * static_cast<std::size_t>(f.components))
      throw IoError(prefix + "has " + std::to_string(f.size()) + " values, expected " +
                    std::to_string(tuples * static_cast<std::size_t>(f.components)));
    out.push_back({f.name, f.components, f.type(), cell});
  };
  for (const auto& f : point_data) add(f, false);
  for (const auto& f : cell_data) add(f, true);
  for (const auto d : grid.dims)
    if (d == 0) throw IoError("cannot write '" + path.string() + "': grid dimensions must be at least 1");
  return out;
}

#ifdef HETFLOW_HAVE_HDF5

using hdf5::Handle;

hid_t native_type(ScalarType t) {
  switch (t) {
    case ScalarType::Float32: return H5T_NATIVE_FLOAT;
    case ScalarType::Float64: return H5T_NATIVE_DOUBLE;
    case ScalarType::Int32: return H5T_NATIVE_INT32;
    case ScalarType::UInt8: return H5T_NATIVE_UINT8;
    default: return H5T_NATIVE_DOUBLE;
  }
}

void write_h5(const std::filesystem::path& h5_path, const ImageGrid& grid, const std::vector<FieldInfo>& infos,
              std::span<const Field> point_data, std::span<const Field> cell_data) {
  hdf5::QuietErrors quiet;
  AtomicFile file(h5_path);
  auto fail = [&](const std::string& what) { return IoError("cannot write '" + h5_path.string() + "': " + what); };
  // No creation times in the object headers: a run repeated writes the same bytes.
  Handle file_props(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
  Handle dataset_props(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (!file_props.ok() || !dataset_props.ok() || H5Pset_obj_track_times(file_props.get(), false) < 0 ||
      H5Pset_obj_track_times(dataset_props.get(), false) < 0)
    throw fail("HDF5 could not make the creation property lists");
  Handle h5(H5Fcreate(file.temp_path().c_str(), H5F_ACC_TRUNC, file_props.get(), H5P_DEFAULT), H5Fclose);
  if (!h5.ok()) throw fail("HDF5 could not create the file");
  std::size_t k = 0;
  auto write_one = [&](const Field& f) {
    const auto shape = field_shape(grid, infos[k++]);
    std::vector<hsize_t> hdims(shape.begin(), shape.end());
    Handle space(H5Screate_simple(static_cast<int>(hdims.size()), hdims.data(), nullptr), H5Sclose);
    if (!space.ok()) throw fail("HDF5 could not create a dataspace for '" + f.name + "'");
    const hid_t type = native_type(f.type());
    const std::string dname = "/" + f.name;
    Handle ds(H5Dcreate2(h5.get(), dname.c_str(), type, space.get(), H5P_DEFAULT, dataset_props.get(), H5P_DEFAULT), H5Dclose);
    if (!ds.ok()) throw fail("HDF5 could not create dataset '" + dname + "'");
    if (f.size() > 0 && H5Dwrite(ds.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, f.bytes()) < 0)
      throw fail("HDF5 could not write dataset '" + dname + "'");
  };
  for (const auto& f : point_data) write_one(f);
  for (const auto& f : cell_data) write_one(f);
  if (h5.release() < 0) throw fail("HDF5 could not close the file");
  file.commit();
}

#endif

}  // namespace

bool hdf5_available() {
#ifdef HETFLOW_HAVE_HDF5
  return true;
#else
  return false;
#endif
}

void write_hdf5_xdmf(const std::filesystem::path& base, const ImageGrid& grid, std::span<const Field> point_data,
                     std::span<const Field> cell_data) {
  std::filesystem::path h5 = base;
  h5.replace_extension(".h5");
  std::filesystem::path xmf = base;
  xmf.replace_extension(".xmf");
#ifdef HETFLOW_HAVE_HDF5
  Step step{0.0, h5.filename().string(), grid, describe(h5, grid, point_data, cell_data)};
  write_h5(h5, grid, step.fields, point_data, cell_data);
  write_file_atomically(xmf, xdmf_header() + grid_xml(step, "    ", false) + xdmf_footer());
#else
  (void)grid;
  (void)point_data;
  (void)cell_data;
  no_hdf5(h5);
#endif
}

XdmfSeries::XdmfSeries(std::filesystem::path xmf_path) : path_(std::move(xmf_path)) {}

std::filesystem::path XdmfSeries::add(std::size_t number, double time, const ImageGrid& grid,
                                      std::span<const Field> point_data, std::span<const Field> cell_data) {
  std::array<char, 32> index{};
  std::snprintf(index.data(), index.size(), "_%06zu", number);
  const std::string h5_name = path_.stem().string() + index.data() + ".h5";
  const std::filesystem::path h5 = path_.parent_path() / h5_name;
#ifdef HETFLOW_HAVE_HDF5
  Step step{time, h5_name, grid, describe(h5, grid, point_data, cell_data)};
  write_h5(h5, grid, step.fields, point_data, cell_data);
  steps_.push_back(std::move(step));
  std::string xml = xdmf_header() + "    <Grid Name=\"series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& s : steps_) xml += grid_xml(s, "      ", true);
  xml += "    </Grid>\n" + xdmf_footer();
  write_file_atomically(path_, xml);
  return h5;
#else
  (void)number;
  (void)time;
  (void)grid;
  (void)point_data;
  (void)cell_data;
  no_hdf5(h5);
#endif
}

Hdf5Dataset read_hdf5_dataset(const std::filesystem::path& path, const std::string& dataset) {
  return Hdf5Reader(path).read(dataset);
}

}  // namespace hetflow::io
