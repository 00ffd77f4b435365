#include "hetflow/mrag/wavelets.hpp"

#include <cstddef>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::mrag {
namespace {

// C_{k−2..k+2} of a periodic signal.
std::array<double, 5> neighbourhood(const std::vector<double>& c, std::size_t k) {
  const std::size_t n = c.size();
  std::array<double, 5> out{};
  for (std::size_t m = 0; m < 5; ++m) out[m] = c[(k + n + m - 2) % n];
  return out;
}

}  // namespace

double predict_child(const std::array<double, 5>& coarse, int side) {
  const std::array<double, 5>& w = prediction_weights[static_cast<std::size_t>(side)];
  return w[2] * coarse[2] + (w[1] * coarse[1] + w[3] * coarse[3]) + (w[0] * coarse[0] + w[4] * coarse[4]);
}

double predict_child_2d(const std::array<std::array<double, 5>, 5>& coarse, int side_x, int side_y) {
  std::array<double, 5> rows{};
  for (std::size_t n = 0; n < 5; ++n) rows[n] = predict_child(coarse[n], side_x);
  return predict_child(rows, side_y);
}

WaveletLevel forward_periodic(const std::vector<double>& fine) {
  if (fine.size() % 2 != 0 || fine.size() < 2)
    throw core::Error("wavelet transform: a periodic signal of even length is needed, got " +
                      std::to_string(fine.size()) + " values");
  WaveletLevel level;
  for (std::size_t k = 0; k < fine.size() / 2; ++k) level.coarse.push_back(0.5 * (fine[2 * k] + fine[2 * k + 1]));
  for (std::size_t k = 0; k < level.coarse.size(); ++k)
    level.detail.push_back(predict_child(neighbourhood(level.coarse, k), 0) - fine[2 * k]);
  return level;
}

std::vector<double> inverse_periodic(const WaveletLevel& level) {
  std::vector<double> fine;
  for (std::size_t k = 0; k < level.coarse.size(); ++k) {
    const std::array<double, 5> c = neighbourhood(level.coarse, k);
    fine.push_back(predict_child(c, 0) - level.detail[k]);
    fine.push_back(predict_child(c, 1) + level.detail[k]);
  }
  return fine;
}

}  // namespace hetflow::mrag
