// Fixture for the layering test: a solver module that includes the command line's code, which sits
// above it. The layering check must reject this tree.
#include "hetflow/app/cli.hpp"
#include "hetflow/core/kernel.hpp"
