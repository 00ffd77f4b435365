#include "hetflow/io/hdf5_reader.hpp"

#include <array>
#include <cmath>
#include <fstream>

#include "hetflow/io/error.hpp"
#include "hetflow/io/hdf5_handle.hpp"

namespace hetflow::io {
namespace {

[[maybe_unused]] std::string quoted(const std::string& s) { return "'" + s + "'"; }

// What the first bytes of a file that HDF5 refused say it is: NetCDF-3 gets its own advice, since
// the NetCDF-4 format hetflow reads is one conversion away.
[[maybe_unused]] std::string not_hdf5_reason(const std::filesystem::path& path) {
  std::array<char, 4> magic{};
  std::ifstream(path, std::ios::binary).read(magic.data(), magic.size());
  const bool netcdf3 = magic[0] == 'C' && magic[1] == 'D' && magic[2] == 'F' &&
                       (magic[3] == 1 || magic[3] == 2 || magic[3] == 5);
  if (!netcdf3) return "not an HDF5 file (nor NetCDF-4, which is HDF5)";
  return "a NetCDF-3 classic file (format " + std::to_string(int{magic[3]}) +
         "), which hetflow does not read: expected HDF5 or NetCDF-4; convert it with `nccopy -k nc4 " +
         path.string() + " " + path.stem().string() + "_nc4.nc`";
}

}  // namespace

#ifdef HETFLOW_HAVE_HDF5

using hdf5::Handle;

struct Hdf5Reader::Impl {
  Handle file;

  [[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) const {
    throw FormatError("cannot read " + quoted(path.string()) + ": " + what);
  }

  // The dataset, or nothing when the path does not lead to one (a missing group on the way included).
  Handle try_open(const std::string& name) const {
    if (name.empty() || H5Lexists(file.get(), name.c_str(), H5P_DEFAULT) <= 0) return {-1, H5Dclose};
    return {H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), H5Dclose};
  }
  Handle open(const std::filesystem::path& path, const std::string& name) const {
    Handle ds = try_open(name);
    if (!ds.ok()) fail(path, "no dataset " + quoted(name));
    return ds;
  }
};

namespace {

std::vector<std::size_t> extent(hid_t space) {
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0 || rank > H5S_MAX_RANK) return {};
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return {dims.begin(), dims.end()};
}

bool numeric(hid_t type) {
  const H5T_class_t c = H5Tget_class(type);
  return c == H5T_INTEGER || c == H5T_FLOAT;
}

// Half a unit in the last place of the stored floating type, relative; integers are exact.
double rounding_of(hid_t type) {
  if (H5Tget_class(type) != H5T_FLOAT) return 0;
  std::size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
  if (H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize) < 0) return 0;
  return std::ldexp(1.0, -static_cast<int>(msize) - 1);
}

// A fixed-length string attribute's text; empty when absent or of another kind.
std::string text_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return {};
  Handle attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Handle type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.ok() || H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) != 0) return {};
  std::string text(H5Tget_size(type.get()), '\0');
  if (H5Aread(attr.get(), type.get(), text.data()) < 0) return {};
  return text.substr(0, text.find('\0'));
}

// NetCDF-4 stores a dimension without a coordinate variable as a dataset whose NAME says so.
bool netcdf_dimension_only(hid_t dataset) {
  return text_attribute(dataset, "NAME").starts_with("This is a netCDF dimension but not a netCDF variable");
}

// The object an object reference points at, by its path without the leading '/'.
Hdf5Dimension referenced_dimension(hid_t from, const hobj_ref_t& ref) {
  Handle obj(H5Rdereference2(from, H5P_DEFAULT, H5R_OBJECT, &ref), H5Oclose);
  if (!obj.ok()) return {};
  const ssize_t n = H5Iget_name(obj.get(), nullptr, 0);
  std::string name(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) H5Iget_name(obj.get(), name.data(), name.size() + 1);
  if (name.starts_with('/')) name.erase(0, 1);
  const bool values = H5Iget_type(obj.get()) == H5I_DATASET && !netcdf_dimension_only(obj.get());
  return {name, values};
}

}  // namespace

Hdf5Reader::Hdf5Reader(const std::filesystem::path& path) : path_(path) {
  hdf5::QuietErrors quiet;
  if (!std::filesystem::is_regular_file(path)) throw IoError("cannot read " + quoted(path.string()) + ": no such file");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) throw FormatError("cannot read " + quoted(path.string()) + ": " + not_hdf5_reason(path));
  impl_ = std::make_unique<Impl>(Impl{std::move(file)});
}

Hdf5Reader::~Hdf5Reader() {
  hdf5::QuietErrors quiet;
  impl_.reset();
}
Hdf5Reader::Hdf5Reader(Hdf5Reader&&) noexcept = default;
Hdf5Reader& Hdf5Reader::operator=(Hdf5Reader&&) noexcept = default;

