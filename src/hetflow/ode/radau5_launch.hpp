#pragma once
// How Radau5 launches a batch on each device: which mapping it takes, the work-group shape, the register
// budget, where the scratch and the decompositions live, and which kernels factorise in the phased
// mapping. Every choice here changes speed only, never a result. Internal to the ode module.
#include <cstddef>
#include <string>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::ode::launch {

// Mapping 1 keeps J, E1 and the complex E2 (4 n^2 doubles) in one work-item's private memory; above
// this n only a System::group_only system runs in it, with its matrices in global memory.
inline constexpr int max_private_n = 64;
// Mapping 2 keeps them in global scratch, but the user's jac still fills a private n x n array in one
// work-item, and every work-item's frame is sized for it: 128 KiB at n = 128. A group_only system has no
// jac(), and runs at any n that memory takes.
inline constexpr int max_group_n = 128;

// Work-items device d holds at once, for which NVIDIA's driver reserves every work-item's private memory
// when a kernel that needs it first runs (its compute units times 2048, the most a multiprocessor holds
// since Volta); on CPUs the work-items of one launch of mapping 1 (private arrays are stack there).
std::size_t resident_work_items(const core::Device& d, const Options& o);
// Mapping 1's matrices and pivots (4 n^2 doubles, 2 n ints) in the private memory of every resident
// work-item: what the driver reserves for them, whatever the batch.
std::size_t private_matrix_bytes(const core::Device& d, const Options& o, std::size_t n);
// Whether mapping m keeps each system's matrices in global memory beside its chunk (radau5.cl's
// ODE_SYSTEM_MATRICES), so that they grow with the chunk instead of the device: mapping 1 where
// private_matrix_bytes is above Options::private_matrix_limit (0: an eighth of a GPU's global memory,
// no limit on CPUs).
// Mapping 1 of a system with a sparse Jacobian keeps them there too: the sparse factors and their
// vectors need slots of matrix_doubles.
bool system_matrices(const core::Device& d, const Options& o, Mapping m, const System& s);
// What a launch that ran out of memory on device d needed, for the error that replaces a bare CL code:
// `private_bytes` per work-item of the kernel (as the driver reports it) for each resident work-item,
// and `buffer_bytes` of the run's buffers, against the device's global memory.
std::string out_of_memory(const core::Device& d, const Options& o, Mapping m, std::size_t private_bytes,
                          std::size_t buffer_bytes, const std::string& reason);

// Throws core::Error where mapping m cannot take the system (its size) or the source lacks rhs(), or
// jac() when analytic_jacobian is set.
void check_system(const System& sys, Mapping m);

// The compute units of all the devices together.
std::size_t compute_units(const core::DeviceSet& devices);
bool all_gpus(const core::DeviceSet& devices);

// Mapping::automatic resolved for the system, the devices and a batch of `systems` systems; any other
// mapping as it is.
Mapping resolve(Mapping m, const System& system, const core::DeviceSet& devices, std::size_t systems);

// Whether mapping m's work-items on device d claim systems one at a time from a counter (radau5.cl's
// ODE_CLAIM) instead of striding over them: mapping 1 on CPUs, where PoCL deals a launch's work-groups
// out to its threads in runs of neighbours, so that a batch smaller than the launch width would fill the
// first threads' runs and leave the others idle. Which work-item integrates a system changes no bit.
bool claims_systems(const core::Device& d, Mapping m);

// Work-items per work-group of mapping m on device d for systems of size n, and the work-groups of
// mapping m it launches for system s (the kernel strides over its share of systems).
core::NDRange local_range(const core::Device& d, const Options& o, Mapping m, int n);
std::size_t group_count(const core::Device& d, Mapping m, const Options& o, const System& s);

// The register budget of the kernel a batch of `systems` of size n in mapping m runs on device k; 0:
// the compiler's choice (as on every device but NVIDIA's).
std::size_t register_budget(const core::DeviceSet& devices, std::size_t k, const Options& o, Mapping m,
                            std::size_t systems, std::size_t n);
// Mapping 2's decompositions work in panels above this n by default (lu_panel), in work-groups of
// large_group work-items on GPUs (local_range).
constexpr int large_panel_n = 256;
constexpr int large_group = 256;
// The panel width of the LU decompositions of systems of size n on device d (dense_lu.cl's ODE_LU_PANEL;
// 0: none).
int lu_panel(const core::Device& d, const Options& o, Mapping m, int n);

// radau5.cl's ODE_MATRIX: the doubles of one matrix slot, n^2, or with a Jacobian pattern n^2 + 2 n + 1
// (sparse_lu.cl: J with u and v; the factors with a work vector, z and σ).
std::size_t matrix_doubles(const System& s);
// radau5.cl's W_DOUBLES: mapping 2's scratch per work-group (14 vectors, 4 matrices), then the system's
// own (System::group_work).
std::size_t group_doubles(const System& s);
// Whether mapping 2 keeps a group's scratch in local memory on device d (radau5.cl's ODE_LOCAL_SCRATCH).
bool local_scratch(const core::Device& d, const System& s);
// Mapping 2's per-group scratch on device d, none where local_scratch: the matrices and vectors, then
// the pivots.
std::size_t group_scratch_doubles(const core::Device& d, const System& s, const Options& o);
std::size_t group_scratch_pivots(const core::Device& d, const System& s, const Options& o);
// Up to this n mapping 1 keeps a group_only system's 14 vectors private (28 KiB at 256), as it keeps
// every other system's; above, they go to global scratch, since at n = 1269 (142 KiB per work-item)
// they overflow PoCL's thread stacks.
inline constexpr int max_private_vector_n = 256;
// Whether mapping m keeps the system's vectors in global scratch (mapping.cl's ODE_GLOBAL_VECTORS):
// mapping 1 for a group_only system above max_private_vector_n.
bool global_vectors(const System& s, Mapping m);
// The global scratch of the kernel of mapping m on device d: mapping 2's (group_scratch_doubles), or in
// mapping 1 each work-item's System::group_work, after its vectors where they are global, for a
// group_only system; else none.
std::size_t scratch_doubles(const core::Device& d, const System& s, Mapping m, const Options& o);

// Whether the phased mapping's decompositions work in local memory on device d (radau5_decompose.cl's
// ODE_LOCAL_SCRATCH), and whether they keep each matrix in its group's registers instead (register_lu.cl).
bool decompose_local(const core::Device& d, std::size_t n);
bool decompose_in_registers(const core::Device& d, std::size_t n);
// The parts the rows of each column are dealt to in register_lu.cl (ODE_RL_PARTS).
inline constexpr std::size_t register_lu_parts = 2;
// Whether the decompositions leave the multipliers in the rows of the final order and the solves sweep
// blocks of rows in registers (dense_lu.cl's ODE_FINAL_ROWS).
bool final_rows(const core::Device& d, std::size_t n, Mapping m);
// Whether the group LU's warps find each pivot by shuffles (dense_lu.cl's ODE_WARP_PIVOT).
bool warp_pivot(const core::Device& d, std::size_t group_size);

// One of the phased mapping's decomposition kernels (radau5_decompose.cl) and its group size.
struct DecomposeKernel {
  const char* name;
  std::size_t local;
};
// The phased mapping's decomposition kernels on device d, in launch order, and the groups they launch.
std::vector<DecomposeKernel> decompose_kernels(const core::Device& d, std::size_t n);
std::size_t decompose_groups(const core::Device& d);

}  // namespace hetflow::ode::launch
