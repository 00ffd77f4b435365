#include "hetflow/ode/radau5.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/error.hpp"
#include "hetflow/ode/radau5_buffers.hpp"
#include "hetflow/ode/radau5_launch.hpp"
#include "hetflow/ode/radau5_run.hpp"

namespace hetflow::ode {
namespace {

// radau5.cl's S_* settings.
enum Setting : std::size_t {
  s_uround,
  s_safe,
  s_thet,
  s_fnewt,
  s_quot1,
  s_quot2,
  s_facl,
  s_facr,
  s_h0,
  s_hmax,
  s_u1,
  s_alph,
  s_beta,
  s_c1,
  s_c2,
  s_c1m1,
  s_c2m1,
  s_c1mc2,
  s_dd1,
  s_dd2,
  s_dd3,
  setting_count
};

// The method's constants, computed as radau5.f computes them (host pow and sqrt are glibc's, as the
// Fortran's; nothing here can be contracted into an FMA: the host build does not target FMA).
void method_constants(std::vector<double>& s) {
  const double sq6 = std::sqrt(6.0);
  s[s_c1] = (4.0 - sq6) / 10.0;
  s[s_c2] = (4.0 + sq6) / 10.0;
  s[s_c1m1] = s[s_c1] - 1.0;
  s[s_c2m1] = s[s_c2] - 1.0;
  s[s_c1mc2] = s[s_c1] - s[s_c2];
  s[s_dd1] = -(13.0 + 7.0 * sq6) / 3.0;
  s[s_dd2] = (-13.0 + 7.0 * sq6) / 3.0;
  s[s_dd3] = -1.0 / 3.0;
  const double cbrt81 = std::pow(81.0, 1.0 / 3.0), cbrt9 = std::pow(9.0, 1.0 / 3.0);
  const double u1 = (6.0 + cbrt81 - cbrt9) / 30.0;
  double alph = (12.0 - cbrt81 + cbrt9) / 60.0;
  double beta = (cbrt81 + cbrt9) * std::sqrt(3.0) / 60.0;
  const double cno = alph * alph + beta * beta;
  s[s_u1] = 1.0 / u1;
  s[s_alph] = alph / cno;
  s[s_beta] = beta / cno;
}

// The kernel's settings array: the options, then the method's constants.
std::vector<double> kernel_settings(const Options& o, const Tolerances& tol) {
  std::vector<double> s(setting_count, 0.0);
  s[s_uround] = o.uround;
  s[s_safe] = o.safe;
  s[s_thet] = o.thet;
  s[s_fnewt] = newton_tolerance(o, tol);
  s[s_quot1] = o.quot1;
  s[s_quot2] = o.quot2;
  s[s_facl] = 1.0 / o.min_step_ratio;
  s[s_facr] = 1.0 / o.max_step_ratio;
  s[s_h0] = o.h0;
  s[s_hmax] = o.h_max;
  method_constants(s);
  return s;
}

// Whether the kernel calls the system's jac() (see Jacobian).
bool analytic(Jacobian choice, const System& system) {
  if (choice == Jacobian::analytic && !system.analytic_jacobian)
    throw core::Error("ODE options: jacobian is analytic but the system has no jac() (analytic_jacobian is not set)");
  if (choice == Jacobian::finite_difference && system.group_only)
    throw core::Error(
        "ODE options: jacobian is finite_difference but the system is group_only (it has no rhs() for "
        "RADAU5's difference quotients): use its analytic jac_group");
  if (choice == Jacobian::automatic) return system.analytic_jacobian;
  return choice == Jacobian::analytic;
}

std::vector<std::size_t> batch_order(std::size_t count) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  return order;
}

}  // namespace

std::size_t Result::failures() const {
  std::size_t n = 0;
  for (const Statistics& s : statistics) n += s.ok() ? 0 : 1;
  return n;
}

std::size_t Result::started() const {
  std::size_t n = 0;
  for (const Statistics& s : statistics) n += s.status == Status::not_run ? 0 : 1;
  return n;
}

std::string Result::report() const {
  std::string text;
  for (std::size_t k = 0; k < statistics.size(); ++k)
    if (!statistics[k].ok()) text += "system " + std::to_string(k) + ": " + describe(statistics[k], nmax) + "\n";
  return text;
}

