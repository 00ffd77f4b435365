#pragma once
#include <array>
#include <vector>

namespace hetflow::mrag {

// Fifth-order average-interpolating wavelets (Donoho 1992; docs/mrag.md, Wavelets): restriction is the mean
// of the children, prediction the quartic that has the averages of five coarse cells, here as the weights
// on C_{k−2..k+2} of coarse cell k's left child (side 0) and right child (side 1). Exact for the averages of
// polynomials of degree up to 4; the two children's mean is C_k.
inline constexpr std::array<std::array<double, 5>, 2> prediction_weights{
    {{-3.0 / 128, 22.0 / 128, 1.0, -22.0 / 128, 3.0 / 128}, {3.0 / 128, -22.0 / 128, 1.0, 22.0 / 128, -3.0 / 128}}};

// The predicted average of coarse cell k's child on `side` from C_{k−2..k+2}.
double predict_child(const std::array<double, 5>& coarse, int side);

// The predicted average of the child (side_x, side_y) of a coarse cell from its 5 × 5 neighbourhood,
// coarse[n][m] at offsets (m − 2, n − 2): the tensor product of the 1D weights.
double predict_child_2d(const std::array<std::array<double, 5>, 5>& coarse, int side_x, int side_y);

// One level of the transform of a periodic 1D signal of even length: the coarse averages and the details
// d_k = f̂_{2k} − f_{2k} = f_{2k+1} − f̂_{2k+1} (the prediction's error).
struct WaveletLevel {
  std::vector<double> coarse, detail;
};
WaveletLevel forward_periodic(const std::vector<double>& fine);
// The inverse: the fine signal from its coarse averages and details.
std::vector<double> inverse_periodic(const WaveletLevel& level);

}  // namespace hetflow::mrag
