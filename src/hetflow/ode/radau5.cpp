#include "hetflow/ode/radau5.hpp"

#include <cmath>
#include <cstdint>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"

namespace hetflow::ode {
namespace {

using core::number_text;

// radau5.cl's S_* settings and C_* counters.
enum Setting : std::size_t {
  s_uround, s_safe, s_thet, s_fnewt, s_quot1, s_quot2, s_facl, s_facr, s_h0, s_hmax,
  s_u1, s_alph, s_beta, s_c1, s_c2, s_c1m1, s_c2m1, s_c1mc2, s_dd1, s_dd2, s_dd3, setting_count
};
constexpr std::size_t counter_count = 8;

// Mapping 1 keeps J, E1 and the complex E2 (4 n^2 doubles) in one work-item's private memory.
constexpr int max_private_n = 64;
// Mapping 2 keeps them in global scratch, but the user's jac still fills a private n x n array in one
// work-item, and every work-item's frame is sized for it: 128 KiB at n = 128.
constexpr int max_group_n = 128;
// Mapping 1 up to here: at n = 16 its private matrices already take 8 KiB per work-item, which spills
// from registers and cache on GPUs, while mapping 2's group still has work for its work-items.
constexpr int automatic_group_above = 16;

// radau5.cl's W_DOUBLES: mapping 2's scratch per work-group (14 vectors, 4 matrices).
std::size_t group_doubles(std::size_t n) { return 14 * n + 4 * n * n; }

// Mapping 2 only on GPUs: PoCL 3.1's work-group compiler does not finish its kernel in usable time (its
// barrier-region passes grow with the kernel's conditional barriers; measured on 2 cores: unfinished
// after 13 min by default, 5 min with POCL_WORK_GROUP_METHOD=cbs), and a CPU has no group to spread over.
Mapping resolve(Mapping m, int n, const core::DeviceSet& devices) {
  if (m != Mapping::automatic) return m;
  bool gpus = true;
  for (std::size_t k = 0; k < devices.size(); ++k) gpus = gpus && devices.device(k).info.kind == core::DeviceKind::gpu;
  return gpus && n > automatic_group_above ? Mapping::work_group : Mapping::work_item;
}

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

void check_system(const System& sys, Mapping mapping) {
  const bool group = mapping == Mapping::work_group;
  const int limit = group ? max_group_n : max_private_n;
  if (sys.n <= 0 || sys.n > limit)
    throw core::Error("ODE system size n = " + std::to_string(sys.n) + ": expected 1 .. " + std::to_string(limit) +
                      (group ? " (one work-group per system; jac fills n^2 private doubles)"
                             : " (one work-item per system keeps 4 n^2 doubles; the work_group mapping takes more)"));
  if (sys.source.find("rhs") == std::string::npos)
    throw core::Error("ODE system source: expected OpenCL C defining void rhs(double t, const double* y, "
                      "double* f, __global const double* p)");
  if (sys.analytic_jacobian && sys.source.find("jac") == std::string::npos)
    throw core::Error("ODE system source: analytic_jacobian is set but no jac(double t, const double* y, "
                      "double* dfdy, __global const double* p) is defined");
}

void check_finite(const std::vector<double>& v, const char* name, std::size_t per_system) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw core::Error(std::string("batch ") + name + " of system " + std::to_string(i / per_system) +
                        ", component " + std::to_string(i % per_system) + " = " + number_text(v[i]) +
                        ": expected a finite value");
}

void check_times(const Batch& b, std::size_t count) {
  for (const auto* list : {&b.t0, &b.t_end})
    if (list->size() != 1 && list->size() != count)
      throw core::Error(std::string("batch ") + (list == &b.t0 ? "t0" : "t_end") + " has " +
                        std::to_string(list->size()) + " values: expected 1 or one per system (" +
                        std::to_string(count) + ")");
  check_finite(b.t0, "t0", 1);
  check_finite(b.t_end, "t_end", 1);
  const bool shared = b.t0.size() == 1 && b.t_end.size() == 1;
  for (std::size_t s = 0; s < (shared ? 1 : count); ++s) {
    const double t0 = b.t0[b.t0.size() == 1 ? 0 : s], t1 = b.t_end[b.t_end.size() == 1 ? 0 : s];
    if (t0 == t1)
      throw core::Error("batch t_end = t0 = " + number_text(t0) + " for system " + std::to_string(s) +
                        ": expected an interval of non-zero length");
  }
}

// Per device: global size fixed by the device and mapping alone, as in ftle (PoCL 3.1 must see one
// launch width per kernel); the kernel strides over its share of systems. Mapping 2's group of 64 on a
// GPU gives each work-item about one column at chemistry's n ~ 54; on PoCL a group runs in one thread
// anyway, and 4 work-items make every one own several columns. Mapping 2 runs fewer, larger groups
// because each holds its scratch.
core::NDRange local_range(const core::Device& d, Mapping m) {
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  return core::NDRange(m == Mapping::work_group && gpu ? 64 : gpu ? 32 : 4);
}
std::size_t group_count(const core::Device& d, Mapping m) {
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  const std::size_t per_unit = m == Mapping::work_group ? (gpu ? 8u : 4u) : (gpu ? 64u : 16u);
  return per_unit * std::max(d.info.compute_units, 1u);
}

}  // namespace

