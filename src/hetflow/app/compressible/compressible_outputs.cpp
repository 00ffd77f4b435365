#include "hetflow/app/compressible/compressible_outputs.hpp"

#include <set>
#include <string>
#include <vector>

#include "hetflow/app/compressible/block_vtk_series.hpp"
#include "hetflow/app/compressible/compressible_setup.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"

namespace hetflow::app {
namespace {

// Beyond about two cells per pixel a finer grid adds nothing to a preview but time.
constexpr int kCellsPerPixel = 2;

}  // namespace

CompressibleOutputOptions compressible_output_options(const casefile::Case& c) {
  CompressibleOutputOptions o;
  o.vtk = c.get<bool>("output.vti");
  o.png = c.get<bool>("output.png");
  o.hdf5 = c.get<bool>("output.hdf5");
  o.look = {c.get<int>("output.png_width"), c.get<bool>("output.block_outlines"), c.get<double>("output.schlieren_k")};
  o.shock_threshold = c.get<double>("output.shock_threshold");
  const std::string background = c.get<std::string>("initial.background.material");
  std::string track = c.get<std::string>("output.track");
  if (track.empty()) {
    std::set<std::string> others;
    for (const std::string& r : c.entry_names("initial.regions")) {
      const std::string m = c.get<std::string>("initial.regions." + r + ".material");
      if (!m.empty() && m != background) others.insert(m);
    }
    if (others.size() == 1) track = *others.begin();
  }
  const auto materials = case_materials(c);
  if (!track.empty() && track != background)
    o.contrast = MaterialContrast{materials.at(background), materials.at(track)};
  return o;
}

struct CompressibleOutputs::Series {
  std::optional<BlockVtkSeries> vtk;
  std::optional<FlowPreviews> previews;
  std::optional<io::XdmfSeries> xdmf;
  std::optional<io::CsvWriter> csv;
};

CompressibleOutputs::CompressibleOutputs(RunDirectory& dir, const CompressibleOutputOptions& options)
    : options_(options), series_(std::make_unique<Series>()) {
  series_->csv.emplace(dir.file("series.csv"), FlowMeasures::columns());
  dir.add_output("series.csv",
                 "per snapshot: step, time, leaves, cells, the integrals of rho, rho u, rho v, rho E "
                 "and Gamma, least and largest p, the tracked material's extent along x "
                 "(interface_x_min, interface_x_max) and the leading shock's x (shock_x)");
  if (options.vtk) {
    series_->vtk.emplace(dir.path(), "fields");
    dir.add_output("fields.pvd", "the series of fields_*.vtm with their times, for ParaView");
    dir.add_output("fields_*.vtm", "the leaves at the step its name gives, a block per level");
    dir.add_output("fields_*/*.vti", "one leaf: rho, u, v, p, gamma and level per cell");
  }
  if (options.png) series_->previews.emplace(dir, options.look);
  if (options.hdf5) {
    series_->xdmf.emplace(dir.file("uniform.xmf"));
    dir.add_output("uniform.xmf", "the series of uniform_*.h5 (XDMF 3) for ParaView");
    dir.add_output("uniform_*.h5",
                   "rho, u, v, p, gamma and level on the uniform grid of the finest level present, "
                   "at the step its name gives");
  }
}

CompressibleOutputs::~CompressibleOutputs() = default;

FlowMeasures CompressibleOutputs::write(const FlowSnapshot& snapshot) {
  const UniformFields finest = uniform_fields(snapshot, snapshot.finest_level());
  const FlowMeasures measures = measure_flow(snapshot, finest, options_.contrast, options_.shock_threshold);
  if (series_->vtk) series_->vtk->write(snapshot);
  if (series_->previews) {
    const int level = preview_level(snapshot, kCellsPerPixel * options_.look.width);
    series_->previews->write(snapshot, level == finest.level ? finest : uniform_fields(snapshot, level));
  }
  if (series_->xdmf) {
    const io::ImageGrid grid{{finest.nx + 1, finest.ny + 1, 1}, {0, 0, 0}, {finest.h, finest.h, finest.h}};
    const std::vector<io::Field> fields{io::Field("rho", finest.rho),     io::Field("u", finest.u),
                                        io::Field("v", finest.v),         io::Field("p", finest.p),
                                        io::Field("gamma", finest.gamma), io::Field("level", finest.leaf_level)};
    series_->xdmf->add(static_cast<std::size_t>(snapshot.step), snapshot.time, grid, {}, fields);
  }
  series_->csv->add_row(measures.row());
  return measures;
}

void CompressibleOutputs::close() { series_->csv->close(); }

}  // namespace hetflow::app
