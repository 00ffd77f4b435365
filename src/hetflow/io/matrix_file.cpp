#include "hetflow/io/matrix_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "hetflow/io/error.hpp"
#include "hetflow/io/hdf5_reader.hpp"
#include "hetflow/io/matrix_csv.hpp"

namespace hetflow::io {
namespace {

constexpr std::array<std::string_view, 3> kHdf5Extensions{".h5", ".hdf5", ".nc"};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string extension_of(const std::filesystem::path& p) { return lower(p.extension().string()); }

bool is_hdf5(const std::string& ext) {
  return std::find(kHdf5Extensions.begin(), kHdf5Extensions.end(), ext) != kHdf5Extensions.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// "A.h5:/x" splits at the first HDF5 extension followed by ':'; the rest is the dataset's path
// (HDF5 names may hold any character but '/', so only the file part can tell where to split).
std::pair<std::filesystem::path, std::string> split_hdf5_spec(const std::string& spec) {
  const std::string low = lower(spec);
  std::size_t cut = std::string::npos;
  for (const auto ext : kHdf5Extensions) {
    const auto at = low.find(std::string(ext) + ":");
    if (at != std::string::npos) cut = std::min(cut, at + ext.size());
  }
  if (cut == std::string::npos) return {spec, ""};
  return {spec.substr(0, cut), spec.substr(cut + 1)};
}

DenseArray read_hdf5_dense(const std::filesystem::path& file, std::string dataset) {
  const Hdf5Reader h5(file);
  const std::string where = "cannot read '" + file.string() + "': ";
  if (dataset.empty()) {
    const auto names = h5.datasets();
    if (names.empty())
      throw FormatError(where + "no dataset at the root of the file; name one as '" + file.string() + ":/group/name'");
    if (names.size() > 1)
      throw FormatError(where + "it holds " + std::to_string(names.size()) + " datasets (" + joined(names) +
                        "); name one as '" + file.string() + ":/" + names[0] + "'");
    dataset = names[0];
  } else if (!h5.has_dataset(dataset)) {
    throw FormatError(where + "no dataset '" + dataset + "' (datasets at the root: " + joined(h5.datasets()) + ")");
  }
  Hdf5Dataset d = h5.read(dataset);
  if (d.dims.empty() || d.dims.size() > 2) {
    std::string shape;
    for (const auto n : d.dims) shape += (shape.empty() ? "" : " x ") + std::to_string(n);
    throw FormatError(where + "dataset '" + dataset + "' has " + std::to_string(d.dims.size()) + " dimensions" +
                      (shape.empty() ? "" : " (" + shape + ")") + "; expected a vector or a matrix");
  }
  return dense_from_c_order(std::move(d.dims), d.values);
}

}  // namespace

DenseArray read_dense(const std::string& spec) {
  const auto [file, dataset] = split_hdf5_spec(spec);
  const std::string ext = extension_of(file);
  if (ext == ".npy") return read_npy(file);
  if (ext == ".csv" || ext == ".txt") return read_matrix_csv(file);
  if (is_hdf5(ext)) return read_hdf5_dense(file, dataset);
  throw IoError("cannot read '" + spec + "': " + (ext.empty() ? "no extension" : "unknown extension '" + ext + "'") +
                " (expected .npy, .csv, .txt, or .h5, .hdf5, .nc with an optional ':/dataset')");
}

void write_dense(const std::filesystem::path& path, const DenseArray& array) {
  const std::string ext = extension_of(path);
  if (ext == ".npy") return write_npy(path, array);
  if (ext == ".csv") return write_matrix_csv(path, array, ',');
  if (ext == ".txt") return write_matrix_csv(path, array, ' ');
  throw IoError("cannot write '" + path.string() + "': " +
                (ext.empty() ? "no extension" : "unknown extension '" + ext + "'") + " (expected .npy, .csv or .txt)");
}

}  // namespace hetflow::io