struct Radau5::Device {
  core::Program program;
  core::Kernel kernel;
  // Mapping 2's per-group matrices, vectors and pivots; one element each in mapping 1, which ignores them.
  core::Buffer<double> scratch;
  core::Buffer<cl_int> scratch_pivots;
};

std::size_t Result::failures() const {
  std::size_t n = 0;
  for (const Statistics& s : statistics) n += s.ok() ? 0 : 1;
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
      mapping_(resolve(options_.mapping, system_.n, devices)) {
  check_system(system_, mapping_);
  validate(options_, system_.n);
  const Tolerances tol = transformed_tolerances(options_, system_.n);
  tolerances_ = tol.rtol;
  tolerances_.insert(tolerances_.end(), tol.atol.begin(), tol.atol.end());

  settings_.assign(setting_count, 0.0);
  settings_[s_uround] = options_.uround;
  settings_[s_safe] = options_.safe;
  settings_[s_thet] = options_.thet;
  settings_[s_fnewt] = newton_tolerance(options_, tol);
  settings_[s_quot1] = options_.quot1;
  settings_[s_quot2] = options_.quot2;
  settings_[s_facl] = 1.0 / options_.min_step_ratio;
  settings_[s_facr] = 1.0 / options_.max_step_ratio;
  settings_[s_h0] = options_.h0;
  settings_[s_hmax] = options_.h_max;
  method_constants(settings_);

  const std::string source =
      core::kernel_source("ode/radau5.cl") + "\n#line 1 \"ode system\"\n" + system_.source + "\n";
  core::BuildOptions build;
  const bool group = mapping_ == Mapping::work_group;
  build.define("ODE_N", system_.n)
      .define("ODE_ANALYTIC_JACOBIAN", system_.analytic_jacobian ? 1 : 0)
      .define("ODE_GROUP", group ? 1 : 0);
  const auto n = static_cast<std::size_t>(system_.n);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::Device& d = devices.device(k);
    if (!d.info.fp64)
      throw core::Error("RADAU5 needs double precision (cl_khr_fp64), which " + d.label() + " lacks");
    const std::size_t groups = group ? group_count(d, mapping_) : 1;
    auto part = std::make_unique<Device>(
        Device{core::build_program(devices.context(k), "ode/radau5.cl", source, build.str()), {},
               core::Buffer<double>(devices.context(k), group ? groups * group_doubles(n) : 1),
               core::Buffer<cl_int>(devices.context(k), group ? groups * 2 * n : 1)});
    part->kernel = part->program.kernel("radau5_integrate");
    parts_.push_back(std::move(part));
  }
}

Radau5::Radau5(Radau5&&) noexcept = default;
Radau5& Radau5::operator=(Radau5&&) noexcept = default;
Radau5::~Radau5() = default;

