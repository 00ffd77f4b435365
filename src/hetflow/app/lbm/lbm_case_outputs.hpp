#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "hetflow/app/run_directory.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::app {

// What one output step measures on the host from the fields it read back anyway.
struct LbmDiagnostics {
  double mass = 0.0;                         // sum of rho over fluid nodes (walls read back as 0)
  double max_speed = 0.0;                    // largest |u|
  std::array<std::size_t, 3> max_cell{};     // where it is
  std::array<double, 3> mean_u{};            // superficial: summed over ALL nodes, divided by the node count
  // Smallest and largest density of the fluid (nodes of positive density: walls read back as 0), and of
  // component a's with two components (else both 0): the phases' densities of a multiphase run.
  std::array<double, 2> rho_range{}, rho_a_range{};
};

// Scans the fields; a NaN or infinity anywhere throws core::Error naming the step and the first such
// cell, since everything computed after it would be garbage too.
LbmDiagnostics diagnose(const lbm::Fields& fields, long step);

// Everything an lbm run writes per output step: the .vti series (rho, u, node_type), an optional
// HDF5 + XDMF series, a PNG of |u| on one slice and a row of the CSV time series. Files are registered
// in the manifest when first written, so a run that fails later still lists what it left.
class LbmOutputs {
 public:
  struct Options {
    bool vti = true;
    bool png = true;
    bool hdf5 = false;
    int slice_axis = 2;            // the PNG shows the middle plane normal to this axis
    std::optional<int> flow_axis;  // set when the force drives the flow along one axis
    double force = 0.0;            // the force component along flow_axis
    double viscosity = 0.0;
    bool double_fields = false;    // fp64 storage writes Float64 arrays, else Float32
    bool slice_density = false;    // the PNG shows the density (component a's with two), else |u|
  };

  LbmOutputs(RunDirectory& directory, const lbm::Geometry& geometry, const Options& options);
  ~LbmOutputs();
  LbmOutputs(const LbmOutputs&) = delete;
  LbmOutputs& operator=(const LbmOutputs&) = delete;

  // geometry.vti, once.
  void write_geometry();
  // One output step. `title_extra` ends the PNG title ("Re = 31.2"); empty shows max |u| instead.
  // mass0 is the mass at step 0, for the drift column.
  void write(long step, const lbm::Fields& fields, const LbmDiagnostics& d, double mass0,
             const std::string& title_extra);
  // Darcy permeability k = nu <u_axis> / F_axis, when the flow is force-driven along one axis.
  std::optional<double> permeability(const LbmDiagnostics& d) const;
  void close();

 private:
  void write_png(long step, const lbm::Fields& fields, const LbmDiagnostics& d, const std::string& title_extra);

  struct Series;
  RunDirectory& dir_;
  const lbm::Geometry& geometry_;
  Options options_;
  std::unique_ptr<Series> series_;
  bool png_listed_ = false;
};

}  // namespace hetflow::app
