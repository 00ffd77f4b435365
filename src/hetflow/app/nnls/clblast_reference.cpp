#include "hetflow/app/nnls/clblast_reference.hpp"

#include <clblast.h>

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::app::clblast_reference {
namespace {

void check(clblast::StatusCode status, const char* call) {
  if (status != clblast::StatusCode::kSuccess)
    throw core::Error(std::string("CLBlast ") + call + " failed with status " + std::to_string(static_cast<int>(status)));
}

}  // namespace

void gram(const core::Queue& queue, const core::Buffer<double>& a, const core::Buffer<double>& c, std::size_t n) {
  cl_command_queue q = queue.get();
  check(clblast::Syrk<double>(clblast::Layout::kColMajor, clblast::Triangle::kUpper, clblast::Transpose::kYes, n, n,
                              1.0, a.get(), 0, n, 0.0, c.get(), 0, n, &q),
        "DSYRK");
}

}  // namespace hetflow::app::clblast_reference