Result Radau5::integrate(const Batch& batch) const {
  const auto n = static_cast<std::size_t>(system_.n);
  if (batch.y0.empty() || batch.y0.size() % n != 0)
    throw core::Error("batch y0 has " + std::to_string(batch.y0.size()) + " values: expected a positive multiple of n = " +
                      std::to_string(n));
  const std::size_t count = batch.y0.size() / n;
  if (batch.params.size() != count * system_.parameters)
    throw core::Error("batch params has " + std::to_string(batch.params.size()) + " values: expected " +
                      std::to_string(system_.parameters) + " per system x " + std::to_string(count) + " systems");
  check_finite(batch.y0, "y0", n);
  check_finite(batch.params, "params", std::max<std::size_t>(system_.parameters, 1));
  check_times(batch, count);

  Result result;
  result.y = batch.y0;
  result.statistics.resize(count);
  result.nmax = options_.nmax;
  std::vector<std::int64_t> counters(count * counter_count);
  std::vector<double> reached(count * 2);

  // Shares are contiguous; every device gets its inputs, runs and reads back without waiting for the
  // others, and the host waits once for all.
  struct Share {
    std::size_t first = 0, count = 0;
    core::Buffer<double> y, params, t0, t_end, tol, settings, reached;
    core::Buffer<std::int64_t> counters;
  };
  const core::Partition split(count, 1, core::distribution_weights(core::Distribution::uniform, *devices_));
  std::vector<Share> shares(parts_.size());
  const cl_uint time_stride = batch.t0.size() == 1 && batch.t_end.size() == 1 ? 0u : 1u;
  // A per-system time list may pair with a shared one: the shared one is expanded.
  std::vector<double> t0 = batch.t0, t_end = batch.t_end;
  if (time_stride) {
    if (t0.size() == 1) t0.assign(count, batch.t0[0]);
    if (t_end.size() == 1) t_end.assign(count, batch.t_end[0]);
  }
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Share& sh = shares[k];
    sh.first = split.share(k).offset;
    sh.count = split.share(k).count;
    if (sh.count == 0) continue;
    const core::Context& ctx = devices_->context(k);
    const core::Queue& q = devices_->compute(k);
    sh.y = core::Buffer<double>(ctx, sh.count * n);
    sh.y.write(q, std::span<const double>(batch.y0).subspan(sh.first * n, sh.count * n), 0, core::Blocking::no);
    const std::size_t np = system_.parameters;
    sh.params = core::Buffer<double>(ctx, std::max<std::size_t>(sh.count * np, 1));
    sh.params.write(q, std::span<const double>(batch.params).subspan(sh.first * np, sh.count * np), 0,
                    core::Blocking::no);
    const std::size_t t_first = time_stride ? sh.first : 0, t_count = time_stride ? sh.count : 1;
    sh.t0 = core::Buffer<double>(ctx, t_count);
    sh.t0.write(q, std::span<const double>(t0).subspan(t_first, t_count), 0, core::Blocking::no);
    sh.t_end = core::Buffer<double>(ctx, t_count);
    sh.t_end.write(q, std::span<const double>(t_end).subspan(t_first, t_count), 0, core::Blocking::no);
    sh.tol = core::Buffer<double>(ctx, tolerances_.size());
    sh.tol.write(q, tolerances_, 0, core::Blocking::no);
    sh.settings = core::Buffer<double>(ctx, settings_.size());
    sh.settings.write(q, settings_, 0, core::Blocking::no);
    sh.counters = core::Buffer<std::int64_t>(ctx, sh.count * counter_count);
    sh.reached = core::Buffer<double>(ctx, sh.count * 2);

    core::Kernel& kernel = parts_[k]->kernel;
    kernel.args(sh.y, sh.params, static_cast<cl_uint>(system_.parameters), sh.t0, sh.t_end, time_stride, sh.tol,
                sh.settings, static_cast<cl_long>(options_.nmax), static_cast<cl_int>(options_.nit),
                static_cast<cl_int>(options_.controller == Controller::gustafsson ? 1 : 0),
                static_cast<cl_int>(options_.zero_start ? 1 : 0), sh.counters, sh.reached,
                static_cast<cl_ulong>(sh.count), parts_[k]->scratch, parts_[k]->scratch_pivots);
    const core::Device& d = devices_->device(k);
    const core::NDRange local = local_range(d, mapping_);
    kernel.launch(q, core::NDRange(local.size[0] * group_count(d, mapping_)), local);
    sh.y.read(q, std::span<double>(result.y).subspan(sh.first * n, sh.count * n), 0, core::Blocking::no);
    sh.counters.read(q, std::span<std::int64_t>(counters).subspan(sh.first * counter_count, sh.count * counter_count), 0,
                     core::Blocking::no);
    sh.reached.read(q, std::span<double>(reached).subspan(sh.first * 2, sh.count * 2), 0, core::Blocking::no);
    q.flush();
  }
  for (std::size_t k = 0; k < parts_.size(); ++k) devices_->compute(k).finish();

  for (std::size_t s = 0; s < count; ++s) {
    const std::int64_t* c = &counters[s * counter_count];
    Statistics& st = result.statistics[s];
    st.status = static_cast<Status>(c[0]);
    st.nfcn = c[1];
    st.njac = c[2];
    st.nstep = c[3];
    st.naccpt = c[4];
    st.nrejct = c[5];
    st.ndec = c[6];
    st.nsol = c[7];
    st.t = reached[2 * s];
    st.h = reached[2 * s + 1];
  }
  return result;
}

}  // namespace hetflow::ode
