#include "hetflow/app/nnls/nnls_tunable.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::app {
namespace {

const std::vector<std::string>& nnls_files() {
  static const std::vector<std::string> files{"nnls/dense.cl", "nnls/tnt.cl"};
  return files;
}
const char* nnls_class(bool fp32) { return fp32 ? "fp32" : "fp64"; }

// DenseTuning from a setting of nnls_tunable's space (names as DenseTuning's fields; gemm_tile T is a
// T x T tile of 16 x 16 work-items). Keys it does not hold keep their defaults.
nnls::DenseTuning dense_tuning(const tune::Setting& s) {
  nnls::DenseTuning t;
  const auto take = [&s](const char* key, int& field) {
    const auto it = s.find(key);
    if (it == s.end()) return;
    int v = 0;
    const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
    if (ec != std::errc() || end != it->second.data() + it->second.size())
      throw core::Error(std::string(key) + " " + it->second + " is not a whole number");
    field = v;
  };
  take("cholesky_block", t.cholesky_block);
  take("cholesky_work_group", t.cholesky_work_group);
  take("gemv_slices", t.gemv_slices);
  int tile = t.gemm_tile_m;
  take("gemm_tile", tile);
  t.gemm_tile_m = t.gemm_tile_n = tile;
  t.gemm_block_m = t.gemm_block_n = std::max(1, tile / 16);
  return t;
}

}  // namespace

tune::Tunable nnls_tunable(const core::DeviceSet& devices, int n, bool fp32, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const std::size_t size = static_cast<std::size_t>(n);
  const nnls::SvcSpec spec{size, size, 1e2, nnls::SvcMode::geometric, 5, {}};
  nnls::SvcGenerator generator(devices);
  auto a = std::make_shared<const core::Buffer<double>>(generator.generate(spec));
  auto b = std::make_shared<const nnls::Vector>(nnls::with_active_set(generator.matrix(spec), 0.05, 7).b);
  const std::size_t real_bytes = fp32 ? 4 : 8;
  tune::TuningSpace space(
      {tune::Dimension::ordered("cholesky_block", {"16", "32", "48", "64"}),
       tune::Dimension::ordered("cholesky_work_group", {"64", "128", "256", "512"}),
       tune::Dimension::ordered("gemv_slices", {"1", "2", "4", "8"}),
       tune::Dimension::ordered("gemm_tile", {"32", "64", "128"})},
      [info, real_bytes](const tune::Setting& s) {
        try {
          nnls::validate(dense_tuning(s), info, real_bytes);
          return true;
        } catch (const core::Error&) {
          return false;
        }
      });
  tune::Tunable t{"nnls",
                  nnls_files(),
                  nnls_class(fp32),
                  "TNT, " + std::to_string(n) + " x " + std::to_string(n) + " SVC matrix, kappa 1e2, 5 % active",
                  std::move(space),
                  {{"cholesky_block", "64"}, {"cholesky_work_group", "256"}, {"gemv_slices", "1"}, {"gemm_tile", "64"}},
                  {},
                  {},
                  ""};
  t.seconds = [&devices, a, b, size, fp32, measure](const tune::Setting& s) {
    nnls::Tnt tnt(devices, 0, dense_tuning(s));
    nnls::TntOptions options;
    options.fp32 = fp32;
    const auto view = nnls::DeviceMatrixView<double>::whole(*a, size, size);
    return tune::measure(tune::wall_clock([&] { tnt.solve(view, *b, options); }), measure).median;
  };
  return t;
}

nnls::DenseTuning nnls_tuned_dense(const core::DeviceSet& devices, bool fp32, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("nnls", first, nnls_files(), nnls_class(fp32)), record);
  if (!entry) return {};
  try {
    const nnls::DenseTuning t = dense_tuning(entry->best);
    nnls::validate(t, first, fp32 ? 4 : 8);
    record["setting"] = entry->best;
    return t;
  } catch (const core::Error& e) {
    record["ignored"] = e.what();  // advisory data: the defaults serve
    return {};
  }
}

}  // namespace hetflow::app