std::vector<std::string> Hdf5Reader::datasets() const {
  hdf5::QuietErrors quiet;
  H5G_info_t info{};
  if (H5Gget_info(impl_->file.get(), &info) < 0) impl_->fail(path_, "its root group cannot be listed");
  std::vector<std::string> names;
  for (hsize_t k = 0; k < info.nlinks; ++k) {
    const ssize_t n = H5Lget_name_by_idx(impl_->file.get(), ".", H5_INDEX_NAME, H5_ITER_INC, k, nullptr, 0, H5P_DEFAULT);
    if (n <= 0) continue;
    std::string name(static_cast<std::size_t>(n), '\0');
    H5Lget_name_by_idx(impl_->file.get(), ".", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size() + 1, H5P_DEFAULT);
    if (impl_->try_open(name).ok()) names.push_back(name);
  }
  return names;
}

bool Hdf5Reader::has_dataset(const std::string& name) const {
  hdf5::QuietErrors quiet;
  return impl_->try_open(name).ok();
}

std::vector<std::size_t> Hdf5Reader::shape(const std::string& name) const {
  hdf5::QuietErrors quiet;
  const Handle ds = impl_->open(path_, name);
  const Handle space(H5Dget_space(ds.get()), H5Sclose);
  return extent(space.get());
}

Hdf5Dataset Hdf5Reader::read(const std::string& name) const {
  hdf5::QuietErrors quiet;
  const Handle ds = impl_->open(path_, name);
  const Handle type(H5Dget_type(ds.get()), H5Tclose);
  if (!numeric(type.get())) impl_->fail(path_, "dataset " + quoted(name) + " does not hold numbers");
  const Handle space(H5Dget_space(ds.get()), H5Sclose);
  Hdf5Dataset out;
  out.dims = extent(space.get());
  out.rounding = rounding_of(type.get());
  const auto n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) impl_->fail(path_, "dataset " + quoted(name) + " has an unreadable shape");
  out.values.resize(static_cast<std::size_t>(n));
  if (n > 0 && H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) < 0)
    impl_->fail(path_, "dataset " + quoted(name) + " could not be read as numbers");
  return out;
}

std::optional<std::vector<double>> Hdf5Reader::number_attribute(const std::string& dataset,
                                                                const std::string& name) const {
  hdf5::QuietErrors quiet;
  const Handle ds = impl_->open(path_, dataset);
  if (H5Aexists(ds.get(), name.c_str()) <= 0) return std::nullopt;
  const Handle attr(H5Aopen(ds.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  const Handle type(H5Aget_type(attr.get()), H5Tclose);
  const Handle space(H5Aget_space(attr.get()), H5Sclose);
  const auto n = H5Sget_simple_extent_npoints(space.get());
  const std::string what = "attribute " + quoted(name) + " of " + quoted(dataset);
  if (!numeric(type.get()) || n < 0) impl_->fail(path_, what + " does not hold numbers");
  std::vector<double> values(static_cast<std::size_t>(n));
  if (n > 0 && H5Aread(attr.get(), H5T_NATIVE_DOUBLE, values.data()) < 0) impl_->fail(path_, what + " could not be read");
  return values;
}

std::vector<Hdf5Dimension> Hdf5Reader::dimensions(const std::string& dataset) const {
  hdf5::QuietErrors quiet;
  const Handle ds = impl_->open(path_, dataset);
  if (H5Aexists(ds.get(), "DIMENSION_LIST") <= 0) return {};
  const Handle attr(H5Aopen(ds.get(), "DIMENSION_LIST", H5P_DEFAULT), H5Aclose);
  const Handle space(H5Aget_space(attr.get()), H5Sclose);
  const Handle type(H5Tvlen_create(H5T_STD_REF_OBJ), H5Tclose);
  const auto n = H5Sget_simple_extent_npoints(space.get());
  if (n <= 0) return {};
  std::vector<hvl_t> lists(static_cast<std::size_t>(n));
  if (H5Aread(attr.get(), type.get(), lists.data()) < 0)
    impl_->fail(path_, "the DIMENSION_LIST of " + quoted(dataset) + " could not be read");
  std::vector<Hdf5Dimension> dims;
  for (const hvl_t& list : lists)
    dims.push_back(list.len > 0 ? referenced_dimension(ds.get(), *static_cast<const hobj_ref_t*>(list.p))
                                : Hdf5Dimension{});
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, lists.data());
  return dims;
}

#else

struct Hdf5Reader::Impl {};

Hdf5Reader::Hdf5Reader(const std::filesystem::path& path) : path_(path) {
  throw IoError("cannot read " + quoted(path.string()) + ": hetflow was built without HDF5");
}
Hdf5Reader::~Hdf5Reader() = default;
Hdf5Reader::Hdf5Reader(Hdf5Reader&&) noexcept = default;
Hdf5Reader& Hdf5Reader::operator=(Hdf5Reader&&) noexcept = default;
std::vector<std::string> Hdf5Reader::datasets() const { return {}; }
bool Hdf5Reader::has_dataset(const std::string&) const { return false; }
std::vector<std::size_t> Hdf5Reader::shape(const std::string&) const { return {}; }
Hdf5Dataset Hdf5Reader::read(const std::string&) const { return {}; }
std::optional<std::vector<double>> Hdf5Reader::number_attribute(const std::string&, const std::string&) const {
  return std::nullopt;
}
std::vector<Hdf5Dimension> Hdf5Reader::dimensions(const std::string&) const { return {}; }

#endif

}  // namespace hetflow::io
