#include "hetflow/app/lbm/lbm_case_multiphase.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

namespace hetflow::app {
namespace {

std::size_t components(const casefile::Case& c) { return c.get<std::string>("lbm.model") == "two_component" ? 2 : 1; }

// Given keys of the section of a model that is not the chosen one: a likely mistake, worth reporting.
void check_unused_section(const casefile::Case& c, const std::string& section, const std::vector<std::string>& keys,
                          std::vector<std::string>& problems) {
  if (c.get<std::string>("lbm.model") == section) return;
  for (const std::string& key : keys) {
    const std::string path = section + "." + key;
    if (c.is_set(path)) {
      problems.push_back(c.where(path) + ": " + path + " does not apply to lbm.model = " +
                         c.get<std::string>("lbm.model") + ": set lbm.model: " + section + " to use it");
    }
  }
}

void check_length(const casefile::Case& c, const std::string& path, std::size_t n, std::vector<std::string>& problems) {
  const auto v = c.get<std::vector<double>>(path);
  if (v.size() == n) return;
  problems.push_back(c.where(path) + ": " + path + " has " + std::to_string(v.size()) + " entries: lbm.model = " +
                     c.get<std::string>("lbm.model") + " needs " + (n == 1 ? "one density" : "two densities, [a, b]"));
}

}  // namespace

void declare_multiphase(casefile::Schema& s) {
  s.section("lbm").key<std::string>("model", "single", "single: one phase; shan_chen: liquid and vapour of one "
                                                       "component; two_component: two immiscible components")
      .one_of({"single", "shan_chen", "two_component"});

  auto& sc = s.section("shan_chen", "lbm.model: shan_chen; psi = psi0 exp(-rho0 / rho), p = rho/3 + G psi^2/6");
  const lbm::ShanChen scd;
  sc.key<double>("g", scd.g, "interaction strength; negative attracts (below about -92.4 liquid and vapour coexist)");
  sc.key<double>("psi0", scd.psi0, "pseudo-potential scale").above(0);
  sc.key<double>("rho0", scd.rho0, "pseudo-potential density scale").above(0);

  auto& tc = s.section("two_component", "lbm.model: two_component; the force on a from b is "
                                        "-G rho_a sum_i w_i rho_b(x + c_i) c_i, p = (rho_a + rho_b)/3 + G rho_a rho_b/3");
  const lbm::TwoComponent tcd;
  tc.key<double>("g", tcd.g, "repulsion between the components; at tau 1 an even mixture of total density 2 "
                             "separates above about 0.5").at_least(0);
  tc.key<double>("tau_b", tcd.tau_b, "relaxation time of component b (a uses lbm.tau)").above(0.5);
  tc.key<std::vector<double>>("wall_density", std::vector<double>{tcd.wall_density[0], tcd.wall_density[1]},
                              "virtual densities [a, b] of wall nodes: wetting, hence the contact angle")
      .length(2)
      .at_least(0);

  auto& in = s.section("initial", "the densities at step 0 (velocity: lbm.initial_velocity)");
  in.key<std::string>("kind", "uniform", "uniform: `density` everywhere; drop: `drop_density` within `radius` of "
                                         "`centre`, `density` elsewhere; mixture: `density` perturbed at random")
      .one_of({"uniform", "drop", "mixture"});
  in.key<std::vector<double>>("density", std::vector<double>{1.0}, "density of each component ([a, b] with two)")
      .at_least(0);
  in.key<std::vector<double>>("drop_density", std::vector<double>{}, "drop: density of each component inside")
      .at_least(0);
  in.key<double>("radius", 0.0, "drop radius").at_least(0).unit("cells");
  in.key<std::vector<double>>("centre", std::vector<double>{}, "drop centre [x, y, z]; empty: the middle").unit("cells");
  in.key<double>("perturbation", 0.01, "mixture: relative amplitude of the uniform random perturbation")
      .range(0, 1);
  in.key<int>("seed", 1, "mixture: random seed; one seed gives one field on every platform").at_least(0);
}

void check_multiphase(const casefile::Case& c, std::vector<std::string>& problems) {
  check_unused_section(c, "shan_chen", {"g", "psi0", "rho0"}, problems);
  check_unused_section(c, "two_component", {"g", "tau_b", "wall_density"}, problems);
  const std::size_t n = components(c);
  const std::string kind = c.get<std::string>("initial.kind");
  check_length(c, "initial.density", n, problems);
  if (kind == "drop") {
    check_length(c, "initial.drop_density", n, problems);
    if (!(c.get<double>("initial.radius") > 0))
      problems.push_back(c.where("initial.radius") + ": initial.radius must be > 0 for initial.kind = drop");
    const auto centre = c.get<std::vector<double>>("initial.centre");
    if (!centre.empty() && centre.size() != 3)
      problems.push_back(c.where("initial.centre") + ": initial.centre has " + std::to_string(centre.size()) +
                         " entries: expected [x, y, z]");
  }
  for (const char* key : {"drop_density", "radius", "centre"}) {
    const std::string path = std::string("initial.") + key;
    if (kind != "drop" && c.is_set(path))
      problems.push_back(c.where(path) + ": " + path + " applies only to initial.kind = drop");
  }
  for (const char* key : {"perturbation", "seed"}) {
    const std::string path = std::string("initial.") + key;
    if (kind != "mixture" && c.is_set(path))
      problems.push_back(c.where(path) + ": " + path + " applies only to initial.kind = mixture");
  }
}

void configure_multiphase(const casefile::Case& c, lbm::Config& config) {
  const std::string model = c.get<std::string>("lbm.model");
  if (model == "shan_chen") {
    config.shan_chen = lbm::ShanChen{c.get<double>("shan_chen.g"), c.get<double>("shan_chen.psi0"),
                                     c.get<double>("shan_chen.rho0")};
  } else if (model == "two_component") {
    const auto wall = c.get<std::vector<double>>("two_component.wall_density");
    config.two_component =
        lbm::TwoComponent{c.get<double>("two_component.g"), c.get<double>("two_component.tau_b"), {wall[0], wall[1]}};
  }
}

void initialise_multiphase(const casefile::Case& c, const lbm::Geometry& geometry, lbm::Solver& solver) {
  const auto u0 = c.get<std::vector<double>>("lbm.initial_velocity");
  const std::array<double, 3> u{u0[0], u0[1], u0[2]};
  const std::size_t n = components(c);
  const std::string kind = c.get<std::string>("initial.kind");
  const auto outside = c.get<std::vector<double>>("initial.density");
  if (kind == "uniform" && n == 1) {
    solver.initialise(outside[0], u);
    return;
  }
  std::vector<std::vector<double>> rho(n, std::vector<double>(geometry.size()));
  const auto dims = geometry.dims();
  if (kind == "drop") {
    const auto inside = c.get<std::vector<double>>("initial.drop_density");
    const double r = c.get<double>("initial.radius");
    auto centre = c.get<std::vector<double>>("initial.centre");
    if (centre.empty()) {
      for (std::size_t d = 0; d < 3; ++d) centre.push_back(0.5 * static_cast<double>(dims[d] - 1));
    }
    for (std::size_t z = 0; z < dims[2]; ++z)
      for (std::size_t y = 0; y < dims[1]; ++y)
        for (std::size_t x = 0; x < dims[0]; ++x) {
          const double d = std::hypot(static_cast<double>(x) - centre[0], static_cast<double>(y) - centre[1],
                                      static_cast<double>(z) - centre[2]);
          for (std::size_t k = 0; k < n; ++k) rho[k][geometry.index(x, y, z)] = d < r ? inside[k] : outside[k];
        }
  } else {
    // A 64-bit generator and explicit scaling, since std's distributions differ between libraries.
    std::mt19937_64 rng(c.get<std::uint64_t>("initial.seed"));
    const double amplitude = kind == "mixture" ? c.get<double>("initial.perturbation") : 0.0;
    for (std::size_t i = 0; i < geometry.size(); ++i) {
      for (std::size_t k = 0; k < n; ++k) {
        const double unit = static_cast<double>(rng() >> 11) * 0x1p-53;  // [0, 1)
        rho[k][i] = outside[k] * (1.0 + amplitude * (2.0 * unit - 1.0));
      }
    }
  }
  if (n == 2) {
    solver.initialise(rho[0], rho[1], u);
  } else {
    solver.initialise(rho[0], u);
  }
}

const std::vector<double>& shown_density(const lbm::Fields& fields) {
  return fields.rho_a.empty() ? fields.rho : fields.rho_a;
}

}  // namespace hetflow::app
