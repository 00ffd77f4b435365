// TNT on the problem families users bring, beside the SVC series: SVC over four decades of condition,
// dense Gaussian matrices (square, shifted, tall) and a deconvolution kernel, at four active fractions.
#include "hetflow/app/nnls/nnls_bench_families.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "hetflow/core/event.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::app::nnls_bench {
namespace {

constexpr std::uint64_t matrix_seed = 11, rhs_seed = 7;

struct Family {
  std::string name;
  double rows_per_column;  // m / n
  nlohmann::json about;    // the matrix as the cases and problems.json record it
  std::function<nnls::Matrix(std::size_t m, std::size_t n)> make;
};

std::vector<Family> families(nnls::SvcGenerator& svc) {
  std::vector<Family> list;
  for (const double kappa : {1e2, 1e4, 1e6, 1e8}) {
    char name[32];
    std::snprintf(name, sizeof name, "svc-kappa1e%d", static_cast<int>(std::lround(std::log10(kappa))));
    list.push_back(
        {name,
         1.0,
         {{"matrix", "square SVC, geometric singular values"}, {"kappa", kappa}},
         [&svc, kappa](std::size_t m, std::size_t n) {
           const core::Buffer<double> a = svc.generate({m, n, kappa, nnls::SvcMode::geometric, matrix_seed, {}});
           nnls::Matrix A(m, n);
           a.read(svc.queue(), A.data);
           return A;
         }});
  }
  const auto gaussian = [](double shift) {
    return [shift](std::size_t m, std::size_t n) { return nnls::gaussian_matrix(m, n, shift, matrix_seed); };
  };
  list.push_back({"gaussian", 1.0, {{"matrix", "square Gaussian, entries N(0, 1/n)"}}, gaussian(0.0)});
  // A shift of 3 keeps the spectrum of G / sqrt(n) (the unit disc) off zero: condition about 5.
  list.push_back(
      {"gaussian-shifted", 1.0, {{"matrix", "square Gaussian N(0, 1/n) + 3 I"}, {"shift", 3.0}}, gaussian(3.0)});
  list.push_back({"gaussian-tall", 1.6, {{"matrix", "tall Gaussian (m = 1.6 n), entries N(0, 1/m)"}}, gaussian(0.0)});
  list.push_back({"blur",
                  1.0,
                  {{"matrix", "Gaussian blur kernel exp(-(i - j)^2 / (2 w^2)), w = 1.5"}, {"width", 1.5}},
                  [](std::size_t, std::size_t n) { return nnls::blur_matrix(n, 1.5); }});
  return list;
}

std::string case_name(const std::string& method, const std::string& family, std::size_t n, double fraction) {
  char name[96];
  std::snprintf(name, sizeof name, "%s %s n=%zu active=%g%%", method.c_str(), family.c_str(), n, 100 * fraction);
  return name;
}

}  // namespace

void family_series(Context& ctx) {
  const core::DeviceInfo& info = ctx.devices.device(0).info;
  const bool cpu = info.kind == core::DeviceKind::cpu;
  // PoCL is compared with FNNLS on the same cores, a GPU with SciPy (scripts/nnls_scipy_bench.py).
  const std::vector<std::size_t> sizes =
      cpu ? std::vector<std::size_t>{250, 500, 1000, 2000} : std::vector<std::size_t>{1000, 2000, 5000, 10000};
  const std::vector<double> fractions = {0.05, 0.25, 0.5, 0.75};
  nnls::SvcGenerator svc(ctx.devices);
  nnls::Tnt tnt(ctx.devices);
  ProblemKeeper keeper;
  for (const Family& family : families(svc)) {
    Series tnt_series("tnt " + family.name, ctx.caps.run, 3), fnnls_series("fnnls " + family.name, ctx.caps.run, 3);
    Series setup("with_active_set " + family.name, ctx.caps.setup, 3);
    for (const std::size_t n : sizes) {
      bool wanted = false;
      for (const double f : fractions)
        wanted = wanted || ctx.options.wants(case_name("tnt", family.name, n, f)) ||
                 (cpu && ctx.options.wants(case_name("fnnls", family.name, n, f)));
      if (!wanted) continue;
      const bool run_tnt = tnt_series.admits(n), run_fnnls = cpu && fnnls_series.admits(n);
      if ((!run_tnt && !run_fnnls) || !setup.admits(n)) break;
      const std::size_t m = static_cast<std::size_t>(family.rows_per_column * double(n));
      if (m * n * sizeof(double) > info.max_alloc || (m * n + 2 * n * n) * sizeof(double) > info.global_mem) {
        tnt_series.stop(n, "A, its scaled copy and A^T A would not fit in device memory");
        break;
      }
      const nnls::Matrix A = family.make(m, n);
      const std::string stem = family.name + "_n" + std::to_string(n);
      if (keeper.keeps(n)) keeper.matrix(stem, A);
      for (const double fraction : fractions) {
        const core::WallTimer setup_timer;
        const nnls::Problem p = nnls::with_active_set(A, fraction, rhs_seed);
        setup.record(n, setup_timer.seconds());
        nlohmann::json about = family.about;
        about.update({{"family", family.name}, {"matrix_seed", matrix_seed}, {"rhs_seed", rhs_seed}});
        nlohmann::json* kept = keeper.keeps(n) ? &keeper.problem(stem, A, fraction, p, about) : nullptr;
        double tnt_median = 0;
        for (const std::string method : {"tnt", "fnnls"}) {
          const bool is_tnt = method == "tnt";
          const std::string name = case_name(method, family.name, n, fraction);
          if (!(is_tnt ? run_tnt : run_fnnls) || !ctx.options.wants(name)) continue;
          nnls::Solution solution;
          nlohmann::json counters = nlohmann::json::object();
          const auto run = [&] {
            const core::WallTimer timer;
            if (is_tnt) {
              const nnls::TntResult r = tnt.solve(A, p.b);
              counters = tnt_report(r);
              solution = r;
            } else {
              solution = nnls::fnnls(A, p.b);
            }
            return timer.seconds();
          };
          const core::Summary stats = core::summarize(samples(run(), ctx.caps.case_budget, ctx.options.repeats, run));
          nlohmann::json params = about;
          params.update(counters);
          params.update(solution_params(solution, p.x));
          params.update({{"n", n},
                         {"m", m},
                         {"active_fraction", fraction},
                         {"problem_strict", p.strict},
                         {"where", is_tnt ? "device; A uploaded from the host in every run, as from a user's array"
                                          : "host, LAPACK"},
                         {"timed", is_tnt ? "host wall clock of Tnt::solve(Matrix, b)" : "host wall clock of fnnls"}});
          if (is_tnt) tnt_median = stats.median;
          if (!is_tnt && tnt_median > 0)
            params.update({{"tnt_seconds", tnt_median}, {"tnt_speedup", stats.median / tnt_median}});
          if (kept) (*kept)["seconds"][method] = stats.median;
          ctx.report.add({name, "s", stats, 0, 0, std::move(params)});
          (is_tnt ? tnt_series : fnnls_series).record(n, stats.median, ctx.report.cases.size() - 1);
          std::cerr << "  " << name << ": " << stats.median << " s" << (solution.converged ? "" : " (NOT converged)")
                    << "\n";
        }
      }
      if (keeper.keeps(n)) keeper.save(ctx.report);
    }
    tnt_series.annotate(ctx.report);
    fnnls_series.annotate(ctx.report);
  }
}

}  // namespace hetflow::app::nnls_bench
