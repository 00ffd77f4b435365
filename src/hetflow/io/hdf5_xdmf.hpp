#pragma once
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "hetflow/io/field.hpp"
#include "hetflow/io/hdf5_reader.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::io {

// Uniform-grid fields as HDF5 datasets described by an XDMF 3 file that ParaView opens (Xdmf3 reader).
// Each field becomes the dataset "/<name>" of shape (nz, ny, nx) or (nz, ny, nx, components) — C order,
// so x is fastest exactly as in memory and a 2-D grid is (1, ny, nx); the .xmf describes it as a
// 3DCoRectMesh with ORIGIN_DXDYDZ geometry, a flat grid with cell data alone one cell thick. Cell data
// has the grid's cell counts per axis.
// Both files are written atomically, the .h5 first, so an .xmf never names a missing .h5.
// Without HDF5 at build time every writer and reader here throws IoError ("built without HDF5").

bool hdf5_available();

// Writes <base>.h5 and <base>.xmf (any extension of `base` is replaced).
void write_hdf5_xdmf(const std::filesystem::path& base, const ImageGrid& grid, std::span<const Field> point_data,
                     std::span<const Field> cell_data = {});

// A time series: the step numbered `number` (a solver's step, as in the .vti series' names) goes to
// <stem>_<number, at least 6 digits>.h5 and the .xmf — a temporal collection of all steps so far — is
// rewritten atomically after each step, so a stopped run leaves a valid series.
class XdmfSeries {
 public:
  explicit XdmfSeries(std::filesystem::path xmf_path);
  // Returns the path of the .h5 written for this step.
  std::filesystem::path add(std::size_t number, double time, const ImageGrid& grid,
                            std::span<const Field> point_data, std::span<const Field> cell_data = {});
  std::size_t steps() const { return steps_.size(); }
  const std::filesystem::path& path() const { return path_; }

  struct FieldInfo {
    std::string name;
    int components;
    ScalarType type;
    bool cell;
  };
  struct Step {
    double time;
    std::string h5_name;  // relative to the .xmf
    ImageGrid grid;
    std::vector<FieldInfo> fields;
  };

 private:
  std::filesystem::path path_;
  std::vector<Step> steps_;
};

// Reads one dataset (e.g. "/rho") back, for tests and post-processing (Hdf5Reader reads more).
Hdf5Dataset read_hdf5_dataset(const std::filesystem::path& path, const std::string& dataset);

}  // namespace hetflow::io
