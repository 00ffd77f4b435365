// Writing velocity files as HDF5 / NetCDF-4 would, straight through the HDF5 C API, for tests of
// ftle::read_velocity_hdf5 (an independent writer: the library's io layer is the reader under test).
#pragma once
#ifdef HETFLOW_HAVE_HDF5
#include <hdf5.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetflow/ftle/velocity_grid.hpp"

namespace hetflow::ftle::test {

class Hdf5File {
 public:
  explicit Hdf5File(const std::filesystem::path& path)
      : file_(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {
    if (file_ < 0) throw std::runtime_error("test: cannot create " + path.string());
  }
  ~Hdf5File() { H5Fclose(file_); }
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  // A dataset of shape `dims` (slowest first) stored as float32 when `single`, else float64.
  void dataset(const std::string& name, const std::vector<hsize_t>& dims, const std::vector<double>& values,
               bool single = false) const {
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t ds = H5Dcreate2(file_, name.c_str(), single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());  // HDF5 converts
    H5Dclose(ds);
    H5Sclose(space);
  }

  void attribute(const std::string& dataset, const std::string& name, double value, bool single = false) const {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attr = H5Acreate_by_name(file_, dataset.c_str(), name.c_str(), single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE,
                                         space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_DOUBLE, &value);
    H5Aclose(attr);
    H5Sclose(space);
  }

  // A fixed-length string attribute, as NetCDF-4 writes NAME on its dimension scales.
  void text_attribute(const std::string& dataset, const std::string& name, const std::string& text) const {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, text.size() + 1);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attr = H5Acreate_by_name(file_, dataset.c_str(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT,
                                         H5P_DEFAULT);
    H5Awrite(attr, type, text.c_str());
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
  }

  // The DIMENSION_LIST NetCDF-4 gives a variable: per axis a list of one reference to the dataset
  // that is that axis's dimension.
  void dimension_list(const std::string& dataset, const std::vector<std::string>& scales) const {
    std::vector<hobj_ref_t> refs(scales.size());
    std::vector<hvl_t> lists(scales.size());
    for (std::size_t a = 0; a < scales.size(); ++a) {
      H5Rcreate(&refs[a], file_, scales[a].c_str(), H5R_OBJECT, -1);
      lists[a] = {1, &refs[a]};
    }
    const hid_t type = H5Tvlen_create(H5T_STD_REF_OBJ);
    const hsize_t n = scales.size();
    const hid_t space = H5Screate_simple(1, &n, nullptr);
    const hid_t attr = H5Acreate_by_name(file_, dataset.c_str(), "DIMENSION_LIST", type, space, H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, type, lists.data());
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
  }

 private:
  hid_t file_;
};

// The nodes' coordinates along one axis of a grid, as sample_on_grid computes them.
inline std::vector<double> axis_coordinates(const VelocityGrid& g, std::size_t axis) {
  std::vector<double> x(g.dims[axis]);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = g.origin[axis] + static_cast<double>(i) * g.spacing[axis];
  return x;
}

// One component of every snapshot, (time, [z,] y, x) in C order.
inline std::vector<double> component_values(const VelocityGrid& g, std::size_t c) {
  std::vector<double> out;
  const auto dim = static_cast<std::size_t>(g.dimension);
  for (const auto& snap : g.snapshots)
    for (std::size_t n = 0; n < g.nodes(); ++n) out.push_back(snap[n * dim + c]);
  return out;
}

// A grid as a file: variables u, v[, w] shaped (time, [z,] y, x) (without the time axis when
// `steady`), coordinates x, y[, z] and time; float32 when `single`.
inline void write_velocity_h5(const std::filesystem::path& path, const VelocityGrid& g, bool single,
                              bool steady = false) {
  const Hdf5File f(path);
  const auto dim = static_cast<std::size_t>(g.dimension);
  std::vector<hsize_t> shape;
  if (!steady) shape.push_back(g.times.size());
  for (std::size_t a = dim; a-- > 0;) shape.push_back(g.dims[a]);
  for (std::size_t c = 0; c < dim; ++c)
    f.dataset(std::string(1, "uvw"[c]), shape, component_values(g, c), single);
  for (std::size_t a = 0; a < dim; ++a)
    f.dataset(std::string(1, "xyz"[a]), {g.dims[a]}, axis_coordinates(g, a), single);
  if (!steady) f.dataset("time", {g.times.size()}, g.times, single);
}

}  // namespace hetflow::ftle::test
#endif
