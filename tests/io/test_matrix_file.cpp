#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "hetflow/io/error.hpp"
#include "hetflow/io/matrix_csv.hpp"
#include "hetflow/io/matrix_file.hpp"
#include "temp_dir.hpp"

#ifdef HETFLOW_HAVE_HDF5
#include <hdf5.h>
#endif

namespace hetflow::io {
namespace {

using test::TempDir;

// The FormatError message of parsing `text` as a CSV named "m.csv"; empty when it parsed.
std::string csv_error(const std::string& text) {
  try {
    (void)parse_matrix_csv(text, "m.csv");
  } catch (const FormatError& e) {
    return e.what();
  }
  return {};
}

// The message of read_dense(spec), which must throw IoError (FormatError included).
std::string read_error(const std::string& spec) {
  try {
    (void)read_dense(spec);
  } catch (const IoError& e) {
    return e.what();
  }
  return "(no error)";
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(IoMatrixCsv, CommasOrWhitespaceAndCommentsGiveAColumnMajorMatrix) {
  const std::vector<double> column_major{1, 4, 2, 5, 3, 6};
  for (const char* text :
       {"# A, 2 x 3\n1, 2, 3\n\n4,5,6  # last row\n", "1 2\t3\r\n  4 5 6\r\n", "\xEF\xBB\xBF+1,2e0,3.\n4,5,6"}) {
    const DenseArray a = parse_matrix_csv(text, "m.csv");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3})) << text;
    EXPECT_EQ(a.values, column_major) << text;
  }
}

TEST(IoMatrixCsv, OneRowOrOneColumnIsAVector) {
  EXPECT_EQ(parse_matrix_csv("1,2,3\n", "m.csv").shape, std::vector<std::size_t>{3});
  const DenseArray col = parse_matrix_csv("1\n2\n3\n", "m.csv");
  EXPECT_EQ(col.shape, std::vector<std::size_t>{3});
  EXPECT_EQ(col.values, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(parse_matrix_csv("7", "m.csv").shape, std::vector<std::size_t>{1});
}

TEST(IoMatrixCsv, MalformedFilesNameLineColumnAndProblem) {
  EXPECT_EQ(csv_error("1,2\n3, abc\n"), "m.csv:2:4: 'abc' is not a number");
  EXPECT_EQ(csv_error("1 2\n3\t1.5.2\n"), "m.csv:2:3: '1.5.2' is not a number");
  EXPECT_EQ(csv_error("x,y\n1,2\n"),
            "m.csv:1:1: 'x' is not a number (column names are not read: make the header a '#' comment)");
  EXPECT_EQ(csv_error("1,2,3\n# note\n4,5\n"), "m.csv:3: 2 values, expected 3 as on line 1");
  EXPECT_EQ(csv_error("\n1 2 3\n4 5 6 7\n"), "m.csv:3: 4 values, expected 3 as on line 2");
  EXPECT_EQ(csv_error("1,,2\n"), "m.csv:1:3: empty value");
  EXPECT_EQ(csv_error("1 2\n1e400 0\n"), "m.csv:2:1: '1e400' is beyond the range of double");
  EXPECT_EQ(csv_error("1,2,\n"), "m.csv:1:5: empty value");
  EXPECT_EQ(csv_error("# only a comment\n\n"), "m.csv: no numbers (the file is empty or only comments)");
  EXPECT_EQ(csv_error(""), "m.csv: no numbers (the file is empty or only comments)");
}

TEST(IoMatrixFile, RoundTripsThroughEveryWritableFormatBitExact) {
  TempDir dir;
  const double inf = std::numeric_limits<double>::infinity();
  const DenseArray matrix{{4, 3},
                          {0.1, -0.0, 1.0 / 3.0, std::numeric_limits<double>::quiet_NaN(), inf, -inf, 5e-324,
                           1.7976931348623157e308, -2.5, 1e-310, 42, 7}};
  const DenseArray vector{{5}, {1, -2, 3e-7, 4.5, 1e300}};
  for (const std::string name : {"a.npy", "a.csv", "a.txt", "a.NPY"}) {
    for (const DenseArray* a : {&matrix, &vector}) {
      write_dense(dir / name, *a);
      const DenseArray back = read_dense((dir / name).string());
      EXPECT_EQ(back.shape, a->shape) << name;
      EXPECT_TRUE(same_bits(back.values, a->values)) << name;
    }
  }
  EXPECT_EQ(test::slurp(dir / "a.txt"), "1\n-2\n3e-07\n4.5\n1e+300\n");
  write_dense(dir / "a.txt", DenseArray{{2, 2}, {1, 3, 2, 4}});
  EXPECT_EQ(test::slurp(dir / "a.txt"), "1 2\n3 4\n");  // rows as rows, whatever the storage order
  EXPECT_THROW(write_dense(dir / "e.csv", DenseArray{{0}, {}}), IoError);  // text cannot say "empty"
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"a.NPY", "a.csv", "a.npy", "a.txt"}));
}