Radau5::Radau5(const core::DeviceSet& devices, System system, Options options)
    : devices_(&devices),
      system_(std::move(system)),
      options_(std::move(options)),
      analytic_jacobian_(analytic(options_.jacobian, system_)),
      parts_(devices.size()),
      pipes_(devices.size()) {
  // A batch of one takes mapping 2 wherever any batch may (n > 64 on GPUs), so this checks n for all.
  launch::check_system(system_, mapping(1));
  validate(options_, system_.n);
  if (!system_.jacobian_pattern.empty()) sparse_ = sparse_lu(system_.n, system_.jacobian_pattern);
  const Tolerances tol = transformed_tolerances(options_, system_.n);
  tolerances_ = tol.rtol;
  tolerances_.insert(tolerances_.end(), tol.atol.begin(), tol.atol.end());
  settings_ = kernel_settings(options_, tol);

  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& info = devices.device(k).info;
    if (!info.fp64)
      throw core::Error("RADAU5 needs double precision (cl_khr_fp64), which " + devices.device(k).label() + " lacks");
    if (options_.work_group > info.max_work_group)
      throw core::Error("ODE options: work_group = " + std::to_string(options_.work_group) + ": " +
                        devices.device(k).label() + " takes at most " + std::to_string(info.max_work_group));
  }
}

Radau5::Radau5(Radau5&&) noexcept = default;
Radau5& Radau5::operator=(Radau5&&) noexcept = default;
Radau5::~Radau5() = default;

Mapping Radau5::mapping(std::size_t systems) const {
  return launch::resolve(options_.mapping, system_, *devices_, systems);
}

Radau5::LaunchShape Radau5::launch_shape(std::size_t systems, std::size_t k) const {
  const Mapping m = mapping(systems);
  const core::Device& d = devices_->device(k);
  return {m, launch::local_range(d, options_, m, system_.n).size[0],
          launch::group_count(d, m, options_, system_) / std::max(d.info.compute_units, 1u),
          launch::register_budget(*devices_, k, options_, m, systems, static_cast<std::size_t>(system_.n)),
          launch::lu_panel(d, options_, m, system_.n)};
}

void Radau5::prepare(std::size_t systems) const {
  for (std::size_t k = 0; k < parts_.size(); ++k) part(k, launch_shape(systems, k));
}

Result Radau5::integrate(BatchView batch, const KeepGoing& keep_going) const {
  const std::size_t count = checked_count(batch);
  const std::vector<std::size_t> order = run_order(batch, count);
  return Run(*this, batch, order, Run::Output::states).results(keep_going);
}

std::vector<double> Radau5::rates(BatchView batch, std::size_t count) const {
  const std::vector<std::size_t> order = batch_order(count);
  const Result r = Run(*this, batch, order, Run::Output::initial_rates).results();
  std::vector<double> key(count);
  for (std::size_t i = 0; i < count; ++i) key[i] = r.statistics[i].t;
  return key;
}

std::vector<double> Radau5::initial_rates(BatchView batch) const { return rates(batch, checked_count(batch)); }

// Ties in batch order. Only mapping 1 sorts: a group of mapping 2 runs one system alone, and the phased
// mapping's passes leave only the unfinished systems side by side, where sorting, ascending or
// descending, runs some batches slower than batch order (docs/chem.md, Performance).
std::vector<std::size_t> Radau5::run_order(BatchView batch, std::size_t count) const {
  std::vector<std::size_t> order = batch_order(count);
  std::vector<double> key(batch.sort_key.begin(), batch.sort_key.end());
  // The initial rate is known beforehand and, like the work each system takes (known only afterwards),
  // groups systems that take similar steps, which GPUs reward (docs/chem.md, Performance). CPUs gain
  // nothing and pay for the extra pass, so they keep batch order.
  const bool by_rate =
      options_.order == Order::initial_rate || (options_.order == Order::automatic && launch::all_gpus(*devices_));
  if (key.empty() && by_rate && mapping(count) == Mapping::work_item) key = rates(batch, count);
  if (!key.empty())
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return key[i] < key[j]; });
  return order;
}

}  // namespace hetflow::ode
