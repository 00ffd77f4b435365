#include "hetflow/app/fem/fem_cut_preview.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "hetflow/io/png_image.hpp"

namespace hetflow::app {
namespace {

double norm(const fem::Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

}  // namespace

FemCutPreview::FemCutPreview(const fem::PointLocator& locator, const FemCutPlane& plane) : plane_(plane) {
  FemOutputConfig only_plane;
  only_plane.cut_plane = plane;
  if (const auto problems = fem_output_problems(locator, only_plane); !problems.empty())
    throw std::invalid_argument(problems.front());
  const auto axis = static_cast<std::size_t>(plane.axis);
  // The in-plane axes keep the right-handed order: x-y, x-z, y-z.
  h_ = axis == 0 ? 1 : 0;
  v_ = axis == 2 ? 1 : 2;
  extent_ = {locator.lower()[h_], locator.upper()[h_], locator.lower()[v_], locator.upper()[v_]};
  const double aspect = (extent_[3] - extent_[2]) / (extent_[1] - extent_[0]);
  const double w = plane.width;
  // Wide domains get a wide picture rather than a thin strip in a 4:3 frame; the height stays above
  // half the width so that the labels, which scale with the smaller side, stay legible.
  height_ = static_cast<int>(std::lround(std::clamp(w * (2.0 + 6.0 * aspect) / 9.0, 0.49 * w, 0.85 * w)));
  nh_ = aspect <= 1 ? static_cast<std::size_t>(plane.width)
                    : std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(plane.width / aspect)));
  nv_ = aspect <= 1 ? std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(plane.width * aspect)))
                    : static_cast<std::size_t>(plane.width);
  samples_.reserve(nh_ * nv_);
  for (std::size_t j = 0; j < nv_; ++j)
    for (std::size_t i = 0; i < nh_; ++i) {
      fem::Point p{};
      p[axis] = plane.position;
      p[h_] = extent_[0] + (static_cast<double>(i) + 0.5) / static_cast<double>(nh_) * (extent_[1] - extent_[0]);
      p[v_] = extent_[2] + (static_cast<double>(j) + 0.5) / static_cast<double>(nv_) * (extent_[3] - extent_[2]);
      samples_.push_back(locator.locate(p));
    }
}

bool FemCutPreview::needs_vorticity() const {
  return plane_.field == FemCutField::vorticity || plane_.field == FemCutField::vorticity_normal;
}

std::string FemCutPreview::stem() const {
  return fem_cut_field_names()[static_cast<std::size_t>(plane_.field)] + "_" + fem_axis_name(plane_.axis);
}

std::string FemCutPreview::description() const {
  static constexpr const char* shown[] = {"|u|", "the pressure", "|vorticity|", "the vorticity component normal to the plane"};
  return std::string(shown[static_cast<std::size_t>(plane_.field)]) + " on the plane " + fem_axis_name(plane_.axis) + " = " +
         fem_four_digits(plane_.position) + " at each snapshot (grey: outside the mesh)";
}

io::Image FemCutPreview::render(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure,
                                std::span<const fem::Vec3> vorticity, display::PreviewLayout* layout) const {
  const auto axis = static_cast<std::size_t>(plane_.axis);
  std::vector<double> shown(samples_.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t s = 0; s < samples_.size(); ++s) {
    if (!samples_[s]) continue;
    const fem::Location& at = *samples_[s];
    switch (plane_.field) {
      case FemCutField::speed: shown[s] = norm(fem::interpolate(at, velocity)); break;
      case FemCutField::pressure: shown[s] = fem::interpolate(at, pressure); break;
      case FemCutField::vorticity: shown[s] = norm(fem::interpolate(at, vorticity)); break;
      case FemCutField::vorticity_normal: shown[s] = fem::interpolate(at, vorticity)[axis]; break;
    }
  }
  static constexpr const char* labels[] = {"|u|", "p", "|vorticity|", "vorticity "};
  display::PreviewOptions look;
  look.extent = extent_;
  look.x_label = fem_axis_name(static_cast<int>(h_));
  look.y_label = fem_axis_name(static_cast<int>(v_));
  look.value_label = labels[static_cast<std::size_t>(plane_.field)];
  if (plane_.field == FemCutField::vorticity_normal) {
    // A signed field: a diverging map centred on zero, so the sense of rotation reads off the colour.
    look.value_label += fem_axis_name(plane_.axis);
    look.colormap = "coolwarm";
    double largest = 0.0;
    for (const double x : shown)
      if (std::isfinite(x)) largest = std::max(largest, std::abs(x));
    if (largest > 0) {
      look.min = -largest;
      look.max = largest;
    }
  }
  look.title = "t = " + fem_four_digits(time) + "  step " + std::to_string(step) + "  " + fem_axis_name(plane_.axis) + " = " +
               fem_four_digits(plane_.position);
  return display::render_preview(display::PreviewField{std::span<const double>(shown), nh_, nv_}, plane_.width, height_, look,
                                 layout);
}

void FemCutPreview::write(const std::filesystem::path& path, long step, double time, std::span<const fem::Vec3> velocity,
                          std::span<const double> pressure, std::span<const fem::Vec3> vorticity) const {
  io::write_png(path, render(step, time, velocity, pressure, vorticity));
}

}  // namespace hetflow::app
