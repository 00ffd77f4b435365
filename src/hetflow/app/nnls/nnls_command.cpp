#include "hetflow/app/nnls/nnls_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/app/nnls/nnls_input.hpp"
#include "hetflow/app/nnls/nnls_tunable.hpp"
#include "hetflow/app/nnls/tnt_constants_choice.hpp"
#include "hetflow/app/option_checks.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/matrix_file.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/lawson_hanson.hpp"
#include "hetflow/nnls/support.hpp"
#include "hetflow/nnls/tnt.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

// One right-hand side's outcome, whatever the method.
struct RhsResult {
  nnls::Solution solution;
  nlohmann::json tnt;             // tnt_report; null for the host methods
  std::optional<double> seconds;  // absent when several right-hand sides shared one timed call
};

std::vector<RhsResult> solve_tnt(const NnlsRequest& r, const core::DeviceSet& devices, nnls::MatrixView A,
                                 nnls::MatrixView B, const nnls::DenseTuning& tuning,
                                 const TntConstantsChoice& constants) {
  nnls::TntOptions o;
  o.reduction = constants.reduction;
  o.expansion = constants.expansion;
  o.early_reach = r.early_reach.value_or(o.early_reach);
  o.tolerance = r.tolerance;
  o.max_outer_iterations = r.max_iterations;
  o.fp32 = r.fp32;
  o.keep_going = r.keep_going;
  nnls::Tnt tnt(devices, 0, tuning);
  std::vector<RhsResult> out;
  // Several right-hand sides go in one call, which forms A^T A once; the call is then timed as a whole.
  const core::WallTimer timer;
  std::vector<nnls::TntResult> results =
      B.cols == 1 ? std::vector<nnls::TntResult>{tnt.solve(A, rhs_column(B, 0), o)} : tnt.solve(A, B, o);
  const double seconds = timer.seconds();
  for (nnls::TntResult& t : results) {
    nlohmann::json report = tnt_report(t);
    out.push_back({std::move(static_cast<nnls::Solution&>(t)), std::move(report),
                   B.cols == 1 ? std::optional<double>(seconds) : std::nullopt});
  }
  return out;
}

std::vector<RhsResult> solve_host(const NnlsRequest& r, nnls::MatrixView A, nnls::MatrixView B) {
  const nnls::BaselineOptions o{r.tolerance, r.max_iterations};
  std::vector<RhsResult> out;
  for (std::size_t j = 0; j < B.cols; ++j) {
    const nnls::Vector b = rhs_column(B, j);
    const core::WallTimer timer;
    nnls::Solution s = r.method == "fnnls" ? nnls::fnnls(A, b, o) : nnls::lawson_hanson(A, b, o);
    out.push_back({std::move(s), nullptr, timer.seconds()});
  }
  return out;
}

double norm2(const nnls::Vector& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

nlohmann::json rhs_json(const RhsResult& r, const nnls::KktReport& kkt, double b_norm) {
  const nnls::Solution& s = r.solution;
  const nnls::Support support = nnls::support(s.x);
  nlohmann::json j = {{"residual_norm", s.residual_norm},
                      {"relative_residual", b_norm > 0 ? s.residual_norm / b_norm : s.residual_norm},
                      {"iterations", s.iterations},
                      {"converged", s.converged},
                      {"diagnosis", s.diagnosis},
                      {"positive", support.positive},
                      {"tiny", support.tiny},
                      {"zero", support.zero},
                      {"negative", support.negative},
                      {"positive_threshold", support.threshold},
                      {"kkt",
                       {{"min_x", kkt.min_x},
                        {"max_active_gradient", kkt.max_active_gradient},
                        {"max_free_gradient", kkt.max_free_gradient}}}};
  if (!r.tnt.is_null()) j.update(r.tnt);
  if (r.seconds) j["seconds"] = *r.seconds;
  return j;
}

std::string summary_line(std::size_t j, std::size_t k, const RhsResult& r, double b_norm) {
  const nnls::Solution& s = r.solution;
  std::ostringstream line;
  line << "rhs " << j + 1 << "/" << k << ": " << (s.converged ? "converged" : "NOT converged") << ", "
       << s.iterations << " iterations";
  if (!r.tnt.is_null())
    line << " (" << r.tnt["inner_iterations"] << " trials, " << r.tnt["cg_iterations"] << " CG, "
         << r.tnt["factorizations"] << " factorisations)";
  const nnls::Support support = nnls::support(s.x);
  char numbers[160];
  std::snprintf(numbers, sizeof numbers,
                ", residual %.3e (%.2e ||b||), %zu of %zu positive (above %.1e max|x|), %zu tiny, %zu zero", s.residual_norm, b_norm > 0 ? s.residual_norm / b_norm : s.residual_norm, support.positive, s.x.size(),
                nnls::support_relative_threshold, support.tiny, support.zero);
  line << numbers;
  if (support.negative) line << ", " << support.negative << " negative";
  if (r.seconds) {
    std::snprintf(numbers, sizeof numbers, ", %.3g s", *r.seconds);
    line << numbers;
  }
  if (!s.converged) line << ": " << s.diagnosis;
  return line.str();
}

nlohmann::json device_json(const core::DeviceInfo& i) {
  return {{"name", i.name}, {"platform", i.platform}, {"driver", i.driver}, {"type", core::to_string(i.kind)}};
}

}  // namespace

