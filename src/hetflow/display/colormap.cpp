#include "hetflow/display/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "hetflow/io/error.hpp"

namespace hetflow::display {

Colormap::Colormap(std::string name, std::vector<std::array<float, 3>> points)
    : name_(std::move(name)), points_(std::move(points)) {
  if (points_.size() < 2) throw io::IoError("colormap '" + name_ + "' needs at least two control points");
}

std::array<double, 3> Colormap::rgb(double t) const {
  if (!(t > 0.0)) t = 0.0;  // also catches NaN, so indexing below stays in range
  if (t > 1.0) t = 1.0;
  const double x = t * static_cast<double>(points_.size() - 1);
  const auto i = std::min(static_cast<std::size_t>(x), points_.size() - 2);
  const double f = x - static_cast<double>(i);
  std::array<double, 3> out{};
  for (std::size_t c = 0; c < 3; ++c) out[c] = (1.0 - f) * points_[i][c] + f * points_[i + 1][c];
  return out;
}

io::Rgb Colormap::operator()(double t) const {
  const auto c = rgb(t);
  auto to8 = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); };
  return {to8(c[0]), to8(c[1]), to8(c[2])};
}

namespace {

// Sampled at k/32, k = 0..32, from the published 256-entry tables: viridis and inferno by van der Walt
// and Smith (matplotlib), coolwarm after Moreland, "Diverging Color Maps for Scientific Visualization" (2009).
const Colormap& viridis() {
  static const Colormap map("viridis", {
      {0.2670f, 0.0049f, 0.3294f}, {0.2770f, 0.0503f, 0.3757f}, {0.2823f, 0.0950f, 0.4173f},
      {0.2829f, 0.1359f, 0.4534f}, {0.2788f, 0.1755f, 0.4834f}, {0.2706f, 0.2141f, 0.5071f},
      {0.2590f, 0.2515f, 0.5247f}, {0.2450f, 0.2877f, 0.5373f}, {0.2297f, 0.3224f, 0.5457f},
      {0.2143f, 0.3556f, 0.5512f}, {0.1994f, 0.3876f, 0.5546f}, {0.1856f, 0.4186f, 0.5568f},
      {0.1727f, 0.4488f, 0.5579f}, {0.1607f, 0.4785f, 0.5581f}, {0.1490f, 0.5081f, 0.5573f},
      {0.1378f, 0.5375f, 0.5549f}, {0.1276f, 0.5669f, 0.5506f}, {0.1206f, 0.5964f, 0.5436f},
      {0.1206f, 0.6258f, 0.5335f}, {0.1323f, 0.6550f, 0.5197f}, {0.1579f, 0.6838f, 0.5017f},
      {0.1966f, 0.7118f, 0.4792f}, {0.2461f, 0.7389f, 0.4520f}, {0.3041f, 0.7647f, 0.4199f},
      {0.3692f, 0.7889f, 0.3829f}, {0.4401f, 0.8111f, 0.3410f}, {0.5160f, 0.8312f, 0.2943f},
      {0.5958f, 0.8487f, 0.2433f}, {0.6785f, 0.8637f, 0.1895f}, {0.7624f, 0.8764f, 0.1371f},
      {0.8456f, 0.8873f, 0.0997f}, {0.9261f, 0.8973f, 0.1041f}, {0.9932f, 0.9062f, 0.1439f},
  });
  return map;
}

const Colormap& inferno() {
  static const Colormap map("inferno", {
      {0.0015f, 0.0005f, 0.0139f}, {0.0140f, 0.0112f, 0.0719f}, {0.0423f, 0.0281f, 0.1411f},
      {0.0820f, 0.0433f, 0.2153f}, {0.1293f, 0.0473f, 0.2908f}, {0.1834f, 0.0403f, 0.3550f},
      {0.2383f, 0.0366f, 0.3964f}, {0.2908f, 0.0456f, 0.4186f}, {0.3415f, 0.0623f, 0.4294f},
      {0.3915f, 0.0809f, 0.4331f}, {0.4412f, 0.0993f, 0.4316f}, {0.4910f, 0.1172f, 0.4256f},
      {0.5409f, 0.1347f, 0.4151f}, {0.5907f, 0.1526f, 0.4003f}, {0.6401f, 0.1714f, 0.3811f},
      {0.6887f, 0.1922f, 0.3576f}, {0.7357f, 0.2159f, 0.3302f}, {0.7805f, 0.2433f, 0.2995f},
      {0.8224f, 0.2752f, 0.2661f}, {0.8605f, 0.3119f, 0.2306f}, {0.8943f, 0.3534f, 0.1936f},
      {0.9232f, 0.3994f, 0.1552f}, {0.9470f, 0.4492f, 0.1153f}, {0.9654f, 0.5022f, 0.0739f},
      {0.9784f, 0.5579f, 0.0349f}, {0.9860f, 0.6158f, 0.0256f}, {0.9879f, 0.6753f, 0.0653f},
      {0.9841f, 0.7361f, 0.1295f}, {0.9746f, 0.7977f, 0.2063f}, {0.9606f, 0.8591f, 0.2980f},
      {0.9476f, 0.9174f, 0.4107f}, {0.9545f, 0.9659f, 0.5404f}, {0.9884f, 0.9984f, 0.6449f},
  });
  return map;
}

const Colormap& coolwarm() {
  static const Colormap map("coolwarm", {
      {0.2298f, 0.2987f, 0.7537f}, {0.2664f, 0.3533f, 0.8016f}, {0.3042f, 0.4069f, 0.8453f},
      {0.3433f, 0.4594f, 0.8841f}, {0.3837f, 0.5102f, 0.9178f}, {0.4252f, 0.5591f, 0.9461f},
      {0.4677f, 0.6056f, 0.9685f}, {0.5108f, 0.6494f, 0.9851f}, {0.5543f, 0.6901f, 0.9955f},
      {0.5978f, 0.7273f, 0.9998f}, {0.6408f, 0.7608f, 0.9978f}, {0.6831f, 0.7900f, 0.9898f},
      {0.7240f, 0.8149f, 0.9757f}, {0.7634f, 0.8351f, 0.9557f}, {0.8006f, 0.8504f, 0.9300f},
      {0.8353f, 0.8605f, 0.8990f}, {0.8674f, 0.8644f, 0.8626f}, {0.8995f, 0.8475f, 0.8178f},
      {0.9256f, 0.8255f, 0.7711f}, {0.9455f, 0.7986f, 0.7231f}, {0.9595f, 0.7670f, 0.6741f},
      {0.9675f, 0.7308f, 0.6247f}, {0.9697f, 0.6905f, 0.5751f}, {0.9660f, 0.6461f, 0.5259f},
      {0.9567f, 0.5980f, 0.4773f}, {0.9417f, 0.5464f, 0.4297f}, {0.9214f, 0.4914f, 0.3834f},
      {0.8959f, 0.4331f, 0.3387f}, {0.8654f, 0.3711f, 0.2958f}, {0.8302f, 0.3047f, 0.2549f},
      {0.7906f, 0.2314f, 0.2162f}, {0.7468f, 0.1400f, 0.1800f}, {0.7057f, 0.0156f, 0.1502f},
  });
  return map;
}

// ColorBrewer's sequential 9-class Reds and Blues (Brewer, colorbrewer2.org), white to dark, as their nine
// published colours: interpolating them linearly in sRGB is how those maps are usually drawn continuously.
// Light at low values, so that several of them multiplied over one another stay white where all are low.
const Colormap& reds() {
  static const Colormap map("reds", {
      {1.0000f, 0.9608f, 0.9412f}, {0.9961f, 0.8784f, 0.8235f}, {0.9882f, 0.7333f, 0.6314f},
      {0.9882f, 0.5725f, 0.4471f}, {0.9843f, 0.4157f, 0.2902f}, {0.9373f, 0.2314f, 0.1725f},
      {0.7961f, 0.0941f, 0.1137f}, {0.6471f, 0.0588f, 0.0824f}, {0.4039f, 0.0000f, 0.0510f},
  });
  return map;
}

const Colormap& blues() {
  static const Colormap map("blues", {
      {0.9686f, 0.9843f, 1.0000f}, {0.8706f, 0.9216f, 0.9686f}, {0.7765f, 0.8588f, 0.9373f},
      {0.6196f, 0.7922f, 0.8824f}, {0.4196f, 0.6824f, 0.8392f}, {0.2588f, 0.5725f, 0.7765f},
      {0.1294f, 0.4431f, 0.7098f}, {0.0314f, 0.3176f, 0.6118f}, {0.0314f, 0.1882f, 0.4196f},
  });
  return map;
}

}  // namespace

const Colormap& colormap(std::string_view name) {
  if (name == "viridis") return viridis();
  if (name == "inferno") return inferno();
  if (name == "coolwarm") return coolwarm();
  if (name == "reds") return reds();
  if (name == "blues") return blues();
  std::string valid;
  for (const auto& n : colormap_names()) {
    if (!valid.empty()) valid += ", ";
    valid += n;
  }
  throw io::IoError("unknown colormap '" + std::string(name) + "' (valid: " + valid + ")");
}

std::vector<std::string> colormap_names() { return {"viridis", "inferno", "coolwarm", "reds", "blues"}; }

}  // namespace hetflow::display
