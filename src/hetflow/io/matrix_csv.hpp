#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "hetflow/io/npy.hpp"

namespace hetflow::io {

// A matrix or vector as plain text, one row per line, as np.savetxt and spreadsheets write it.
// Values are separated by commas, or by spaces/tabs on lines without a comma; '#' starts a comment to
// the end of the line, blank lines are skipped. There is no header line: a cell that is not a number is
// an error ("file:line:column: 'abc' is not a number"), so a mistyped value is never taken for a name.
// Every row must have as many values as the first. One column or one row gives a vector; otherwise
// a matrix, returned column-major. Errors are FormatError naming `name`, line and, for cells, column.
DenseArray parse_matrix_csv(std::string_view text, const std::string& name);

// Reads a file as parse_matrix_csv; IoError when it cannot be read.
DenseArray read_matrix_csv(const std::filesystem::path& path);

// Writes the array atomically, one matrix row per line (a vector as one column), values in their
// shortest exact form, separated by `separator` (',' for .csv, ' ' for .txt). IoError as check_dense,
// and for an empty array, which text cannot express.
void write_matrix_csv(const std::filesystem::path& path, const DenseArray& array, char separator = ',');

}  // namespace hetflow::io
