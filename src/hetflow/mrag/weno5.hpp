#pragma once
#include <array>

namespace hetflow::mrag {

// Jiang & Shu's (1996) fifth-order WENO reconstruction, the host reference of the solver's kernels
// (docs/mrag.md, Reconstruction): from the averages a..e of cells j−2..j+2, the value at the face between
// cells j and j+1 seen from cell j. The value seen from cell j+1 is the same function of the mirrored
// averages of cells j+3..j−1.
inline constexpr double weno5_epsilon = 1e-6;  // absolute: the solver runs on non-dimensional data

// The smoothness indicators IS0..IS2 of the three candidate stencils.
std::array<double, 3> weno5_smoothness(double a, double b, double c, double d, double e);

double weno5_face(double a, double b, double c, double d, double e);

}  // namespace hetflow::mrag
