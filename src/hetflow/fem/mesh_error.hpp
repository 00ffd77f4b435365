#pragma once
#include "hetflow/io/error.hpp"

namespace hetflow::fem {

// A mesh that was read or built but is not usable: what() names the mesh's source and what is wrong
// where (tet index, node indices, file:line), so that the reader or check that found it needs no context.
class MeshError : public io::FormatError {
 public:
  using io::FormatError::FormatError;
};

}  // namespace hetflow::fem
