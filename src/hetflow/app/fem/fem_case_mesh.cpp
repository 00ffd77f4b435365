#include "hetflow/app/fem/fem_case_mesh.hpp"

#include <filesystem>

#include "hetflow/casefile/error.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/cylinder_channel.hpp"
#include "hetflow/fem/gmsh_reader.hpp"
#include "hetflow/fem/mesh_checks.hpp"
#include "hetflow/fem/mesh_error.hpp"
#include "hetflow/fem/refine.hpp"
#include "hetflow/fem/renumber.hpp"
#include "hetflow/fem/vtu_mesh_reader.hpp"

namespace hetflow::app {
namespace {

fem::Point point(const std::vector<double>& v) { return {v[0], v[1], v[2]}; }

fem::Mesh read_mesh_file(const casefile::Case& c) {
  const std::filesystem::path path = c.get<std::string>("mesh.file");
  if (!std::filesystem::exists(path)) throw casefile::CaseError(c.missing_file("mesh.file"));
  try {
    if (path.extension() == ".msh") return fem::read_gmsh(path);
    return fem::read_vtu_mesh(path);
  } catch (const io::FormatError& e) {
    throw casefile::CaseError(c.where("mesh.file") + ": mesh.file = " + c.path_text("mesh.file") + ": " + e.what());
  }
}

fem::Mesh generated_mesh(const casefile::Case& c) {
  const std::string kind = c.get<std::string>("mesh.kind");
  if (kind == "box") {
    const auto cells = c.get<std::vector<std::uint32_t>>("mesh.cells");
    return fem::box_mesh(cells[0], cells[1], cells[2], point(c.get<std::vector<double>>("mesh.lower")),
                         point(c.get<std::vector<double>>("mesh.upper")));
  }
  fem::CylinderChannel spec;
  spec.length = c.get<double>("mesh.length");
  spec.height = c.get<double>("mesh.height");
  const auto centre = c.get<std::vector<double>>("mesh.centre");
  spec.center_x = centre[0];
  spec.center_y = centre[1];
  spec.radius = c.get<double>("mesh.radius");
  spec.thickness = c.get<double>("mesh.thickness");
  spec.cells_per_quarter = c.get<std::uint32_t>("mesh.cells_per_quarter");
  spec.radial_cells = c.get<std::uint32_t>("mesh.radial_cells");
  spec.layers = c.get<std::uint32_t>("mesh.layers");
  try {
    return fem::cylinder_channel_mesh(spec);
  } catch (const std::invalid_argument& e) {
    throw casefile::CaseError(c.where("mesh.radius") + ": the cylinder channel cannot be built: " + e.what());
  }
}

}  // namespace

void declare_fem_mesh(casefile::Schema& schema) {
  auto& m = schema.section("mesh", "linear tetrahedra: generated, or read from a Gmsh .msh or VTK .vtu file");
  m.key<std::string>("kind", "box", "box: [lower, upper] cut into cells; cylinder_channel: the Schäfer–Turek "
                                     "channel with a cylinder, extruded over z; file: mesh.file")
      .one_of({"box", "cylinder_channel", "file"});
  m.key<std::string>("file", "", "a Gmsh .msh (2.2 or 4.1) or VTK .vtu file; its physical groups or "
                                 "`patch` cell array name the boundary patches; needed by kind file")
      .path();
  m.key<std::vector<int>>("cells", std::vector<int>{16, 16, 16}, "box: cells along x, y, z (6 tets each); patches "
                                                                 "x_min, x_max, y_min, y_max, z_min, z_max")
      .length(3)
      .at_least(1);
  m.key<std::vector<double>>("lower", std::vector<double>{0, 0, 0}, "box: the low corner").length(3);
  m.key<std::vector<double>>("upper", std::vector<double>{1, 1, 1}, "box: the high corner").length(3);
  m.key<double>("length", 2.2, "cylinder_channel: channel length along x; patches inlet, outlet, wall, cylinder, "
                               "z_min, z_max")
      .above(0);
  m.key<double>("height", 0.41, "cylinder_channel: channel height along y").above(0);
  m.key<std::vector<double>>("centre", std::vector<double>{0.2, 0.2}, "cylinder_channel: the cylinder's axis [x, y]")
      .length(2);
  m.key<double>("radius", 0.05, "cylinder_channel: cylinder radius").above(0);
  m.key<double>("thickness", 0.05, "cylinder_channel: extent along z").above(0);
  m.key<int>("cells_per_quarter", 8, "cylinder_channel: cells along a quarter of the cylinder").at_least(1);
  m.key<int>("radial_cells", 4, "cylinder_channel: cells from the cylinder to the O-grid's square").at_least(1);
  m.key<int>("layers", 1, "cylinder_channel: tet layers over the thickness").at_least(1);
  m.key<int>("refine", 0, "uniform 1:8 refinements of the mesh (each multiplies the tets by 8)")
      .at_least(0)
      .at_most(6);
  m.key<std::string>("renumber", "rcm", "node order for memory locality: rcm (reverse Cuthill–McKee), morton, or "
                                        "none (as read)")
      .one_of({"rcm", "morton", "none"});
}

void check_fem_mesh(const casefile::Case& c, std::vector<std::string>& problems) {
  const std::string kind = c.get<std::string>("mesh.kind");
  if (kind == "file" && c.get<std::string>("mesh.file").empty())
    problems.push_back(c.where("mesh.kind") + ": mesh.kind = file needs mesh.file, the path of a .msh or .vtu file");
  if (kind != "file" && c.is_set("mesh.file"))
    problems.push_back(c.where("mesh.file") + ": mesh.file is given but mesh.kind = " + kind +
                       ": set mesh.kind: file to read it, or leave mesh.file out");
  for (const char* key : {"mesh.cells", "mesh.lower", "mesh.upper"})
    if (kind != "box" && c.is_set(key))
      problems.push_back(c.where(key) + ": " + key + " is a box's key but mesh.kind = " + kind);
  if (kind == "box") {
    const auto lo = c.get<std::vector<double>>("mesh.lower"), hi = c.get<std::vector<double>>("mesh.upper");
    for (int d = 0; d < 3; ++d)
      if (!(hi[d] > lo[d])) {
        problems.push_back(c.where("mesh.upper") + ": mesh.upper must exceed mesh.lower along every axis (" +
                           "xyz"[d] + ")");
        break;
      }
  }
}

fem::Mesh make_fem_mesh(const casefile::Case& c, nlohmann::json& report) {
  const std::string kind = c.get<std::string>("mesh.kind");
  const std::string source = kind == "file" ? c.get<std::string>("mesh.file") : kind;
  fem::Mesh mesh = kind == "file" ? read_mesh_file(c) : generated_mesh(c);
  try {
    fem::check_mesh(mesh, source);
  } catch (const fem::MeshError& e) {
    throw casefile::CaseError(c.where(kind == "file" ? "mesh.file" : "mesh.kind") + ": the mesh is not usable: " +
                              e.what());
  }
  for (int level = c.get<int>("mesh.refine"); level > 0; --level) mesh = fem::refine(mesh);
  const std::string order = c.get<std::string>("mesh.renumber");
  if (order != "none") mesh = fem::renumber(mesh, order == "rcm" ? fem::Ordering::rcm : fem::Ordering::morton).mesh;
  const fem::MeshReport r = fem::check_mesh(mesh, source);
  report = {{"source", source},
            {"refinements", c.get<int>("mesh.refine")},
            {"renumbering", order},
            {"nodes", r.nodes},
            {"tets", r.tets},
            {"boundary_faces", r.boundary_faces},
            {"patches", mesh.patches},
            {"volume", r.volume},
            {"edge_length", {r.min_edge, r.max_edge}},
            {"tet_volume", {r.min_tet_volume, r.max_tet_volume}},
            {"worst_quality", r.worst_quality}};
  return mesh;
}

}  // namespace hetflow::app
