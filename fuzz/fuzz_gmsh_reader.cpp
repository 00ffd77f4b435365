// libFuzzer entry for the Gmsh mesh reader, ASCII and binary, and the mesh checks a case runs on what it
// reads: any bytes must either give a mesh or raise FormatError (MeshError) — never crash, hang, read out
// of bounds or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/fem/gmsh_reader.hpp"
#include "hetflow/fem/mesh_checks.hpp"
#include "hetflow/io/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    const hetflow::fem::Mesh mesh = hetflow::fem::parse_gmsh(content, "fuzz.msh");
    (void)hetflow::fem::check_mesh(mesh, "fuzz.msh");
  } catch (const hetflow::io::FormatError&) {
  }
  return 0;
}
