#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>

#include "hetflow/io/error.hpp"
#include "hetflow/io/npy.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

// A literal's bytes, NULs included.
template <std::size_t N>
std::string bytes(const char (&s)[N]) {
  return std::string(s, N - 1);
}

// np.save's bytes from their parts: the preamble and dict up to its '}', the padding spaces (counted
// here rather than spelled out), the '\n' that ends the header, then the data.
template <std::size_t N, std::size_t M>
std::string npy_bytes(const char (&head)[N], std::size_t spaces, const char (&data)[M]) {
  return bytes(head) + std::string(spaces, ' ') + "\n" + bytes(data);
}

// Files written by numpy 2.4 (np.save; np.lib.format.write_array for versions 2.0 and 3.0).
// A = [[1, 2, 3], [4, 5, 6]].
struct Fixtures {
  const std::string kCOrder =
      npy_bytes("\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 58,
                "\000\000\000\000\000\000\360\077"
                "\000\000\000\000\000\000\000@"
                "\000\000\000\000\000\000\010@"
                "\000\000\000\000\000\000\020@"
                "\000\000\000\000\000\000\024@"
                "\000\000\000\000\000\000\030@");
  const std::string kFortranOrder =
      npy_bytes("\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", 59,
                "\000\000\000\000\000\000\360\077"
                "\000\000\000\000\000\000\020@"
                "\000\000\000\000\000\000\000@"
                "\000\000\000\000\000\000\024@"
                "\000\000\000\000\000\000\010@"
                "\000\000\000\000\000\000\030@");
  const std::string kF4Vector =
      npy_bytes("\223NUMPY\001\000v\000{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 60,
                "\315\314\314="
                "\000\000 \300"
                "\000\000@@");
  const std::string kVersion2 =
      npy_bytes("\223NUMPY\002\000t\000\000\000{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1), }", 56,
                "\000\000\000\000\000\000\370\077"
                "\000\000\000\000\000\000\320\277");
  const std::string kVersion3 =
      npy_bytes("\223NUMPY\003\000t\000\000\000{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", 57,
                "\000\000\000\000\000\000\034@"
                "\000\000\000\000\000\000\042@"
                "\000\000\000\000\000\000 @"
                "\000\000\000\000\000\000$@");
  const std::string kVector =
      npy_bytes("\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 60,
                "\000\000\000\000\000\000\360\077"
                "UUUUUU\325\077"
                "Y\363\370\302\037n\245\201");
};

// A .npy with a hand-written header, for the cases numpy would never write; the length field is
// right unless a test overrides the bytes.
std::string npy(const std::string& header, const std::string& data, int major = 1) {
  std::string out = bytes("\223NUMPY");
  out += static_cast<char>(major);
  out += '\0';
  const std::size_t len = header.size() + 1;
  for (int k = 0; k < (major == 1 ? 2 : 4); ++k) out += static_cast<char>((len >> (8 * k)) & 0xff);
  return out + header + "\n" + data;
}

std::string doubles(std::initializer_list<double> values) {
  std::string out(values.size() * sizeof(double), '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(IoNpy, COrderAndFortranOrderFilesGiveTheSameColumnMajorValues) {
  const Fixtures f;
  const std::vector<double> column_major{1, 4, 2, 5, 3, 6};
  for (const auto* file : {&f.kCOrder, &f.kFortranOrder}) {
    const DenseArray a = parse_npy(*file, "A.npy");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(a.rows(), 2u);
    EXPECT_EQ(a.cols(), 3u);
    EXPECT_EQ(a.values, column_major);
  }
}

TEST(IoNpy, Float32IsWidenedExactly) {
  const DenseArray a = parse_npy(Fixtures().kF4Vector, "b.npy");
  EXPECT_EQ(a.shape, std::vector<std::size_t>{3});
  EXPECT_EQ(a.cols(), 1u);
  // The float nearest 0.1, not 0.1: widening adds nothing and loses nothing.
  EXPECT_EQ(a.values, (std::vector<double>{static_cast<double>(0.1f), -2.5, 3.0}));
}

TEST(IoNpy, Version2And3HeadersAreRead) {
  const Fixtures f;
  const DenseArray v2 = parse_npy(f.kVersion2, "v2.npy");  // C order, 2 x 1
  EXPECT_EQ(v2.shape, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(v2.values, (std::vector<double>{1.5, -0.25}));
  const DenseArray v3 = parse_npy(f.kVersion3, "v3.npy");  // Fortran order [[7, 8], [9, 10]]
  EXPECT_EQ(v3.shape, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(v3.values, (std::vector<double>{7, 9, 8, 10}));
}

TEST(IoNpy, WriterProducesTheBytesOfNpSave) {
  TempDir dir;
  const Fixtures f;
  write_npy(dir / "A.npy", DenseArray{{2, 3}, {1, 4, 2, 5, 3, 6}});
  EXPECT_EQ(test::slurp(dir / "A.npy"), f.kFortranOrder);  // np.save(np.asfortranarray(A))
  write_npy(dir / "x.npy", DenseArray{{3}, {1.0, 1.0 / 3.0, -1e-300}});
  EXPECT_EQ(test::slurp(dir / "x.npy"), f.kVector);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"A.npy", "x.npy"}));  // no temporary left
}

