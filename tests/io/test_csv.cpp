#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "hetflow/io/csv.hpp"
#include "hetflow/io/error.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

TEST(IoCsv, RowsRoundTripBitExactAndTheFileIsAlwaysComplete) {
  test::TempDir dir;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<double>> rows{
      {0.0, 0.1, 1.0 / 3.0},
      {1e-300, -5e-324, 1.7976931348623157e308},
      {nan, -std::numeric_limits<double>::infinity(), 12345678901234567.0},
  };
  CsvWriter csv(dir / "series.csv", {"time", "energy, total", "say \"hi\""});
  EXPECT_EQ(read_csv(dir / "series.csv").rows.size(), 0u);  // header already there
  for (std::size_t k = 0; k < rows.size(); ++k) {
    csv.add_row(rows[k]);
    const CsvTable t = read_csv(dir / "series.csv");  // readable mid-run, no flush needed
    ASSERT_EQ(t.rows.size(), k + 1);
  }
  csv.close();
  const CsvTable t = read_csv(dir / "series.csv");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"time", "energy, total", "say \"hi\""}));
  EXPECT_EQ(t.column("energy, total"), 1u);
  for (std::size_t k = 0; k < rows.size(); ++k)
    for (std::size_t c = 0; c < 3; ++c)
      EXPECT_EQ(std::memcmp(&t.rows[k][c], &rows[k][c], sizeof(double)), 0) << k << "," << c;
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"series.csv"});
  EXPECT_THROW(csv.add_row({1.0, 2.0, 3.0}), IoError);
}

TEST(IoCsv, WrongRowWidthAndBadFilesAreErrors) {
  test::TempDir dir;
  CsvWriter csv(dir / "a.csv", {"a", "b"});
  EXPECT_THROW(csv.add_row({1.0}), IoError);
  csv.add_row({1.0, 2.0});
  csv.flush();
  test::spit(dir / "bad.csv", "a,b\n1,2\n3,x\n");
  try {
    (void)read_csv(dir / "bad.csv");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.csv:3"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_csv(dir / "a.csv").column("c"), IoError);
}

}  // namespace
}  // namespace hetflow::io
