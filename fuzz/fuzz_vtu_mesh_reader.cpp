// libFuzzer entry for the .vtu tetrahedral mesh reader (the XML parse, then the cells into tets and
// patches) and the mesh checks a case runs on what it reads: any bytes must either give a mesh or raise
// IoError (FormatError, MeshError) — never crash, hang, read out of bounds or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/fem/mesh_checks.hpp"
#include "hetflow/fem/vtu_mesh_reader.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    const hetflow::fem::Mesh mesh = hetflow::fem::vtu_mesh(hetflow::io::parse_vtu(content, "fuzz.vtu"), "fuzz.vtu");
    (void)hetflow::fem::check_mesh(mesh, "fuzz.vtu");
  } catch (const hetflow::io::IoError&) {
  }
  return 0;
}
