#include "hetflow/app/nnls/nnls_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/app/nnls/nnls_bench_families.hpp"
#include "hetflow/app/nnls/nnls_bench_support.hpp"
#ifdef HETFLOW_HAVE_CLBLAST
#include "hetflow/app/nnls/clblast_reference.hpp"
#endif
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/matrix_file.hpp"
#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/lawson_hanson.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::app {
namespace {

using namespace nnls_bench;
using nnls::Matrix;
using nnls::Vector;

constexpr double kappa = 1e2;
constexpr std::uint64_t matrix_seed = 5, rhs_seed = 7;

std::vector<double> inverted(std::vector<double> seconds, double work) {
  for (double& s : seconds) s = work / s;
  return seconds;
}

std::string case_name(const char* method, std::size_t n, double fraction) {
  char name[64];
  std::snprintf(name, sizeof name, "%s n=%zu active=%g%%", method, n, 100 * fraction);
  return name;
}

// Records a GFLOP/s case, its efficiency the share of the FP64 peak measured in this run; returns
// its index.
std::size_t record_flop_rate(Context& ctx, std::string name, const core::Summary& rate, nlohmann::json params) {
  params["peak_fp64_gflops"] = ctx.peak64;
  params["efficiency_is"] = "GFLOP/s / the FP64 multiply-add peak measured in this run";
  ctx.report.add({std::move(name), "GFLOP/s", rate, 0, rate.median / ctx.peak64, std::move(params)});
  return ctx.report.cases.size() - 1;
}

// TNT, FNNLS and Lawson-Hanson against n on square SVC matrices.
void solve_series(Context& ctx) {
  nnls::SvcGenerator generator(ctx.devices);
  nnls::Tnt tnt(ctx.devices);
  {  // builds TNT's kernels outside the timed runs
    const Matrix A = nnls::random_matrix(60, 40, 10, 1);
    tnt.solve(A, nnls::with_active_set(A, 0.5, 1).b);
  }
  ProblemKeeper keeper;
  const std::vector<std::size_t> sizes = {500, 1000, 2000, 5000, 10000, 20000};
  const std::vector<double> fractions = {0.05, 0.5};
  struct Method {
    const char* name;
    Series series;
  };
  Series setup("with_active_set (host)", ctx.caps.setup, 3);
  std::vector<std::vector<Method>> methods;  // [fraction][tnt, fnnls, lawson-hanson]
  for (double f : fractions) {
    const std::string tag = " active=" + std::to_string(int(100 * f)) + "%";
    // TNT's work grows as n^3 (A^T A, factorisations); the host baselines refactor once per variable.
    methods.push_back({{"tnt", Series("tnt" + tag, ctx.caps.run, 3)},
                       {"fnnls", Series("fnnls" + tag, ctx.caps.run, 4)},
                       {"lawson-hanson", Series("lawson-hanson" + tag, ctx.caps.run, 4)}});
  }
  const core::DeviceInfo& info = ctx.devices.device(0).info;

  for (const std::size_t n : sizes) {
    bool wanted = false;
    for (const double f : fractions)
      for (const char* method : {"tnt", "fnnls", "lawson-hanson"}) wanted = wanted || ctx.options.wants(case_name(method, n, f));
    if (!wanted) continue;
    if (!setup.admits(n)) break;
    if (n * n * sizeof(double) > info.max_alloc || 3 * n * n * sizeof(double) > info.global_mem) {
      setup.stop(n, "A, its scaled copy and A^T A would not fit in device memory");
      break;
    }
    bool any = false;
    std::vector<std::vector<bool>> runs(fractions.size());
    for (std::size_t f = 0; f < fractions.size(); ++f)
      for (Method& m : methods[f]) {
        const bool admitted = m.series.admits(n);
        runs[f].push_back(admitted);
        any |= admitted;
      }
    if (!any) break;

    const nnls::SvcSpec spec{n, n, kappa, nnls::SvcMode::geometric, matrix_seed, {}};
    const core::Buffer<double> a = generator.generate(spec);
    const nnls::DeviceMatrixView<double> device_a = nnls::DeviceMatrixView<double>::whole(a, n, n);
    Matrix A(n, n);
    a.read(generator.queue(), A.data);
    if (keeper.keeps(n)) keeper.matrix("n" + std::to_string(n), A);

    for (std::size_t f = 0; f < fractions.size(); ++f) {
      if (std::find(runs[f].begin(), runs[f].end(), true) == runs[f].end()) continue;
      const double fraction = fractions[f];
      const core::WallTimer setup_timer;
      const nnls::Problem p = nnls::with_active_set(A, fraction, rhs_seed);
      const double setup_seconds = setup_timer.seconds();
      setup.record(n, setup_seconds);
      nlohmann::json* kept =
          keeper.keeps(n) ? &keeper.problem("n" + std::to_string(n), A, fraction, p,
                                            {{"matrix", "square SVC, geometric singular values"},
                                             {"kappa", kappa},
                                             {"matrix_seed", matrix_seed},
                                             {"rhs_seed", rhs_seed}})
                          : nullptr;
      const nlohmann::json common = {{"n", n},
                                     {"m", n},
                                     {"kappa", kappa},
                                     {"svc_mode", "geometric"},
                                     {"matrix_seed", matrix_seed},
                                     {"rhs_seed", rhs_seed},
                                     {"active_fraction", fraction},
                                     {"problem_strict", p.strict},
                                     {"problem_seconds", setup_seconds}};
      std::optional<double> tnt_median;
      for (std::size_t k = 0; k < methods[f].size(); ++k) {
        if (!runs[f][k]) continue;
        Method& method = methods[f][k];
        const bool is_tnt = k == 0;
        nnls::Solution solution;
        nlohmann::json counters = nlohmann::json::object();
        const auto run = [&] {
          const core::WallTimer timer;
          if (is_tnt) {
            const nnls::TntResult r = tnt.solve(device_a, p.b);
            counters = tnt_report(r);
            solution = r;
          } else {
            solution = k == 1 ? nnls::fnnls(A, p.b) : nnls::lawson_hanson(A, p.b);
          }
          return timer.seconds();
        };
        const double warm = run();
        const core::Summary stats = core::summarize(samples(warm, ctx.caps.case_budget, ctx.options.repeats, run));
        nlohmann::json params = common;
        params.update(counters);
        params.update(solution_params(solution, p.x));
        params["seconds_per_run"] = stats.median;
        double efficiency = 0;
        if (is_tnt) {
          tnt_median = stats.median;
          // A^T A alone: n (n + 1) multiply-adds per row of A, the solve's unavoidable O(n^3) part.
          const double gram_flops = double(n) * double(n) * double(n + 1);
          efficiency = gram_flops / (ctx.peak64 * 1e9) / stats.median;
          params.update({{"where", "device, A resident (SvcGenerator); x read back"},
                         {"peak_fp64_gflops", ctx.peak64},
                         {"timed", "host wall clock of Tnt::solve: scaled copy, A^T A, every iteration"},
                         {"efficiency_is", "time of A^T A's n^2 (n + 1) FLOPs at the FP64 peak / solve time"}});
        } else {
          params.update({{"where", "host, LAPACK"}, {"efficiency_is", "none (host baseline): see tnt_speedup"}});
          if (tnt_median) params.update({{"tnt_seconds", *tnt_median}, {"tnt_speedup", stats.median / *tnt_median}});
        }
        if (kept) (*kept)["seconds"][method.name] = stats.median;
        const std::string name = case_name(method.name, n, fraction);
        ctx.report.add({name, "s", stats, 0, efficiency, std::move(params)});
        method.series.record(n, stats.median, ctx.report.cases.size() - 1);
        std::cerr << "  " << name << ": " << stats.median << " s" << (solution.converged ? "" : " (NOT converged)")
                  << "\n";
      }
    }
    if (keeper.keeps(n)) keeper.save(ctx.report);
  }
  setup.annotate(ctx.report);
  for (const auto& per_fraction : methods)
    for (const Method& m : per_fraction) m.series.annotate(ctx.report);
}

// SVC generation time; efficiency from a memory-traffic model, bandwidth being what limits it.
void svc_series(Context& ctx) {
  nnls::SvcGenerator generator(ctx.devices);
  const core::DeviceInfo& info = ctx.devices.device(0).info;
  Series series("svc", ctx.caps.run, 2);
  for (const std::size_t n : {1024u, 4096u, 16384u}) {
    if (!ctx.options.wants("svc n=" + std::to_string(n))) continue;
    if (!series.admits(n)) break;
    if (n * n * sizeof(double) > info.max_alloc) {
      series.stop(n, "the matrix exceeds the device's largest allocation");
      break;
    }
    const nnls::SvcSpec spec{n, n, kappa, nnls::SvcMode::geometric, matrix_seed, {}};
    const auto run = [&] {
      const core::WallTimer timer;
      const core::Buffer<double> a = generator.generate(spec);
      generator.queue().finish();
      return timer.seconds();
    };
    const double warm = run();
    const core::Summary stats = core::summarize(samples(warm, ctx.caps.case_budget, ctx.options.repeats, run));
    // A square of n = 2^K takes 4 n (n - 1) element updates (nnls/svc.hpp); each reads and writes 8 bytes.
    const double bytes = 16.0 * 4.0 * double(n) * double(n - 1);
    const double efficiency = bytes / stats.median / (ctx.report.reference_bandwidth_GBs * 1e9);
    nlohmann::json params = {{"n", n},
                             {"kappa", kappa},
                             {"svc_mode", "geometric"},
                             {"seed", matrix_seed},
                             {"bytes_model", bytes},
                             {"timed", "host wall clock of SvcGenerator::generate and a queue finish"},
                             {"efficiency_is", "16 bytes x 4 n (n - 1) updates / time / copy bandwidth"}};
    if (n == 16384) params["goal_h200_s"] = 1.0;
    ctx.report.add({"svc n=" + std::to_string(n), "s", stats, 0, efficiency, std::move(params)});
    series.record(n, stats.median, ctx.report.cases.size() - 1);
    std::cerr << "  svc n=" << n << ": " << stats.median << " s\n";
  }
  series.annotate(ctx.report);
}

// TNT's dense kernels on square SVC matrices (kappa 1e2): A^T A (its O(m n^2) set-up) and the blocked
// Cholesky factorisation of it in GFLOP/s against the FP64 peak, and the preconditioner's product
// W W^T z (each CG iteration's, here with an n x n W), which reads W twice, in seconds with its
// efficiency against the copy bandwidth.
void dense_series(Context& ctx) {
  const core::Context& context = ctx.devices.context(0);
  const core::Queue& queue = ctx.devices.compute(0);
  const core::DeviceInfo& info = ctx.devices.device(0).info;
  nnls::SvcGenerator generator(ctx.devices);
  nnls::DeviceDense<double> dense(context);
  const char* route = dense.host_blas() ? "host BLAS/LAPACK (DenseTuning::cpu_blas)" : "kernels";
  Series series("dense kernels", ctx.caps.run, 3);
  for (const std::size_t n : {1000u, 2000u, 5000u, 10000u}) {
    const std::string size = " n=" + std::to_string(n);
    bool wanted = false;
    for (const char* what : {"gram", "cholesky", "apply_inverse", "clblast syrk"})
      wanted = wanted || ctx.options.wants(what + size);
    if (!wanted) continue;
    if (!series.admits(n)) break;
    if (n * n * sizeof(double) > info.max_alloc || 3 * n * n * sizeof(double) > info.global_mem) {
      series.stop(n, "A, A^T A and its factor would not fit in device memory");
      break;
    }
    const core::Buffer<double> a = generator.generate({n, n, kappa, nnls::SvcMode::geometric, matrix_seed, {}});
    generator.queue().finish();
    core::Buffer<double> gram(context, n * n), factor(context, n * n), z(context, n), w(context, n), y(context, n);
    core::Buffer<cl_int> all(context, n);
    std::vector<cl_int> columns(n);
    std::iota(columns.begin(), columns.end(), 0);
    all.write(queue, std::span<const cl_int>(columns));
    const auto G = nnls::DeviceMatrixView<double>::whole(gram, n, n);
    const auto R = nnls::DeviceMatrixView<double>::whole(factor, n, n);
    const auto timed = [&](auto&& work) {
      queue.finish();
      const core::WallTimer timer;
      work();
      queue.finish();
      return timer.seconds();
    };
    const auto gram_run = [&] { return timed([&] { dense.gram(queue, nnls::DeviceMatrixView<double>::whole(a, n, n), G); }); };
    const auto factor_run = [&] {
      factor.copy_from(queue, gram, 0, 0, n * n);
      return timed([&] {
        if (dense.cholesky(queue, R)) throw core::Error("nnls benchmark: A^T A is not positive definite");
      });
    };
    // The factor's buffer stands in for W: the product's time does not depend on the values.
    const nnls::InverseView<double> h{R, all, n, {factor, n, 0, n, 0}, all};
    const auto apply_run = [&] { return timed([&] { dense.apply_inverse(queue, h, z, w, y, y); }); };

    const double gram_warm = gram_run(), factor_warm = factor_run();
    z.fill(queue, 1.0);
    const double gram_flops = double(n) * double(n) * double(n + 1);  // the upper triangle's multiply-adds, x 2
    const double factor_flops = double(n) * double(n) * double(n) / 3;
    const auto rate = [&](double warm, auto& run, double flops) {
      return core::summarize(inverted(samples(warm, ctx.caps.case_budget, ctx.options.repeats, run), flops / 1e9));
    };
    const core::Summary gram_rate = rate(gram_warm, gram_run, gram_flops);
    const core::Summary factor_rate = rate(factor_warm, factor_run, factor_flops);
    const std::size_t index = record_flop_rate(
        ctx, "gram n=" + std::to_string(n), gram_rate,
        {{"n", n}, {"m", n}, {"flops", gram_flops}, {"route", route},
         {"timed", "host wall clock of DeviceDense::gram between queue finishes"}});
    record_flop_rate(ctx, "cholesky n=" + std::to_string(n), factor_rate,
                     {{"n", n},
                      {"flops", factor_flops},
                      {"block", dense.tuning().cholesky_block},
                      {"route", route},
                      {"timed", "host wall clock of DeviceDense::cholesky, its info read back included"}});
    const core::Summary seconds =
        core::summarize(samples(apply_run(), ctx.caps.case_budget, ctx.options.repeats, apply_run));
    // The product reads W twice: its efficiency is against the copy bandwidth.
    const double bytes = 2.0 * sizeof(double) * double(n) * double(n);
    ctx.report.add({"apply_inverse n=" + std::to_string(n),
                    "s",
                    seconds,
                    0,
                    bytes / seconds.median / (ctx.report.reference_bandwidth_GBs * 1e9),
                    {{"n", n},
                     {"bytes_model", bytes},
                     {"efficiency_is", "W read twice / time / copy bandwidth"},
                     {"route", route},
                     {"timed", "host wall clock of DeviceDense::apply_inverse between queue finishes"}}});
#ifdef HETFLOW_HAVE_CLBLAST
    // CLBlast's DSYRK on the same operand, for the choice between it and the own Gram kernel (DSYRK
    // stores only the upper triangle, where gram also mirrors it).
    const auto syrk_run = [&] { return timed([&] { clblast_reference::gram(queue, a, gram, n); }); };
    syrk_run();  // CLBlast builds its kernels on first use
    const core::Summary syrk_rate = rate(syrk_run(), syrk_run, gram_flops);
    record_flop_rate(ctx, "clblast syrk n=" + std::to_string(n), syrk_rate,
                     {{"n", n},
                      {"flops", gram_flops},
                      {"hetflow_gram_gflops", gram_rate.median},
                      {"timed", "host wall clock of clblast::Syrk between queue finishes"}});
    std::cerr << "  n=" << n << ": CLBlast syrk " << syrk_rate.median << " GFLOP/s\n";
#endif
    series.record(n, gram_flops / 1e9 / gram_rate.median + factor_flops / 1e9 / factor_rate.median, index);
    std::cerr << "  n=" << n << ": gram " << gram_rate.median << " GFLOP/s, cholesky " << factor_rate.median
              << " GFLOP/s, apply_inverse " << seconds.median << " s\n";
  }
  series.annotate(ctx.report);
}

}  // namespace

BenchReport nnls_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  const core::DeviceInfo& info = devices.device(0).info;
  if (!info.fp64) throw core::Error("the nnls benchmark needs FP64, which " + info.name + " lacks");
  if (devices.size() > 1) std::cerr << "  nnls: measuring " << devices.device(0).label() << " alone\n";
  const core::Queue& queue = devices.compute(0);
  BenchReport report{"nnls", info, reference_bandwidth(queue).copy.median, {}};
  core::FlopOptions flop_options;
  flop_options.repeats = options.repeats;
  const double peak64 = core::measure_flops(queue, core::Precision::f64, flop_options).gflops.median;
  std::cerr << "  peak multiply-add rate: " << peak64 << " GFLOP/s fp64\n";

  Context ctx{devices, options, caps_for(info), peak64, report};
  dense_series(ctx);
  svc_series(ctx);
  solve_series(ctx);
  family_series(ctx);
  return report;
}

}  // namespace hetflow::app
