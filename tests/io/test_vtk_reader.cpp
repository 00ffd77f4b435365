#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "hetflow/io/base64.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

std::string image_file(const std::string& arrays, const std::string& extra_root_attrs = "",
                       const std::string& appended = "") {
  std::string s = "<?xml version=\"1.0\"?>\n<!-- written by hand -->\n<VTKFile type=\"ImageData\" version=\"1.0\" "
                  "byte_order=\"LittleEndian\"" + extra_root_attrs + ">\n"
                  "<ImageData WholeExtent=\"0 2 0 1 0 0\" Origin=\"1 2 3\" Spacing=\"0.5 0.5 1\">\n"
                  "<Piece Extent=\"0 2 0 1 0 0\"><PointData>\n" + arrays + "</PointData></Piece></ImageData>\n";
  if (!appended.empty()) s += "<AppendedData encoding=\"raw\">\n _" + appended + "\n</AppendedData>\n";
  return s + "</VTKFile>\n";
}

template <class T>
std::string raw_bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

std::string b64(const std::string& bytes) {
  return base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

// Asserts that parsing fails with a FormatError whose message contains every fragment.
void expect_format_error(const std::string& content, std::initializer_list<const char*> fragments) {
  try {
    (void)parse_vti(content, "bad.vti");
    FAIL() << "no error for:\n" << content;
  } catch (const FormatError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("bad.vti", 0), 0u) << msg;
    for (const char* f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
  }
}

const std::vector<double> kValues{1.5, -2.25, 3e100, 0.0, 1.0 / 3.0, -7.0};

TEST(IoVtkReader, ReadsInlineAscii) {
  const auto r = parse_vti(image_file(
      "<DataArray type=\"Float64\" Name=\"a\" format=\"ascii\">\n 1.5 -2.25 3e100\n 0 0.33333333333333331 -7 </DataArray>\n"
      "<DataArray type=\"Int16\" Name=\"k\" NumberOfComponents=\"2\" format=\"ascii\">1 2 3 4 5 6 7 8 9 10 11 -32768</DataArray>\n"));
  EXPECT_EQ(r.dims, (std::array<std::size_t, 3>{3, 2, 1}));
  EXPECT_EQ(r.origin, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(r.point_array("a")->values<double>(), kValues);
  EXPECT_EQ(r.point_array("k")->to_int64().back(), -32768);
  EXPECT_EQ(r.point_array("k")->tuples(), 6u);
}

TEST(IoVtkReader, ReadsInlineBase64WithUInt32AndUInt64Headers) {
  const std::string data = raw_bytes(kValues);
  const std::uint32_t h32 = static_cast<std::uint32_t>(data.size());
  const std::uint64_t h64 = data.size();
  const std::string h32s(reinterpret_cast<const char*>(&h32), 4);
  const std::string h64s(reinterpret_cast<const char*>(&h64), 8);
  // Header and data encoded as one stream, and as two separately padded streams: VTK writes both forms.
  const auto a = parse_vti(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"binary\">\n  " + b64(h32s + data) +
                                      "\n</DataArray>\n"));
  EXPECT_EQ(a.point_array("a")->values<double>(), kValues);
  const auto b = parse_vti(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"binary\">" + b64(h64s) + b64(data) +
                                          "</DataArray>\n",
                                      " header_type=\"UInt64\""));
  EXPECT_EQ(b.point_array("a")->values<double>(), kValues);
}

TEST(IoVtkReader, ReadsZlibCompressedAppendedData) {
  // Two blocks of 32 bytes and a last partial block of 48 - 32 = 16 bytes... built as VTK lays them out.
  const std::string data = raw_bytes(kValues);  // 48 bytes
  const std::uint64_t block = 32;
  std::vector<std::string> parts{data.substr(0, 32), data.substr(32)};
  std::string compressed;
  std::vector<std::uint64_t> sizes;
  for (const auto& p : parts) {
    uLongf len = compressBound(static_cast<uLong>(p.size()));
    std::string out(len, '\0');
    ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &len, reinterpret_cast<const Bytef*>(p.data()),
                        static_cast<uLong>(p.size()), 6),
              Z_OK);
    out.resize(len);
    sizes.push_back(len);
    compressed += out;
  }
  std::vector<std::uint64_t> header{2, block, 16, sizes[0], sizes[1]};
  const auto r = parse_vti(image_file("<DataArray type=\"Float64\" Name=\"z\" format=\"appended\" offset=\"0\"/>\n",
                                      " header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\"",
                                      raw_bytes(header) + compressed));
  EXPECT_EQ(r.point_array("z")->values<double>(), kValues);
}