CLI::App* add_nnls_command(CLI::App& app, NnlsRequest& r) {
  CLI::App* cmd = app.add_subcommand("nnls", "non-negative least squares: min ||A x - b|| subject to x >= 0");
  cmd->footer(
      "Writes OUTPUT/x.npy and OUTPUT/report.json (docs/nnls.md) and one line per right-hand side (column of "
      "b).\nExit status: 0 when every right-hand side converged; 1 when an input file is unusable (nothing "
      "written) or a right-hand side did not converge (both files written all the same); 2 for a "
      "command-line error.");
  cmd->add_option("A", r.a_file, "m x n matrix: .npy, .csv, .txt or file.h5:/dataset")->required();
  cmd->add_option("b", r.b_file, "m-vector, or m x k matrix of k right-hand sides (same formats)")->required();
  cmd->add_option("--output,-o", r.output, "folder for x.npy (n, or n x k) and report.json (default nnls)")
      ->check(not_empty());
  cmd->add_option("--method", r.method, "tnt (device, default), fnnls or lawson-hanson (host, LAPACK)")
      ->check(CLI::IsMember({"tnt", "fnnls", "lawson-hanson"}));
  auto* device = cmd->add_option("--device", r.device, "device selection for tnt (default auto; its first device)")
                     ->check(not_empty());
  auto* fp32 = cmd->add_flag("--fp32", r.fp32, "tnt: run the device work in FP32");
  auto* no_tune = cmd->add_flag("--no-tune", r.no_tune, "tnt: take nothing from the tuning database");
  // choose_tnt_constants' rules and words ("--rc: 1.5: TNT's reduction constant must lie in (0, 1)"),
  // before any file is read.
  const auto constant = [](std::string (*error)(double), const char* range) {
    return CLI::Validator(
        [error](std::string& s) {
          char* end = nullptr;
          const double v = std::strtod(s.c_str(), &end);
          if (end == s.c_str() || *end != '\0') return "'" + s + "' is not a number";
          const std::string reason = error(v);
          return reason.empty() ? reason : s + ": " + reason;
        },
        range);
  };
  auto* rc = cmd->add_option_function<double>(
                    "--rc", [&r](const double& v) { r.reduction = v; },
                    "tnt: reduction constant, in (0, 1) (default: the --class's, else 0.8)")
                 ->check(constant(reduction_error, "in (0, 1)"));
  auto* ec = cmd->add_option_function<double>(
                    "--ec", [&r](const double& v) { r.expansion = v; },
                    "tnt: expansion constant, >= 1 (default: the --class's, else 1.2)")
                 ->check(constant(expansion_error, ">= 1"));
  auto* reach = cmd->add_option_function<double>(
                       "--reach", [&r](const double& v) { r.early_reach = v; },
                       "tnt: how far an outer iteration's first trial zeroes variables early, in Lawson-Hanson "
                       "steps, >= 1 (default 4; 1: that step alone)")
                    ->check(constant(early_reach_error, ">= 1"));
  auto* problem_class =
      cmd->add_option("--class", r.problem_class,
                      "tnt: take rc and ec, where not given, from this problem class's entry in the tuning database "
                      "(hetflow tune nnls-constants --class NAME)")
          ->check(not_empty());
  cmd->add_option("--tolerance", r.tolerance,
                  "KKT tolerance on the scaled gradient a_j^T r / (||a_j|| ||b||) (default: the method's own)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-iterations", r.max_iterations, "outer iterations (default 3n)")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([=, &r] {
    if (r.method == "tnt") {
      if (problem_class->count() > 0 && no_tune->count() > 0)
        throw CLI::ValidationError("--class", "reads the tuning database, which --no-tune turns off");
      return;
    }
    for (const CLI::Option* o : {device, fp32, no_tune, rc, ec, reach, problem_class})
      if (o->count() > 0) throw CLI::ValidationError(o->get_name(), "applies to --method tnt only");
  });
  return cmd;
}

