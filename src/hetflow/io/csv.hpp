#pragma once
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace hetflow::io {

// A CSV time series that is readable and complete at every moment of a run.
//
// The file appears atomically with its header (AtomicFile), then each row is appended with a single
// write(2) of a whole line. Why this design: rewriting the file on every flush costs O(rows) per row,
// and a temporary committed only at close loses the whole series on a crash; with whole-line appends a
// killed process (SIGKILL, OOM) loses nothing that add_row() returned from, since completed writes sit
// in the kernel's page cache, and the file never holds a partial row short of an OS crash or a full
// disk. flush() adds fdatasync for rows that must survive a power loss.
class CsvWriter {
 public:
  CsvWriter(std::filesystem::path path, std::vector<std::string> columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // Doubles are written in the shortest form that reads back bit-exact (std::to_chars round trip).
  void add_row(std::span<const double> values);
  void add_row(std::initializer_list<double> values) { add_row(std::span<const double>(values.begin(), values.size())); }

  void flush();  // fdatasync
  void close();  // flush and close; later add_row() throws
  std::size_t rows() const { return rows_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::size_t columns_;
  std::size_t rows_ = 0;
  int fd_ = -1;
};

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  // Index of a column by name; IoError listing the columns if absent.
  std::size_t column(const std::string& name) const;
};

// Reads a numeric CSV with one header line; FormatError names file, line and problem.
CsvTable read_csv(const std::filesystem::path& path);

}  // namespace hetflow::io