TEST(IoVtkReader, ReadsBigEndianAppendedData) {
  std::string data = raw_bytes(kValues);
  for (std::size_t i = 0; i < data.size(); i += 8) std::reverse(data.begin() + static_cast<long>(i), data.begin() + static_cast<long>(i + 8));
  std::string header(4, '\0');
  header[3] = static_cast<char>(48);
  std::string file = image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"appended\" offset=\"0\"/>\n", "",
                                header + data);
  file.replace(file.find("LittleEndian"), 12, "BigEndian");
  EXPECT_EQ(parse_vti(file).point_array("a")->values<double>(), kValues);
}

TEST(IoVtkReader, MalformedFilesGiveClearErrors) {
  const std::string good_array = "<DataArray type=\"Float64\" Name=\"a\" format=\"ascii\">1 2 3 4 5 6</DataArray>\n";
  ASSERT_NO_THROW(parse_vti(image_file(good_array)));
  expect_format_error(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"ascii\">1 2 3 4 5</DataArray>\n"),
                      {"DataArray 'a'", "5 ascii values, expected 6"});
  expect_format_error(image_file("<DataArray type=\"Float128\" Name=\"a\" format=\"ascii\">1 2 3 4 5 6</DataArray>\n"),
                      {"unknown type 'Float128'"});
  expect_format_error(image_file("<DataArray Name=\"a\" format=\"ascii\">1 2 3 4 5 6</DataArray>\n"),
                      {"lacks the attribute 'type'"});
  expect_format_error(image_file("<DataArray type=\"Float64\" format=\"ascii\">1 2 3 4 5 6</DataArray>\n"),
                      {"lacks the attribute 'Name'"});
  expect_format_error(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"binary\">AAAA$AAA</DataArray>\n"),
                      {"invalid base64 character"});
  expect_format_error(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"binary\">AAAAAAA</DataArray>\n"),
                      {"incomplete group"});
  expect_format_error(image_file("<DataArray type=\"UInt8\" Name=\"a\" format=\"ascii\">1 2 3 4 5 256</DataArray>\n"),
                      {"'256' is not a valid UInt8"});
  expect_format_error(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"appended\" offset=\"0\"/>\n"),
                      {"no raw <AppendedData>"});
  expect_format_error(image_file("<DataArray type=\"Float64\" Name=\"a\" format=\"appended\" offset=\"99\"/>\n", "",
                                 std::string(12, '\0')),
                      {"beyond the end"});
  expect_format_error(image_file(good_array, " compressor=\"vtkLZ4DataCompressor\""), {"vtkLZ4DataCompressor", "not supported"});
  expect_format_error(image_file(good_array, " header_type=\"UInt16\""), {"header_type 'UInt16'"});
  expect_format_error(image_file(good_array + "</PointData>"), {"does not match"});
  std::string no_extent = image_file(good_array);
  no_extent.replace(no_extent.find("WholeExtent"), 11, "Whole");
  expect_format_error(no_extent, {"lacks the attribute 'WholeExtent'"});
  expect_format_error("<VTKFile type=\"UnstructuredGrid\"></VTKFile>", {"holds UnstructuredGrid, expected ImageData"});
  expect_format_error("", {"no root element"});
  expect_format_error("<html></html>", {"root element is <html>"});
}

TEST(IoVtkReader, AppendedBlockSizeMustMatchTheGrid) {
  TempDir dir;
  const std::vector<double> v(6, 1.0);
  const std::vector<Field> f{{"a", v}};
  write_vti(dir / "g.vti", {{3, 2, 1}, {}, {1, 1, 1}}, f);
  std::string text = test::slurp(dir / "g.vti");
  text.replace(text.find("0 2 0 1 0 0"), 11, "0 3 0 1 0 0");  // WholeExtent now says 8 points
  text.replace(text.find("0 2 0 1 0 0"), 11, "0 3 0 1 0 0");  // and the piece agrees
  expect_format_error(text, {"data block holds 48 bytes, expected 64"});
}

