#include "hetflow/app/compressible/block_vtk_series.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "hetflow/io/xml_text.hpp"

namespace hetflow::app {

std::string step_name(const std::string& stem, long step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06ld", step);
  return stem + "_" + digits;
}

BlockVtkSeries::BlockVtkSeries(std::filesystem::path folder, std::string stem)
    : folder_(std::move(folder)), stem_(std::move(stem)), pvd_(folder_ / (stem_ + ".pvd")) {}

std::filesystem::path BlockVtkSeries::write(const FlowSnapshot& snapshot) {
  const std::string name = step_name(stem_, snapshot.step);
  std::filesystem::create_directories(folder_ / name);
  const int s = snapshot.block_size;
  const std::size_t n = static_cast<std::size_t>(s) * static_cast<std::size_t>(s);
  std::vector<double> rho(n), u(n), v(n), p(n), gamma(n);
  std::map<int, std::vector<std::string>> by_level;  // the block files of each level, for the .vtm
  for (std::size_t b = 0; b < snapshot.leaves.size(); ++b) {
    const mrag::BlockKey& leaf = snapshot.leaves[b];
    for (std::size_t c = 0; c < n; ++c) {
      const mrag::FaceState& q = snapshot.cells[b * n + c].state;
      rho[c] = q.rho;
      u[c] = q.un;
      v[c] = q.ut;
      p[c] = q.p;
      gamma[c] = cell_gamma(q);
    }
    const std::vector<std::uint8_t> level(n, static_cast<std::uint8_t>(leaf.level));
    const double h = snapshot.root_size / (s * static_cast<double>(1L << leaf.level));
    const io::ImageGrid grid{{static_cast<std::size_t>(s) + 1, static_cast<std::size_t>(s) + 1, 1},
                             {leaf.x * s * h, leaf.y * s * h, 0.0},
                             {h, h, h}};
    const std::vector<io::Field> fields{io::Field("rho", rho), io::Field("u", u),         io::Field("v", v),
                                        io::Field("p", p),     io::Field("gamma", gamma), io::Field("level", level)};
    const std::string file = name + "/l" + std::to_string(leaf.level) + "_x" + std::to_string(leaf.x) + "_y" +
                             std::to_string(leaf.y) + ".vti";
    io::write_vti(folder_ / file, grid, {}, fields);
    by_level[leaf.level].push_back(file);
  }
  std::string xml = "<?xml version=\"1.0\"?>\n<VTKFile type=\"vtkMultiBlockDataSet\" version=\"1.0\" byte_order=\"";
  xml += std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
  xml += "\">\n  <vtkMultiBlockDataSet>\n";
  int index = 0;
  for (const auto& [level, files] : by_level) {
    xml += "    <Block index=\"" + std::to_string(index++) + "\" name=\"level " + std::to_string(level) + "\">\n";
    for (std::size_t k = 0; k < files.size(); ++k)
      xml += "      <DataSet index=\"" + std::to_string(k) + "\" file=\"" + io::xml_escape(files[k]) + "\"/>\n";
    xml += "    </Block>\n";
  }
  xml += "  </vtkMultiBlockDataSet>\n</VTKFile>\n";
  const std::filesystem::path vtm = folder_ / (name + ".vtm");
  io::write_file_atomically(vtm, xml);
  pvd_.add(snapshot.time, vtm);
  return vtm;
}

}  // namespace hetflow::app
