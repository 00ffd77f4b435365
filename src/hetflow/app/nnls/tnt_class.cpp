#include "hetflow/app/nnls/tnt_class.hpp"

#include <cmath>
#include <utility>

#include "hetflow/app/nnls/nnls_input.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/nnls/svc.hpp"
#include "hetflow/nnls/test_problems.hpp"

namespace hetflow::app {
namespace {

std::string percent(double fraction) { return core::number_text(100 * fraction, 4) + " %"; }

// "100", "100 and 1e+06", "1, 10 and 100".
std::string listed(const std::vector<double>& values, std::string (*text)(double)) {
  std::string s;
  for (std::size_t k = 0; k < values.size(); ++k)
    s += (k == 0 ? "" : k + 1 == values.size() ? " and " : ", ") + text(values[k]);
  return s;
}

std::string kappa_text(double kappa) { return core::number_text(kappa, 4); }

}  // namespace

void check_class_name(const std::string& name) {
  bool ok = !name.empty();
  for (const char c : name)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                c == '-');
  if (!ok) throw core::Error("--class '" + name + "': a class name is one or more letters, digits, '.', '_' and '-'");
}

void validate(const TntClass& c) {
  check_class_name(c.name);
  if (!c.files.empty()) {
    if (c.files.size() % 2 != 0)
      throw core::Error("--problem " + c.files.back() + ": each problem is a matrix file and a right-hand-side file");
    return;
  }
  if (c.n < 2) throw core::Error("--size " + std::to_string(c.n) + ": the class's SVC matrices need n >= 2");
  if (c.kappas.empty() || c.active.empty()) throw core::Error("a class needs at least one --kappa and one --active");
  for (const double kappa : c.kappas)
    if (!(std::isfinite(kappa) && kappa >= 1))
      throw core::Error("--kappa " + core::shortest_text(kappa) + ": a condition number must be finite and >= 1");
  for (const double a : c.active)
    if (!(a >= 0 && a < 1))
      throw core::Error("--active " + core::shortest_text(a) + ": the fraction of active variables must lie in [0, 1)");
}

std::string describe(const TntClass& c) {
  if (!c.files.empty()) {
    std::string s;
    for (std::size_t k = 0; k + 1 < c.files.size(); k += 2)
      s += (k == 0 ? "" : "; ") + c.files[k] + " with " + c.files[k + 1];
    return s;
  }
  const std::string n = std::to_string(c.n);
  return "SVC " + n + " x " + n + " (seed " + std::to_string(tnt_class_matrix_seed) + "), kappa " +
         listed(c.kappas, kappa_text) + ", " + listed(c.active, percent) + " active (seed " +
         std::to_string(tnt_class_rhs_seed) + ")";
}

std::vector<TntClassProblem> tnt_class_problems(const TntClass& c) {
  validate(c);
  std::vector<TntClassProblem> problems;
  for (std::size_t k = 0; k + 1 < c.files.size(); k += 2) {
    nnls::Matrix A = read_nnls_matrix(c.files[k]);
    NnlsRhs rhs = read_nnls_rhs(c.files[k + 1], A, c.files[k]);
    problems.push_back({c.files[k] + " with " + c.files[k + 1], std::move(A), std::move(rhs.B)});
  }
  if (!c.files.empty()) return problems;
  for (const double kappa : c.kappas) {
    const nnls::Matrix A = nnls::svc_host({c.n, c.n, kappa, nnls::SvcMode::geometric, tnt_class_matrix_seed, {}});
    for (const double a : c.active) {
      const nnls::Vector b = nnls::with_active_set(A, a, tnt_class_rhs_seed).b;
      nnls::Matrix B(b.size(), 1);
      B.data = b;
      problems.push_back({"kappa " + kappa_text(kappa) + ", " + percent(a) + " active", A, std::move(B)});
    }
  }
  return problems;
}

}  // namespace hetflow::app