// Every prefix of a valid file, and files with random bytes changed, must either parse or raise
// FormatError: no crash, no other exception (run under the sanitize preset to also catch bad reads).
TEST(IoVtkReader, TruncatedAndCorruptedFilesNeverCrash) {
  TempDir dir;
  std::vector<float> v(24);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const std::vector<Field> f{{"v", v, 3}};
  write_vti(dir / "t.vti", {{2, 2, 2}, {}, {1, 1, 1}}, f);
  const std::string good = test::slurp(dir / "t.vti");
  std::size_t failures = 0;
  for (std::size_t len = 0; len < good.size(); ++len) {
    try {
      (void)parse_vti(good.substr(0, len), "t.vti");
    } catch (const FormatError&) {
      ++failures;
    }
  }
  // Only prefixes that keep the whole appended block can parse (the closing tags are not needed).
  const std::size_t data_end = good.find("\n  </AppendedData>");
  EXPECT_EQ(failures, data_end);
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string bad = good;
    for (int k = 0; k < 3; ++k) bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
    try {
      (void)parse_vtk(bad, "t.vti");
    } catch (const FormatError&) {
    }
  }
}

TEST(IoVtkReader, UnstructuredGridErrorsNameTheProblem) {
  const std::string head =
      "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\"><UnstructuredGrid>"
      "<Piece NumberOfPoints=\"3\" NumberOfCells=\"1\"><Points>"
      "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0 1 0 0 0 1 0</DataArray></Points><Cells>";
  const std::string tail = "</Cells></Piece></UnstructuredGrid></VTKFile>";
  const std::string ok = head +
                         "<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">0 1 2</DataArray>"
                         "<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">3</DataArray>"
                         "<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">5</DataArray>" + tail;
  const auto g = parse_vtu(ok);
  EXPECT_EQ(g.connectivity, (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_EQ(g.types, (std::vector<std::uint8_t>{5}));
  std::string bad = ok;
  bad.replace(bad.find("0 1 2<"), 5, "0 1 3");
  EXPECT_THROW(
      {
        try {
          (void)parse_vtu(bad, "m.vtu");
        } catch (const FormatError& e) {
          EXPECT_NE(std::string(e.what()).find("refers to point 3 of 3"), std::string::npos) << e.what();
          throw;
        }
      },
      FormatError);
  std::string no_types = ok;
  no_types.replace(no_types.find("Name=\"types\""), 12, "Name=\"tipes\"");
  EXPECT_THROW((void)parse_vtu(no_types), FormatError);
}

// Small files kept in tests/io/data/vtk (also the fuzzer's seed corpus): inline ascii and base64,
// zlib-compressed appended data with UInt32 headers, and an unstructured grid as write_vtu makes it.
TEST(IoVtkReader, ReadsTheFixtureFiles) {
  const std::filesystem::path data = std::filesystem::path(__FILE__).parent_path() / "data" / "vtk";
  const auto a = read_vti(data / "ascii.vti");
  EXPECT_EQ(a.point_array("a")->values<float>(), (std::vector<float>{1.0f, 2.5f, -3.0f, 4e-3f}));
  EXPECT_EQ(a.point_array("b")->values<std::uint8_t>(), (std::vector<std::uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(read_vti(data / "zlib.vti").point_array("z")->values<double>(), (std::vector<double>{1, 2, 3, 4}));
  const auto m = read_vtu(data / "small.vtu");
  EXPECT_EQ(m.types, (std::vector<std::uint8_t>{10, 5, 1}));
  EXPECT_EQ(m.cell_array("r")->values<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3}));
  const auto s = read_vti(data / "small.vti");
  EXPECT_EQ(s.point_array("f")->to_double().back(), 5.5);
  EXPECT_EQ(s.cell_array("c")->values<double>(), (std::vector<double>{3.25, 3.25}));
}

}  // namespace
}  // namespace hetflow::io