TEST(IoNpy, RoundTripIsBitExactNonFiniteValuesIncluded) {
  TempDir dir;
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> v{0.1,  -0.0,   1.0 / 3.0, std::numeric_limits<double>::quiet_NaN(),
                              inf,  -inf,   5e-324,    1.7976931348623157e308,
                              -2.5, 1e-310, 42,        7};
  for (const auto& shape : {std::vector<std::size_t>{12}, {4, 3}, {1, 12}, {12, 1}}) {
    write_npy(dir / "a.npy", DenseArray{shape, v});
    const DenseArray back = read_npy(dir / "a.npy");
    EXPECT_EQ(back.shape, shape);
    EXPECT_TRUE(same_bits(back.values, v));
  }
  write_npy(dir / "empty.npy", DenseArray{{0, 3}, {}});
  EXPECT_EQ(read_npy(dir / "empty.npy").shape, (std::vector<std::size_t>{0, 3}));
}

TEST(IoNpy, WriterRejectsShapesThatAreNotAVectorOrMatrix) {
  TempDir dir;
  EXPECT_THROW(write_npy(dir / "a.npy", DenseArray{{2, 2}, {1, 2, 3}}), IoError);
  EXPECT_THROW(write_npy(dir / "a.npy", DenseArray{{}, {1}}), IoError);
  EXPECT_THROW(write_npy(dir / "a.npy", DenseArray{{1, 1, 1}, {1}}), IoError);
  EXPECT_TRUE(dir.entries().empty());
}

// Any number of axes in C order: np.save's header for a C-contiguous float64 array, the values as given
// (x fastest for a field of shape (nz, ny, nx)); a 2-D one reads back as the matrix of that shape.
TEST(IoNpy, COrderWriterTakesAnyNumberOfAxes) {
  TempDir dir;
  std::vector<double> v(24);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.5 * double(i) - 3;
  write_npy_c_order(dir / "f.npy", {2, 3, 4}, v);
  const std::string bytes = test::slurp(dir / "f.npy");
  ASSERT_GE(bytes.size(), 128u + 24 * 8);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header = static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
  EXPECT_EQ((10 + header) % 64, 0u);
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, 4), }";
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  std::vector<double> data(24);
  std::memcpy(data.data(), bytes.data() + 10 + header, 24 * sizeof(double));
  EXPECT_TRUE(same_bits(data, v));

  write_npy_c_order(dir / "m.npy", {2, 3}, std::span(v).first(6));
  const DenseArray m = read_npy(dir / "m.npy");
  EXPECT_EQ(m.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(m.values, (std::vector<double>{v[0], v[3], v[1], v[4], v[2], v[5]}));  // column-major

  EXPECT_THROW(write_npy_c_order(dir / "bad.npy", {2, 3, 5}, v), IoError);
  EXPECT_THROW(write_npy_c_order(dir / "bad.npy", {}, v), IoError);
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.npy"));
}

TEST(IoNpy, MissingFileIsAnIoErrorNamingIt) {
  TempDir dir;
  try {
    (void)read_npy(dir / "nope.npy");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.npy"), std::string::npos) << e.what();
  }
}