nlohmann::json tnt_report(const nnls::TntResult& r) {
  return {{"inner_iterations", r.inner_iterations},
          {"cg_iterations", r.cg_iterations},
          {"factorizations", r.factorizations},
          {"rebuilds", r.rebuilds},
          {"setup_seconds", r.setup_seconds},
          {"factor_seconds", r.factor_seconds},
          {"cg_seconds", r.cg_seconds}};
}

NnlsOutcome solve_nnls(const NnlsRequest& r, nnls::MatrixView A, nnls::MatrixView B, bool vector) {
  const core::WallTimer total;

  nlohmann::json report = {{"method", r.method}, {"A", r.a_file}, {"b", r.b_file},
                           {"m", A.rows},        {"n", A.cols},   {"k", B.cols}};
  std::vector<RhsResult> results;
  std::optional<TntConstantsChoice> constants;
  if (r.method == "tnt") {
    const core::DeviceSet devices = core::DeviceSet::select(r.device);
    report["device"] = device_json(devices.device(0).info);
    constants = choose_tnt_constants(devices.device(0).info, r.problem_class, r.reduction, r.expansion,
                                     tune::Database(tune::default_database_path()));
    report["options"] = {{"rc", constants->reduction},
                         {"ec", constants->expansion},
                         {"early_reach", r.early_reach.value_or(nnls::TntOptions{}.early_reach)},
                         {"fp32", r.fp32}};
    report["constants"] = constants->record;
    nlohmann::json tuning;
    const nnls::DenseTuning dense = r.no_tune ? nnls::DenseTuning{} : nnls_tuned_dense(devices, r.fp32, tuning);
    report["tuning"] = r.no_tune ? nlohmann::json("disabled (--no-tune)") : tuning;
    results = solve_tnt(r, devices, A, B, dense, *constants);
  } else {
    report["device"] = {{"name", "host"}, {"type", core::to_string(core::DeviceKind::cpu)}};
    report["options"] = nlohmann::json::object();
    results = solve_host(r, A, B);
  }
  report["options"].update({{"tolerance", r.tolerance}, {"max_iterations", r.max_iterations}});

  io::DenseArray x{vector ? std::vector<std::size_t>{A.cols} : std::vector<std::size_t>{A.cols, B.cols}, {}};
  std::vector<std::string> lines;
  std::size_t failed = 0;
  for (std::size_t j = 0; j < results.size(); ++j) {
    const nnls::Vector b = rhs_column(B, j);
    const RhsResult& rr = results[j];
    const double b_norm = norm2(b);
    report["rhs"].push_back(rhs_json(rr, nnls::kkt_report(A, b, rr.solution.x), b_norm));
    x.values.insert(x.values.end(), rr.solution.x.begin(), rr.solution.x.end());
    lines.push_back(summary_line(j, results.size(), rr, b_norm));
    failed += !rr.solution.converged;
  }
  report["seconds"] = total.seconds();
  return {std::move(report), std::move(x), std::move(lines), failed, constants ? describe(*constants) : std::string()};
}


int nnls_command(const NnlsRequest& r, std::ostream& out) {
  const nnls::Matrix A = read_nnls_matrix(r.a_file);
  const NnlsRhs rhs = read_nnls_rhs(r.b_file, A, r.a_file);
  const NnlsOutcome o = solve_nnls(r, A, rhs.B, rhs.vector);
  fs::create_directories(r.output);
  io::write_dense(fs::path(r.output) / "x.npy", o.x);
  io::write_file_atomically(fs::path(r.output) / "report.json", o.report.dump(2) + "\n");
  if (!o.constants.empty()) out << "TNT constants: " << o.constants << "\n";
  for (const std::string& l : o.lines) out << l << "\n";
  out << "wrote " << (fs::path(r.output) / "x.npy").string() << " and report.json\n";
  if (o.failed)
    throw core::Error(std::to_string(o.failed) + " of " + std::to_string(o.lines.size()) +
                      " right-hand sides did not converge (see " + (fs::path(r.output) / "report.json").string() +
                      "; x.npy holds where each stopped)");
  return 0;
}

}  // namespace hetflow::app
