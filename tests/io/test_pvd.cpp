#include <gtest/gtest.h>

#include "hetflow/io/error.hpp"
#include "hetflow/io/pvd.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

TEST(IoPvd, SeriesIsValidAfterEveryAddition) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "fields");
  PvdSeries series(dir / "run.pvd");
  EXPECT_FALSE(std::filesystem::exists(dir / "run.pvd"));
  const std::vector<double> times{0.0, 0.1, 1.0 / 3.0};
  for (std::size_t k = 0; k < times.size(); ++k) {
    series.add(times[k], dir / "fields" / ("f_" + std::to_string(k) + ".vti"));
    const auto entries = read_pvd(dir / "run.pvd");
    ASSERT_EQ(entries.size(), k + 1);
    EXPECT_EQ(entries[k].time, times[k]);  // exact: timesteps are written in round-trip form
    EXPECT_EQ(entries[k].file, "fields/f_" + std::to_string(k) + ".vti");
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"fields", "run.pvd"}));
  const std::string text = test::slurp(dir / "run.pvd");
  EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_NE(text.find("timestep=\"0.1\""), std::string::npos);
}

TEST(IoPvd, ReaderRejectsOtherFiles) {
  test::TempDir dir;
  test::spit(dir / "x.pvd", "<VTKFile type=\"ImageData\"></VTKFile>");
  EXPECT_THROW(read_pvd(dir / "x.pvd"), FormatError);
  test::spit(dir / "y.pvd", "<VTKFile type=\"Collection\"><Collection><DataSet timestep=\"1\"/></Collection></VTKFile>");
  EXPECT_THROW(read_pvd(dir / "y.pvd"), FormatError);
}

}  // namespace
}  // namespace hetflow::io
