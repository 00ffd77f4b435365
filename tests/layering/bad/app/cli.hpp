// Fixture for the layering test (see ../lbm/solver.cpp).
#include "hetflow/lbm/solver.hpp"
