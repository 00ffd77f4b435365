#pragma once
#include <filesystem>
#include <string>

#include "hetflow/io/npy.hpp"

namespace hetflow::io {

// Reads the vector or matrix a command-line argument names, by its extension (any case):
//   A.npy                  NumPy .npy (read_npy)
//   A.csv, A.txt           numbers as text (read_matrix_csv)
//   A.h5:/group/name       an HDF5 dataset (also .hdf5, and .nc for NetCDF-4, which is HDF5); without
//   A.h5                   ":name", the file's only dataset at its root
// HDF5 datasets are stored in C order and come back column-major like the rest. Errors are IoError
// (FormatError for content) naming the spec: an unknown extension, a missing file, a missing or
// unnamed dataset, a dataset that is neither a vector nor a matrix.
DenseArray read_dense(const std::string& spec);

// Writes the array atomically as .npy, .csv (commas) or .txt (spaces), by the path's extension;
// IoError for any other extension.
void write_dense(const std::filesystem::path& path, const DenseArray& array);

}  // namespace hetflow::io
