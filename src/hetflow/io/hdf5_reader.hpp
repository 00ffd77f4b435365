#pragma once
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hetflow::io {

struct Hdf5Dataset {
  std::vector<std::size_t> dims;  // slowest axis first
  std::vector<double> values;     // converted from the stored type, C order
  // The relative rounding of the stored type (2^-24 for float32, 2^-53 for float64, 0 for integers):
  // how far a value may be from what the writer meant, for readers that compare values.
  double rounding = 0;
};

// One axis of a dataset as its DIMENSION_LIST attribute (HDF5 dimension scales, which NetCDF-4 writes
// for every variable) names it: the dimension's name, and whether that dataset holds coordinate values
// (a NetCDF-4 dimension without a coordinate variable is a dataset of placeholder values).
struct Hdf5Dimension {
  std::string name;  // the scale dataset's path without the leading '/'
  bool coordinates = false;
};

// An HDF5 file open for reading; NetCDF-4 files are HDF5 files and read the same way (variables are
// datasets, attributes attributes). Names are paths from the root group ("u", "grid/x"). Every error
// is an IoError whose message names the file: a missing file, one that is not HDF5 (a NetCDF-3 classic
// file, "CDF\x01", "\x02" or "\x05", with how to convert it), a missing dataset or attribute of the
// wrong kind (FormatError). Without HDF5 at build time the constructor throws IoError.
class Hdf5Reader {
 public:
  explicit Hdf5Reader(const std::filesystem::path& path);
  ~Hdf5Reader();
  Hdf5Reader(Hdf5Reader&&) noexcept;
  Hdf5Reader& operator=(Hdf5Reader&&) noexcept;

  const std::filesystem::path& path() const { return path_; }
  // The datasets of the root group, sorted by name.
  std::vector<std::string> datasets() const;
  bool has_dataset(const std::string& name) const;
  // A dataset's extent per axis, slowest first; FormatError when it is missing.
  std::vector<std::size_t> shape(const std::string& name) const;
  // A numeric dataset's values as double (HDF5 converts any integer or floating type); FormatError when
  // it is missing or not numeric.
  Hdf5Dataset read(const std::string& name) const;
  // A numeric attribute of a dataset as doubles (converted as read() converts values, so a float32
  // _FillValue compares equal to the data it marks); nullopt when absent, FormatError when not numeric.
  std::optional<std::vector<double>> number_attribute(const std::string& dataset, const std::string& name) const;
  // The axes' dimensions from the dataset's DIMENSION_LIST, one per axis; empty when it has none.
  std::vector<Hdf5Dimension> dimensions(const std::string& dataset) const;

 private:
  struct Impl;
  std::filesystem::path path_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hetflow::io