TEST(IoMatrixFile, ErrorsNameTheSpecAndTheProblem) {
  TempDir dir;
  const std::string base = dir.path().string() + "/";
  EXPECT_NE(read_error(base + "A.mat").find("'" + base + "A.mat': unknown extension '.mat' (expected .npy"),
            std::string::npos);
  EXPECT_NE(read_error(base + "A").find("'" + base + "A': no extension"), std::string::npos);
  for (const char* missing : {"gone.npy", "gone.csv", "gone.h5", "gone.h5:/A"}) {
    const std::string msg = read_error(base + missing);
    EXPECT_NE(msg.find(base + "gone."), std::string::npos) << msg;
  }
  test::spit(dir / "bad.csv", "1,2\n3,x\n");
  EXPECT_NE(read_error(base + "bad.csv").find(base + "bad.csv:2:3: 'x' is not a number"), std::string::npos);
  try {
    write_dense(dir / "x.h5", DenseArray{{1}, {1}});
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("x.h5': unknown extension '.h5' (expected .npy, .csv or .txt)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(dir.entries() == std::vector<std::string>{"bad.csv"});
}

#ifdef HETFLOW_HAVE_HDF5
// Datasets written straight through the HDF5 C API (C order, as every HDF5 writer stores them), so the
// reader under test is checked against an independent writer.
void write_dataset(hid_t file, const char* name, const std::vector<hsize_t>& dims,
                   const std::vector<double>& c_values) {
  const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t ds = H5Dcreate2(file, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, c_values.data());
  H5Dclose(ds);
  H5Sclose(space);
}

TEST(IoMatrixFile, Hdf5DatasetsComeBackColumnMajor) {
  TempDir dir;
  const std::string path = (dir / "system.h5").string();
  {
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(file, "A", {2, 3}, {1, 2, 3, 4, 5, 6});
    write_dataset(file, "b", {2}, {-1, 0.5});
    const hid_t group = H5Gcreate2(file, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    write_dataset(group, "cube", {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
    H5Gclose(group);
    H5Fclose(file);
  }
  const DenseArray a = read_dense(path + ":/A");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.values, (std::vector<double>{1, 4, 2, 5, 3, 6}));
  const DenseArray b = read_dense(path + ":b");
  EXPECT_EQ(b.shape, std::vector<std::size_t>{2});
  EXPECT_EQ(b.values, (std::vector<double>{-1, 0.5}));

  EXPECT_NE(read_error(path + ":/nope").find("'" + path + "': no dataset '/nope' (datasets at the root: A, b)"),
            std::string::npos);
  EXPECT_NE(read_error(path).find("'" + path + "': it holds 2 datasets (A, b); name one as '" + path + ":/A'"),
            std::string::npos);
  EXPECT_NE(read_error(path + ":/g/cube").find("dataset '/g/cube' has 3 dimensions (2 x 2 x 2); expected a vector"),
            std::string::npos);

  // One dataset needs no name; the extension is matched in any case.
  const std::string single = (dir / "x.HDF5").string();
  const hid_t file = H5Fcreate(single.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  write_dataset(file, "x", {3, 1}, {7, 8, 9});
  H5Fclose(file);
  const DenseArray x = read_dense(single);
  EXPECT_EQ(x.shape, (std::vector<std::size_t>{3, 1}));
  EXPECT_EQ(x.values, (std::vector<double>{7, 8, 9}));
}
#else
TEST(IoMatrixFile, Hdf5WithoutHdf5SaysSo) {
  EXPECT_NE(read_error("A.h5:/A").find("built without HDF5"), std::string::npos);
}
#endif

}  // namespace
}  // namespace hetflow::io
