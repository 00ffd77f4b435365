#pragma once
#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Signed volume of the tet (a, b, c, d): positive when (b-a, c-a, d-a) is a right-handed triple.
double signed_volume(const Point& a, const Point& b, const Point& c, const Point& d);
double signed_volume(const Mesh& mesh, const Tet& tet);

double distance(const Point& a, const Point& b);
Point midpoint(const Point& a, const Point& b);

}  // namespace hetflow::fem
