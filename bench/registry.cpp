#include "bench/registry.hpp"

#include "bench/chem/chem_bench.hpp"
#include "bench/core/probe_bench.hpp"
#include "bench/ftle/ftle_bench.hpp"
#include "bench/karst/karst_bench.hpp"
#include "bench/lbm/lbm_bench.hpp"
#include "bench/nnls/nnls_bench.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::bench {

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> all = {
      {"probe", "device-memory copy and triad bandwidth (the reference of every benchmark)", core_probe},
      {"lbm", "D3Q19 lattice-Boltzmann MLUPs/s per memory pattern and storage precision", lbm},
      {"ftle", "FTLE particle-steps/s: analytic double gyre RK4, gridded 2D/3D RK2 M4', paper Table 1, end to end, streamed snapshots",
       ftle},
      {"chem", "RADAU5 chemistry ODE systems/s: GRI-Mech 3.0 and H2/O2, dt 1e-6 and 1e-4 s, against batch size, paper Table 5",
       chem},
      {"nnls", "TNT non-negative least squares against n (5 % and 50 % active), FNNLS and Lawson-Hanson, SVC generation, A^T A GFLOP/s",
       nnls},
      {"karst", "karst-conduit forward runs/s (N=M*10=1000, 1000 steps; N=M=1000, 10000 steps) batched over 1..10000 parameter sets",
       karst},
      {"lbm-scaling", "lattice-Boltzmann weak scaling over the selected devices (slabs, halo relay)", lbm_scaling},
  };
  return all;
}

const Benchmark& find_benchmark(const std::string& name) {
  std::string known;
  for (const Benchmark& b : benchmarks()) {
    if (b.name == name) return b;
    known += (known.empty() ? "" : ", ") + b.name;
  }
  throw core::Error("no benchmark named '" + name + "'; known: " + known);
}

}  // namespace hetflow::bench
