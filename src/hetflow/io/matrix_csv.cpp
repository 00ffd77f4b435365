#include "hetflow/io/matrix_csv.hpp"

#include <charconv>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/text_lines.hpp"
#include "hetflow/io/xml_text.hpp"

namespace hetflow::io {
namespace {

struct Cell {
  std::string_view text;
  std::size_t column;  // 1-based, of the cell's first character (of its place when empty)
};

bool blank(char c) { return c == ' ' || c == '\t'; }

std::vector<Cell> split_cells(std::string_view line) {
  std::vector<Cell> cells;
  if (line.find(',') != std::string_view::npos) {
    // Empty cells are kept so "1,,2" and a trailing comma are reported, not silently merged.
    std::size_t start = 0;
    for (;;) {
      const auto comma = line.find(',', start);
      const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
      std::size_t a = start, b = end;
      while (a < b && blank(line[a])) ++a;
      while (b > a && blank(line[b - 1])) --b;
      cells.push_back({line.substr(a, b - a), a + 1});
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return cells;
  }
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && blank(line[i])) ++i;
    const std::size_t a = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > a) cells.push_back({line.substr(a, i - a), a + 1});
  }
  return cells;
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...) once inlined.
std::string quoted(std::string_view s) {
  std::string q(1, '\'');
  q.append(s);
  q += '\'';
  return q;
}

// std::from_chars takes no leading '+', which people do write ("+1.5"); it is locale independent and
// reads "nan", "inf" and "-inf" as format_double writes them. Returns what is wrong, or "" for a number.
std::string number_problem(std::string_view s, double& v) {
  if (s.empty()) return "empty value";
  const std::string_view digits = s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+' ? s.substr(1) : s;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ptr != digits.data() + digits.size() || r.ec == std::errc::invalid_argument)
    return quoted(s) + " is not a number";
  if (r.ec != std::errc()) return quoted(s) + " is beyond the range of double";
  return {};
}

}  // namespace

DenseArray parse_matrix_csv(std::string_view text, const std::string& name) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // the UTF-8 mark spreadsheets put first
  std::vector<double> values;                                   // row by row
  std::size_t rows = 0, cols = 0, first_line = 0;
  for_each_line(text, [&](std::string_view line, std::size_t line_no) {
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto cells = split_cells(line);
    if (cells.empty()) return;
    const std::string where = name + ":" + std::to_string(line_no) + ":";
    if (rows > 0 && cells.size() != cols)
      throw FormatError(where + " " + std::to_string(cells.size()) + " values, expected " + std::to_string(cols) +
                        " as on line " + std::to_string(first_line));
    for (const Cell& c : cells) {
      double v = 0;
      if (const std::string problem = number_problem(c.text, v); !problem.empty()) {
        const bool first = rows == 0 && problem.ends_with("not a number");
        throw FormatError(where + std::to_string(c.column) + ": " + problem +
                          (first ? " (column names are not read: make the header a '#' comment)" : ""));
      }
      values.push_back(v);
    }
    if (rows == 0) {
      cols = cells.size();
      first_line = line_no;
    }
    ++rows;
  });
  if (rows == 0) throw FormatError(name + ": no numbers (the file is empty or only comments)");
  if (rows == 1 || cols == 1) return DenseArray{{values.size()}, std::move(values)};
  return dense_from_c_order({rows, cols}, values);
}

DenseArray read_matrix_csv(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  return parse_matrix_csv(std::string_view(bytes.data(), bytes.size()), path.string());
}

void write_matrix_csv(const std::filesystem::path& path, const DenseArray& array, char separator) {
  check_dense(array, path);
  // Text has no way to say "0 values in 3 rows", and the reader rejects a file without numbers.
  if (array.values.empty())
    throw IoError("cannot write '" + path.string() + "': an empty array has no text form (write .npy)");
  const std::size_t rows = array.rows(), cols = array.cols();
  std::string out;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      if (j > 0) out += separator;
      out += format_double(array.values[i + j * rows]);
    }
    out += '\n';
  }
  write_file_atomically(path, out);
}

}  // namespace hetflow::io
