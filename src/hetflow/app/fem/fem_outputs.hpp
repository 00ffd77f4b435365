#pragma once
#include <memory>
#include <span>

#include "hetflow/app/fem/fem_output_config.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::app {

// Everything an incompressible-flow run writes about its fields, in the run directory:
// - snapshot(): fields_<step>.vtu (velocity, pressure, vorticity, Q, divergence at the nodes, Float64)
//   listed in fields.pvd once written; <field>_<axis>_<step>.png, the cut-plane preview; and
//   lines/<name>_<step>.csv per line (s, x, y, z, u, v, w, p), the profiles at snapshot times;
// - sample(): a row of probes.csv (time, step, then <name>_u, _v, _w, _p per probe);
// - finish(): probes_u.png .. probes_p.png, each probe's series over time, and per line
//   lines/<name>_velocity.png and lines/<name>_pressure.png, the last profile written.
// Steps in file names have six digits at least. Every file is written under a temporary name and
// renamed (io::AtomicFile), and probes.csv grows by whole rows, so a killed run leaves valid files; the
// run directory lists them in its manifest with the descriptions given here. Nodal fields come in the
// mesh's node order; probe, line and plane points are located once, at construction.
class FemOutputs {
 public:
  // The mesh and edge data are referenced, not copied: they must outlive this object. Throws
  // std::invalid_argument with every problem fem_output_problems finds (a probe outside the mesh names
  // the probe and its point).
  FemOutputs(RunDirectory& directory, const fem::Mesh& mesh, const fem::EdgeData& edges, const FemOutputConfig& config);
  ~FemOutputs();
  FemOutputs(const FemOutputs&) = delete;
  FemOutputs& operator=(const FemOutputs&) = delete;

  // Throws std::invalid_argument when a field has not one value per node.
  void snapshot(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure);
  void sample(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure);
  // Closes probes.csv and writes the plots; later calls throw std::logic_error.
  void finish();

 private:
  struct State;
  RunDirectory& dir_;
  const fem::Mesh& mesh_;
  const fem::EdgeData& edges_;
  FemOutputConfig config_;
  std::unique_ptr<State> state_;
};

}  // namespace hetflow::app
