#include "hetflow/nnls/tnt_work.hpp"

namespace hetflow::nnls {

double tnt_work(const TntResult& result) {
  return static_cast<double>(result.factorizations) +
         tnt_work_per_cg_iteration * static_cast<double>(result.cg_iterations);
}

}  // namespace hetflow::nnls
