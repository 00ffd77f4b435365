#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/ftle/velocity_grid.hpp"
#include "hetflow/io/vtk_reader.hpp"

namespace hetflow::ftle {

// Reading gridded velocity. Content errors raise io::FormatError, missing or unreadable files
// io::IoError; every message names the file, and for headers the line, the key and the expected form.
// Non-finite velocities are errors here, named by file, node and component.

// A raw velocity series through its YAML header (docs/ftle.md), e.g.
//   dims: [257, 129]          # nodes per axis; 2 or 3 entries = 2D or 3D (and as many components)
//   spacing: 0.0078125        # one number or one per axis
//   origin: [0.0, 0.0]        # optional (zeros)
//   type: float32             # optional: float32 | float64 (default); little-endian
//   files: [u000.raw, u001.raw]   # one per snapshot, relative to the header's folder
//   times: [0.0, 0.1]         # one per file, increasing; optional with a single (steady) file
// Each file holds the components of a node together (u, v[, w]), nodes x-fastest.
VelocityGrid read_velocity_raw(const std::filesystem::path& header_path);

// One snapshot from a .vti point-data array of 2 or 3 components (`array_name`, or the first such array).
// A grid with one point along z is 2D (a third component, as VTK's vectors carry, is dropped).
VelocityGrid velocity_from_vti(const io::VtkImageData& image, std::string_view array_name, const std::string& source);

// A series of .vti files, one per snapshot at `times` (one time per file; one file is steady). All files
// must share the grid.
VelocityGrid read_velocity_vti(const std::vector<std::filesystem::path>& files, const std::vector<double>& times,
                               std::string_view array_name = {});

// The variables of an HDF5 or NetCDF-4 velocity file (read_velocity_hdf5).
struct Hdf5VelocityOptions {
  // The velocity components' datasets, 2 (2D) or 3 (3D); empty: u, v, and w when the file has a w.
  std::vector<std::string> components;
};

// Gridded velocity from an HDF5 or NetCDF-4 file (docs/ftle.md, "HDF5 and NetCDF-4 files"): one dataset
// per component, each shaped (time, [z,] y, x) in C order (x fastest), or ([z,] y, x) for one steady
// snapshot; the axes' 1-D coordinate variables (the component's netCDF dimensions, else x/lon/longitude,
// y/lat/latitude, z) increase in equal steps and give origin and spacing; the time axis's variable
// (its dimension, else time or t) increases strictly. A node holding a component's _FillValue or
// missing_value, or a non-finite value, is an error naming the file, variable, node and snapshot; CF
// packing (scale_factor, add_offset) is undone. NetCDF-3 files are refused with how to convert them.
VelocityGrid read_velocity_hdf5(const std::filesystem::path& file, const Hdf5VelocityOptions& options = {});

// Whether a velocity file is read by read_velocity_hdf5: its extension is .h5, .hdf5 or .nc.
bool is_hdf5_velocity_file(const std::filesystem::path& file);

}  // namespace hetflow::ftle
