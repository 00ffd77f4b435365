#include "hetflow/io/csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <utility>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/text_lines.hpp"
#include "hetflow/io/xml_text.hpp"

namespace hetflow::io {
namespace {

// RFC 4180 quoting, needed only for names holding a comma, quote or line break.
std::string csv_quote(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw system_error("append to", path, errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(std::move(cur));
  return out;
}

}  // namespace

CsvWriter::CsvWriter(std::filesystem::path path, std::vector<std::string> columns)
    : path_(std::move(path)), columns_(columns.size()) {
  if (columns.empty()) throw IoError("cannot write '" + path_.string() + "': a CSV needs at least one column");
  std::string header;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) header += ',';
    header += csv_quote(columns[i]);
  }
  header += '\n';
  write_file_atomically(path_, header);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw system_error("open", path_, errno);
}

CsvWriter::~CsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvWriter::add_row(std::span<const double> values) {
  if (fd_ < 0) throw IoError("cannot append to '" + path_.string() + "': the CSV writer is closed");
  if (values.size() != columns_)
    throw IoError("cannot append to '" + path_.string() + "': row has " + std::to_string(values.size()) +
                  " values for " + std::to_string(columns_) + " columns");
  std::string line;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) line += ',';
    line += format_double(values[i]);
  }
  line += '\n';
  write_all(fd_, line, path_);
  ++rows_;
}

void CsvWriter::flush() {
  if (fd_ >= 0 && ::fdatasync(fd_) != 0) throw system_error("sync", path_, errno);
}

void CsvWriter::close() {
  if (fd_ < 0) return;
  flush();
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw system_error("close", path_, errno);
}

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return i;
  std::string list;
  for (const auto& c : columns) {
    if (!list.empty()) list += ", ";
    list += c;
  }
  throw IoError("no column '" + name + "' (columns: " + list + ")");
}

CsvTable read_csv(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  const std::string_view text(bytes.data(), bytes.size());
  CsvTable table;
  for_each_line(text, [&](std::string_view line, std::size_t line_no) {
    if (line.empty()) return;
    auto fields = split_csv_line(line);
    if (table.columns.empty()) {
      table.columns = std::move(fields);
      return;
    }
    const std::string where = path.string() + ":" + std::to_string(line_no) + ": ";
    if (fields.size() != table.columns.size())
      throw FormatError(where + std::to_string(fields.size()) + " fields, expected " + std::to_string(table.columns.size()));
    std::vector<double> row(fields.size());
    for (std::size_t i = 0; i < fields.size(); ++i) {
      std::string_view f = fields[i];
      while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
      while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
      const auto r = std::from_chars(f.data(), f.data() + f.size(), row[i]);
      if (f.empty() || r.ec != std::errc() || r.ptr != f.data() + f.size())
        throw FormatError(where + "'" + std::string(f) + "' in column '" + table.columns[i] + "' is not a number");
    }
    table.rows.push_back(std::move(row));
  });
  if (table.columns.empty()) throw FormatError(path.string() + ": empty CSV file (no header)");
  return table;
}

}  // namespace hetflow::io
