#include "hetflow/nnls/tnt_active_set.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>
#include <sstream>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::nnls {
namespace {

constexpr int batch_tries = 4;  // TntDeletion::batch's points x(a) per deletion loop

double norm2(const Vector& v) {
  double s = 0.0;
  for (const double x : v) s += x * x;
  return std::sqrt(s);
}

// Sorted union and difference of sorted index vectors.
std::vector<int> merged(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
std::vector<int> without(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  out.reserve(a.size());
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::string text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

template <class Real>
TntActiveSet<Real>::TntActiveSet(DeviceDense<Real>& dense, const core::Queue& queue, const ScaledProblem<Real>& problem)
    : dense_(dense),
      queue_(queue),
      problem_(problem),
      m_(problem.a.rows),
      n_(problem.a.cols),
      inverse_(dense, queue, problem.a.cols),
      pcgnr_(dense, queue, problem.a.rows, problem.a.cols) {
  const core::Context& c = queue.context();
  const std::size_t m = std::max<std::size_t>(m_, 1), n = std::max<std::size_t>(n_, 1);
  b_ = core::Buffer<Real>(c, m);
  r_ = core::Buffer<Real>(c, m);
  rp_ = core::Buffer<Real>(c, m * (static_cast<std::size_t>(batch_tries) + 1));
  xp_ = core::Buffer<Real>(c, n * (static_cast<std::size_t>(batch_tries) + 1));
  g_ = core::Buffer<Real>(c, n);
  all_ = core::Buffer<cl_int>(c, n);
  std::vector<cl_int> all(n);
  std::iota(all.begin(), all.end(), 0);
  all_.write(queue_, std::span<const cl_int>(all));
}

template <class Real>
void TntActiveSet<Real>::raise_shift(std::size_t k) {
  // The thesis's epsilon <- 10 epsilon, AA += epsilon I (Myre 2013, App. E.2 step 5), applied to each
  // reduced matrix instead of AA so that AA stays as set up and the next right-hand side starts from it.
  // AA(F, F) has a unit diagonal (scaled columns) and entries of at most 1 in size, so a shift of k
  // makes it diagonally dominant: beyond that only non-finite entries can make the factorisation fail.
  epsilon_ *= 10.0;
  shift_ += epsilon_;
  rebuild_ = true;
  if (shift_ > 100.0 * static_cast<double>(k))
    throw core::Error("TNT: AA(F, F) (" + std::to_string(k) + " x " + std::to_string(k) +
                      ") did not factor with a diagonal shift of " + text(shift_));
}

template <class Real>
Vector TntActiveSet<Real>::gradient(const Trial& t, double lambda) {
  dense_.gemv_t(queue_, Real(1), problem_.a, all_, n_, r_, Real(0), g_);
  std::vector<Real> g(n_);
  g_.read(queue_, std::span<Real>(g));
  Vector out(g.begin(), g.end());
  if (lambda > 0.0)
    for (std::size_t j = 0; j < n_; ++j) out[j] -= lambda * t.x[j];
  return out;
}

template <class Real>
std::vector<Real> TntActiveSet<Real>::solve_on(const std::vector<int>& free, const TntOptions& options,
                                               TntResult& result, LsqStats& stats) {
  const std::size_t k = free.size();
  if (k == 0) return {};
  for (;;) {
    // The preconditioner's update and PCGNR are enqueued back to back: PCGNR's first read waits for
    // both, and its answer is dropped if a pivot failed (rare: rounding on nearly dependent columns).
    const core::WallTimer factoring;
    bool rebuilt = false;
    ++result.factorizations;
    inverse_.assign(problem_.aa, free, shift_, rebuild_, rebuilt);
    rebuild_ = false;
    if (rebuilt) ++result.rebuilds;
    result.factor_seconds += factoring.seconds();
    // PCGNR from y = 0 every time, as the thesis does (Myre 2013, Sec. 5.4), so the under-determined
    // case leans to small-norm solutions.
    const core::WallTimer iterating;
    const int iterations = pcgnr_.solve(problem_.a, inverse_.order_buffer(), inverse_.view(), b_, options.lambda,
                                        options.max_cg_iterations, options.cg_tolerance);
    const bool factored = inverse_.factored();
    result.cg_seconds += iterating.seconds();
    if (factored) {
      stats.cg_iterations += iterations;
      break;
    }
    raise_shift(k);
  }
  const std::vector<int>& order = inverse_.order();
  std::vector<std::size_t> position(n_);
  for (std::size_t p = 0; p < k; ++p) position[static_cast<std::size_t>(order[p])] = p;
  slot_.resize(k);
  for (std::size_t i = 0; i < k; ++i) slot_[i] = position[static_cast<std::size_t>(free[i])];
  const std::span<const Real> in_order = pcgnr_.answer();
  std::vector<Real> y(k);
  for (std::size_t i = 0; i < k; ++i) y[i] = in_order[slot_[i]];
  return y;
}

template <class Real>
void TntActiveSet<Real>::evaluate(const std::vector<Real>& y, double lambda, double& residual, double& score) {
  const std::size_t k = y.size();
  double yy = 0.0;
  for (const Real v : y) yy += static_cast<double>(v) * static_cast<double>(v);
  // The residual from scratch (CGNR's recursive r drifts): r = b - A_s(:, F) y, with F and y those of
  // the last solve_on.
  const double rr = dense_.residual(queue_, problem_.a, inverse_.order_buffer(), k, pcgnr_.y(), b_, r_);
  residual = std::sqrt(rr);
  score = std::sqrt(rr + lambda * yy);
}

template <class Real>
std::vector<double> TntActiveSet<Real>::scores_of(const std::vector<std::vector<double>>& points, double lambda) {
  const std::size_t k = slot_.size(), most = static_cast<std::size_t>(dense_.tuning().gemm_skinny);
  std::vector<double> scores;
  for (std::size_t first = 0; first < points.size(); first += most) {
    const std::size_t p = std::min(most, points.size() - first);
    std::vector<Real> x(k * p);  // written without waiting: residuals() waits for the queue
    std::vector<double> xx(p, 0.0);
    for (std::size_t j = 0; j < p; ++j)
      for (std::size_t i = 0; i < k; ++i) {
        const double v = points[first + j][i];
        x[j * k + slot_[i]] = static_cast<Real>(v);
        xx[j] += v * v;
      }
    if (!x.empty()) xp_.enqueue_write(queue_, std::span<const Real>(x));
    const std::vector<double> rr =
        dense_.residuals(queue_, problem_.a, inverse_.order_buffer(), k, {xp_, k, p, std::max<std::size_t>(k, 1), 0},
                         b_, {rp_, m_, p, m_, 0});
    for (std::size_t j = 0; j < p; ++j) scores.push_back(std::sqrt(rr[j] + lambda * xx[j]));
  }
  return scores;
}

template <class Real>
typename TntActiveSet<Real>::LsqStats TntActiveSet<Real>::lsq(Trial& t, std::size_t deletions_per_loop,
                                                              const TntOptions& options, TntResult& result,
                                                              bool early) {
  LsqStats stats;
  const std::size_t entry = t.free.size();
  const bool batch = options.deletion == TntDeletion::batch;
  std::vector<Real> y = solve_on(t.free, options, result, stats);
  for (;;) {
    const std::size_t k = t.free.size();
    std::vector<std::size_t> bad;  // positions in F of y <= 0 (or NaN)
    for (std::size_t i = 0; i < k; ++i)
      if (!(y[i] > 0)) bad.push_back(i);
    if (bad.empty()) break;
    if (batch) {
      // TntDeletion::batch, a projected line search: x(a) = max(0, x + a (y - x)) for a from 1 (the
      // projection of y: every bad variable goes at once) down towards step_back's a0, where the first
      // bad variable reaches 0 and x(a0) = x + a0 (y - x) lowers the score. The largest a whose x(a)
      // scores below x(a0) becomes the feasible point, and its zeros leave F (so the next solution,
      // on a set holding that point, scores lower still). Each try costs a GEMV, not a factorisation.
      double a0 = 1.0;
      for (const std::size_t i : bad) {
        const double yi = static_cast<double>(y[i]), xi = t.x[static_cast<std::size_t>(t.free[i])];
        a0 = std::min(a0, std::isnan(yi) ? 0.0 : (xi > 0.0 ? xi / (xi - yi) : 0.0));
      }
      const auto point = [&](double a) {
        std::vector<double> xa(k);
        for (std::size_t i = 0; i < k; ++i) {
          const double xi = t.x[static_cast<std::size_t>(t.free[i])], yi = static_cast<double>(y[i]);
          xa[i] = std::isnan(yi) ? 0.0 : std::max(0.0, xi + a * (yi - xi));
        }
        return xa;
      };
      // x(a0) and the tries, scored together (A read once).
      std::vector<std::vector<double>> points{point(a0)};
      std::vector<double> steps;
      for (int j = 0; j < batch_tries; ++j) {
        const double a = a0 + (1.0 - a0) * std::ldexp(1.0, -j);
        if (a <= a0) break;
        steps.push_back(a);
        points.push_back(point(a));
      }
      const std::vector<double> scores = scores_of(points, options.lambda);
      const double floor = scores[0];
      bool moved = false;
      for (std::size_t j = 0; j < steps.size() && !moved; ++j) {
        if (!(scores[j + 1] < floor)) continue;
        const std::vector<double>& xa = points[j + 1];
        std::vector<int> gone;
        for (std::size_t i = 0; i < k; ++i) {
          t.x[static_cast<std::size_t>(t.free[i])] = xa[i];
          if (!(xa[i] > 0)) gone.push_back(t.free[i]);
        }
        t.score = scores[j + 1];
        t.free = without(t.free, gone);
        t.bound = merged(t.bound, gone);
        moved = true;
      }
      if (moved) {
        y = solve_on(t.free, options, result, stats);
        continue;
      }
      t.score = floor;  // step_back's point, taken below (before any early zeros)
    }
    // The order of deletion: by y (Myre 2013, App. E.2 step 6.4), or by the step from the feasible point
    // t.x towards y at which each bad variable reaches 0 (Lawson-Hanson); NaN (from a breakdown) goes
    // first either way.
    const bool step_back = options.deletion != TntDeletion::most_negative;
    std::vector<double> key(k, 0.0);
    for (const std::size_t i : bad) {
      const double yi = static_cast<double>(y[i]), xi = t.x[static_cast<std::size_t>(t.free[i])];
      if (std::isnan(yi))
        key[i] = -std::numeric_limits<double>::infinity();
      else if (!step_back)
        key[i] = yi;
      else
        key[i] = xi > 0.0 ? xi / (xi - yi) : 0.0;
    }
    std::stable_sort(bad.begin(), bad.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    if (step_back) {
      // x += alpha (y - x) with alpha the smallest step: x stays feasible and its residual falls; the
      // variables that reach 0 there are the ones to move. With `early` those that would reach 0 within
      // early_reach alpha go with them: on ill-conditioned problems the bad set barely changes from one
      // solve to the next, and Lawson-Hanson's single removals would take them one subproblem each. That
      // point can score above the loop's start, so a trial may then be rejected where Lawson-Hanson's would
      // not; the caller's next trial goes without.
      const double alpha = std::max(0.0, key[bad.front()]), reach = early ? options.early_reach * alpha : alpha;
      if (alpha > 0.0)
        for (std::size_t i = 0; i < k; ++i) {
          double& xi = t.x[static_cast<std::size_t>(t.free[i])];
          xi += alpha * (static_cast<double>(y[i]) - xi);
        }
      bad.erase(std::find_if(bad.begin(), bad.end(), [&](std::size_t i) { return key[i] > reach; }), bad.end());
    }
    bad.resize(std::min(bad.size(), deletions_per_loop));
    std::vector<int> gone;
    for (const std::size_t i : bad) {
      gone.push_back(t.free[i]);
      t.x[static_cast<std::size_t>(t.free[i])] = 0.0;
    }
    std::sort(gone.begin(), gone.end());
    t.free = without(t.free, gone);
    t.bound = merged(t.bound, gone);
    y = solve_on(t.free, options, result, stats);
  }

  const std::size_t k = t.free.size();
  stats.deleted = entry - k;
  t.x.assign(n_, 0.0);
  for (std::size_t i = 0; i < k; ++i) t.x[static_cast<std::size_t>(t.free[i])] = static_cast<double>(y[i]);
  evaluate(y, options.lambda, t.residual, t.score);
  return stats;
}

template <class Real>
TntResult TntActiveSet<Real>::solve(const Vector& b, const TntOptions& options) {
  TntResult result;
  const double beta = norm2(b);
  if (n_ == 0 || beta == 0.0) {  // x = 0 is optimal (also with lambda > 0)
    result.x.assign(n_, 0.0);
    result.residual_norm = beta;
    result.converged = true;
    return result;
  }
  const std::vector<Real> b_real(b.begin(), b.end());
  b_.write(queue_, std::span<const Real>(b_real));
  epsilon_ = problem_.epsilon;
  shift_ = 0.0;
  rebuild_ = true;
  const double tol = problem_.tolerance, release = problem_.release_tolerance;
  const int max_outer = options.max_outer_iterations > 0 ? options.max_outer_iterations : static_cast<int>(3 * n_);

  // The first feasible solution (Myre 2013, App. E.1 step 4, which frees every variable): unless
  // warm-started (Tnt has checked initial_free), the variables whose gradient A^T b at x = 0 is positive,
  // the candidates an outer iteration at x = 0 would insert. The others already satisfy the KKT
  // conditions there, and leaving them out makes the first, largest factorisations smaller (docs/nnls.md,
  // "Starting from the positive gradient"); those needed later come in by the outer loop. The initial LSQ
  // steps back from x = 0: every bad variable goes at once.
  Trial best;
  for (std::size_t j = 0; j < n_; ++j) best.bound.push_back(static_cast<int>(j));
  best.x.assign(n_, 0.0);
  if (options.initial_free.empty()) {
    r_.write(queue_, std::span<const Real>(b_real));
    const Vector g = gradient(best, options.lambda);
    for (std::size_t j = 0; j < n_; ++j)
      if (g[j] > 0.0) best.free.push_back(static_cast<int>(j));
    best.bound = without(best.bound, best.free);
  } else {
    for (const std::size_t j : options.initial_free) best.free.push_back(static_cast<int>(j));
    std::sort(best.free.begin(), best.free.end());
    best.free.erase(std::unique(best.free.begin(), best.free.end()), best.free.end());
    best.bound = without(best.bound, best.free);
  }
  best.residual = best.score = beta;
  const bool batch_early = options.deletion == TntDeletion::batch;
  const LsqStats first = lsq(best, n_, options, result, batch_early);
  inverse_.checkpoint();
  result.cg_iterations += first.cg_iterations;
  result.log.push_back({0, best.free.size(), 0, first.deleted, best.score, first.cg_iterations, true});

  std::size_t accepted_batch = n_;  // k_acc (App. E.1 step 5.1), initially n
  for (;;) {
    if (result.iterations == max_outer) {
      result.diagnosis = "iteration limit " + std::to_string(max_outer) + " reached";
      break;
    }
    // A Ctrl-C under an io::InterruptGuard ends the solve at the best point so far.
    if (io::interrupted()) {
      result.diagnosis = "interrupted after " + std::to_string(result.iterations) + " outer iterations";
      break;
    }
    if (options.keep_going && !options.keep_going(result.iterations)) {
      result.diagnosis = "stopped after " + std::to_string(result.iterations) + " outer iterations";
      break;
    }
    ++result.iterations;
    // The device's r is best's: every rejected trial ended the outer iteration or was followed by
    // another trial, and an accepted one became best.
    const Vector g = gradient(best, options.lambda);
    double free_gradient = 0.0;
    for (const int j : best.free)
      free_gradient = std::max(free_gradient, std::abs(g[static_cast<std::size_t>(j)]) / beta);
    // App. E.1 step 5.3, with the KKT tolerance in place of 0 (rounding); once no variable passes it, those
    // above the release tolerance, so the path to the KKT point is the same as without them.
    std::vector<int> candidates;
    for (const double level : {tol, release}) {
      for (const int j : best.bound)
        if (g[static_cast<std::size_t>(j)] / beta > level) candidates.push_back(j);
      if (!candidates.empty()) break;
    }
    // Ends the solve at best, converged if its free variables pass the KKT test.
    const auto stop_at_best = [&] {
      result.converged = free_gradient <= tol;
      if (!result.converged)
        result.diagnosis = "PCGNR left a free variable with scaled gradient " + text(free_gradient) +
                           " above the tolerance " + text(tol) + " (max_cg_iterations = " +
                           std::to_string(options.max_cg_iterations) + ")";
    };
    if (candidates.empty()) {
      stop_at_best();
      break;
    }
    std::stable_sort(candidates.begin(), candidates.end(), [&](int i, int j) {
      return g[static_cast<std::size_t>(i)] > g[static_cast<std::size_t>(j)];
    });

    // max_ins = ceil(ec k_acc): rounded down, a batch of fewer than 5 could never grow again at ec = 1.2
    // (floor(1.2 k) = k).
    const std::size_t max_insertions =
        static_cast<std::size_t>(std::ceil(options.expansion * static_cast<double>(accepted_batch)));
    std::size_t k = candidates.size();
    bool accepted = false, early = batch_early;  // a rejected trial's successors go without early zeros
    bool first_trial = true;
    for (;;) {  // App. E.1 step 5.6
      k = std::min(std::max<std::size_t>(1, static_cast<std::size_t>(options.reduction * static_cast<double>(k))),
                   max_insertions);
      std::vector<int> inserted(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(k));
      std::sort(inserted.begin(), inserted.end());
      Trial trial;
      trial.free = merged(best.free, inserted);
      trial.bound = without(best.bound, inserted);
      trial.x = best.x;  // LSQ's feasible starting point (the inserted variables at 0), and its score
      trial.score = best.score;
      trial.residual = best.residual;
      inverse_.rollback();  // to best's F
      // Deletions per loop (the thesis leaves them open): by default as many as were inserted, so a trial
      // can undo its batch in one refactorisation but a batch of one cannot empty the free set at once.
      const LsqStats s =
          lsq(trial, options.deletions_per_loop > 0 ? options.deletions_per_loop : k, options, result, early);
      ++result.inner_iterations;
      result.cg_iterations += s.cg_iterations;
      accepted = trial.score < best.score * (1.0 - options.rel_tol);
      result.log.push_back(
          {result.iterations, trial.free.size(), k, s.deleted, trial.score, s.cg_iterations, accepted});
      if (accepted) {
        inverse_.checkpoint();
        best = std::move(trial);
        // A first trial smaller than the cap (few candidates) says nothing of the batch LSQ can take.
        accepted_batch = first_trial ? std::max(accepted_batch, k) : k;
        break;
      }
      first_trial = early = false;
      if (k == 1) break;  // App. E.1 step 5.6.6: not even the most attractive single insertion helped
    }
    if (!accepted && g[static_cast<std::size_t>(candidates.front())] / beta <= tol) {
      // Every candidate lies below the KKT tolerance: releasing them was worth a try, not a requirement.
      stop_at_best();
      break;
    }
    if (!accepted) {
      // With step_back exact arithmetic accepts any variable with a positive gradient: this happens when
      // the gradient is rounding (a tolerance below it) or the column depends on the free ones. With
      // most_negative the LSQ's deletions may also have raised the residual.
      result.diagnosis = "no insertion lowered the residual: variable " + std::to_string(candidates.front()) +
                         " has scaled gradient " + text(g[static_cast<std::size_t>(candidates.front())] / beta) +
                         " above the tolerance " + text(tol) +
                         " but releasing it did not help (rounding, or columns that depend linearly on the free ones)";
      break;
    }
  }
  result.x = std::move(best.x);
  result.residual_norm = best.residual;
  return result;
}

template class TntActiveSet<float>;
template class TntActiveSet<double>;

}  // namespace hetflow::nnls