TEST(IoNpy, MalformedFilesNameTheFileAndTheProblem) {
  const std::string f8 = "{'descr': '<f8', 'fortran_order': False, 'shape': ";
  const std::string ok_data = doubles({1, 2});
  std::string long_header = npy(f8 + "(2,), }", ok_data);
  long_header[8] = '\xe8';  // header length 1000
  long_header[9] = '\x03';
  const struct {
    std::string bytes;
    std::string problem;
  } cases[] = {
      {"hello, world", "bad magic"},
      {"", "truncated header"},
      {bytes("\223NUMPY\001"), "truncated header"},
      {bytes("\223NUMPY\001\000\100"), "truncated header: the file has 9 bytes, fewer than the 10"},
      {bytes("\223NUMPY\002\000\100\000\000"), "fewer than the 12 of a version 2.0 preamble"},
      {npy(f8 + "(2,), }", ok_data, 4), "unsupported .npy format version 4.0 (expected 1.0, 2.0 or 3.0)"},
      {long_header, "header length 1000 goes beyond the end of the file"},
      {npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", ok_data),
       "unsupported dtype '<i4' (expected '<f8' or '<f4')"},
      {npy("{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }", ok_data),
       "unsupported dtype '>f8' (expected '<f8' or '<f4'; this is big-endian"},
      {npy("{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (2,), }", ok_data), "structured dtypes"},
      {npy(f8 + "(3, 4), }", std::string(40, '\0')),
       "A.npy: header: shape (3, 4) needs 96 bytes of data, the file has 40"},
      {npy(f8 + "(1,), }", ok_data), "shape (1,) needs 8 bytes of data, the file has 16"},
      {npy(f8 + "(4294967296, 4294967296), }", ok_data), "needs more than 2^64 bytes"},
      {npy(f8 + "(2, 2, 2), }", ok_data), "shape (2, 2, 2) has 3 dimensions"},
      {npy(f8 + "(), }", ok_data), "shape () has 0 dimensions"},
      {npy(f8 + "(-2,), }", ok_data), "'shape' holds '-', not a non-negative integer"},
      {npy(f8 + "(99999999999999999999999,), }", ok_data), "not a non-negative integer"},
      {npy(f8 + "[2], }", ok_data), "'shape' is not a tuple"},
      {npy(f8 + "(2, }", ok_data), "'shape' holds '}'"},
      {npy("{'descr': '<f8', 'fortran_order': False, }", ok_data), "header: missing key 'shape'"},
      {npy("{'descr': '<f8', 'shape': (2,)}", ok_data), "missing key 'fortran_order'"},
      {npy("{'fortran_order': False, 'shape': (2,)}", ok_data), "missing key 'descr'"},
      {npy(f8 + "(2,), 'extra': 1}", ok_data), "unknown key 'extra'"},
      {npy(f8 + "(2,), 'shape': (2,)}", ok_data), "key 'shape' appears twice"},
      {npy("{'descr': '<f8', 'fortran_order': 'True', 'shape': (2,)}", ok_data), "'fortran_order' holds '''"},
      {npy("{'descr': '<f8', 'fortran_order': yes, 'shape': (2,)}", ok_data),
       "'fortran_order' holds 'yes', not True or False"},
      {npy("{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}", ok_data), "expected ',' or '}'"},
      {npy("{'descr: '<f8'", ok_data), "expected ':' after"},
      {npy("{'descr", ok_data), "unterminated string"},
      {npy(f8 + "(2,) 'x'}", ok_data), "expected ',' or '}' after the value of 'shape'"},
      {npy(f8 + "(2,), } x", ok_data), "unexpected text after the closing '}'"},
      {npy("('descr', '<f8')", ok_data), "the header does not start with '{'"},
      {npy("{descr: '<f8'}", ok_data), "expected a quoted key"},
  };
  for (const auto& c : cases) {
    try {
      (void)parse_npy(c.bytes, "A.npy");
      ADD_FAILURE() << "no error for: " << c.problem;
    } catch (const FormatError& e) {
      const std::string msg = e.what();
      EXPECT_TRUE(msg.starts_with("A.npy: ")) << msg;
      EXPECT_NE(msg.find(c.problem), std::string::npos) << msg << "\n  expected: " << c.problem;
    }
  }
}

TEST(IoNpy, EitherQuoteAndAnyWhitespaceAreAccepted) {
  const DenseArray a =
      parse_npy(npy("{ \"shape\" : ( 2 ,1 ) ,\t\"fortran_order\": True ,'descr':'<f8'}", doubles({3, 4})), "a.npy");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(a.values, (std::vector<double>{3, 4}));
}

}  // namespace
}  // namespace hetflow::io
