// The phased mapping's decompositions (radau5.cl, ODE_PHASED): each listed system's E1 = fac1 I - J and
// E2 = (alphn + i betan) I - J, formed from the J and the scalars its pass left, factorised by
// dense_lu.cl or, on GPUs for small n (ODE_REGISTER_LU), by register_lu.cl. On GPUs a work-group per
// system: register_lu.cl's in registers, or dense_lu.cl's (built as mapping 2, ODE_GROUP 1), E1 and E2
// by kernels of their own, in local memory where E2 fits (ODE_LOCAL_SCRATCH: 2 n^2 doubles and n ints),
// writing the factors back, else in place in global memory. On CPUs a work-item per system (ODE_GROUP 0
// with ODE_PHASED) works in place: PoCL 3.1's work-group compiler failed on the group kernel ("Could not
// find a dominating alternative variable", then a crashing kernel), as on mapping 2's. The operations
// are DEC's and DECC's in their order, so the factors are those mapping 1 computes in its step loop, to
// the bit.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#include "ode/dense_lu.cl"
#include "ode/phased_state.cl"

#define SQUARE (ODE_N * ODE_N)

#if ODE_REGISTER_LU
#include "ode/register_lu.cl"

// E1 (ar only) or E2 of column rl_column() from J, with DEC's operations: -J, and the diagonal's shift.
void form_column(__global const double* fjac, double shift, double imaginary, double* ar, double* ai) {
  const int c = rl_column(), h = rl_part();
#pragma unroll
  for (int u = 0; u < RL_ROWS; ++u) {
    const int i = RL_ROW(h, u);
    if (i >= ODE_N || c >= ODE_N) continue;
    ar[u] = -fjac[i + c * ODE_N];
    if (i == c) ar[u] = ar[u] + shift;
    if (ai) ai[u] = i == c ? imaginary : 0.0;
  }
}

// This work-item's entries of a factorised matrix, to its place in global memory.
void store_column(const double* a, __global double* to) {
  const int c = rl_column(), h = rl_part();
#pragma unroll
  for (int u = 0; u < RL_ROWS; ++u)
    if (RL_ROW(h, u) < ODE_N && c < ODE_N) to[RL_ROW(h, u) + c * ODE_N] = a[u];
}

__kernel void radau5_decompose(__global double* matrices, __global int* matrix_pivots, __global double* state,
                               __global const uint* list, uint count) {
  __local RegisterLuShare share;
  for (uint item = get_group_id(0); item < count; item += get_num_groups(0)) {
    const uint s = list[item];
    __global double* fjac = matrices + (ulong)s * PHASED_MATRICES;
    __global int* ip1 = matrix_pivots + (ulong)s * PHASED_PIVOTS;
    __global double* st = state + (ulong)s * PHASED_STATE;
    double ar[RL_ROWS], ai[RL_ROWS];
    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item is done with the last system's share
    form_column(fjac, st[P_FAC1], 0.0, ar, 0);
    const int zero = register_lu(ar, ip1, &share);
    store_column(ar, fjac + SQUARE);
    // E2 even after a singular E1, whose system will not use it: barriers only in code every work-item
    // reaches unconditionally, which PoCL's work-group compiler needs.
    form_column(fjac, st[P_ALPHN], st[P_BETAN], ar, ai);
    const int zero_complex = register_lu_complex(ar, ai, ip1 + ODE_N, &share);
    store_column(ar, fjac + 2 * SQUARE);
    store_column(ai, fjac + 3 * SQUARE);
    if (get_local_id(0) == 0) st[P_SINGULAR] = zero || zero_complex ? 1.0 : 0.0;
  }
}
#else

#if ODE_LOCAL_SCRATCH
// Copies a matrix or a pivot vector out of local memory, each work-item its own columns or entries.
void store_matrix(const __local double* from, __global double* to) {
  FOR_OWN(k, 0, SQUARE) to[k] = from[k];
}
void store_pivots(const __local int* from, __global int* to) {
  FOR_OWN(k, 0, ODE_N) to[k] = from[k];
}
#endif

// E = shift I - J, and where ai is given its imaginary part imaginary I: J read in runs of consecutive
// entries across the work-items, so that a group's loads coalesce (where each work-item reading its own
// column would not), then the diagonal.
void form(__global const double* fjac, double shift, double imaginary, MATRIX_SPACE double* ar,
          MATRIX_SPACE double* ai) {
  FOR_OWN(k, 0, SQUARE) {
    ar[k] = -fjac[k];
    if (ai) ai[k] = 0.0;
  }
  SYNC();  // the diagonal's entries are in place
  FOR_OWN(j, 0, ODE_N) {
    ar[j + j * ODE_N] = ar[j + j * ODE_N] + shift;
    if (ai) ai[j + j * ODE_N] = imaginary;
  }
}

// E1 and E2 are decomposed by kernels of their own, E1 first. A group that holds E1 alone needs half
// the local memory of one holding E2, so twice as many groups fit a GPU's compute unit: a large system's
// decompositions are bound by the latency of each elimination step, and the more groups run side by
// side the more of it they hide (radau5_launch.cpp, decompose_kernels).

// E1 = fac1 I - J of each listed system, factorised into its place after J; P_SINGULAR says whether a
// pivot was zero.
__kernel void radau5_decompose_real(__global double* matrices, __global int* matrix_pivots, __global double* state,
                                    __global const uint* list, uint count) {
#if ODE_LOCAL_SCRATCH
  __local double work[SQUARE];
  __local int work_pivots[ODE_N];
#endif
  for (uint item = SYSTEM_FIRST; item < count; item += SYSTEM_STRIDE) {
    const uint s = list[item];
    __global double* fjac = matrices + (ulong)s * PHASED_MATRICES;
    __global int* ip1 = matrix_pivots + (ulong)s * PHASED_PIVOTS;
    __global double* st = state + (ulong)s * PHASED_STATE;
#if ODE_LOCAL_SCRATCH
    MATRIX_SPACE double* a = work;
    MATRIX_SPACE int* pivot = work_pivots;
#else
    MATRIX_SPACE double* a = fjac + SQUARE;
    MATRIX_SPACE int* pivot = ip1;
#endif
    SYNC();  // the last system's factors are out
    form(fjac, st[P_FAC1], 0.0, a, 0);
    const int zero = lu_decompose(a, pivot);
#if ODE_LOCAL_SCRATCH
    store_matrix(a, fjac + SQUARE);
    store_pivots(pivot, ip1);
#endif
    if (LEADER) st[P_SINGULAR] = zero ? 1.0 : 0.0;
  }
}

// E2 = (alphn + i betan) I - J of each listed system whose E1 was regular, factorised into its place
// after E1; a zero pivot sets P_SINGULAR.
__kernel void radau5_decompose_complex(__global double* matrices, __global int* matrix_pivots,
                                       __global double* state, __global const uint* list, uint count) {
#if ODE_LOCAL_SCRATCH
  __local double work[2 * SQUARE];
  __local int work_pivots[ODE_N];
#endif
  for (uint item = SYSTEM_FIRST; item < count; item += SYSTEM_STRIDE) {
    const uint s = list[item];
    __global double* fjac = matrices + (ulong)s * PHASED_MATRICES;
    __global double* e2r = fjac + 2 * SQUARE;
    __global double* e2i = e2r + SQUARE;
    __global int* ip2 = matrix_pivots + (ulong)s * PHASED_PIVOTS + ODE_N;
    __global double* st = state + (ulong)s * PHASED_STATE;
    // The system will not use E2 after a singular E1. The whole group takes the same branch, and the
    // decomposition's barriers separate this read from the leader's write below.
    if (st[P_SINGULAR] != 0.0) continue;
#if ODE_LOCAL_SCRATCH
    MATRIX_SPACE double* ar = work;
    MATRIX_SPACE double* ai = work + SQUARE;
    MATRIX_SPACE int* pivot = work_pivots;
#else
    MATRIX_SPACE double* ar = e2r;
    MATRIX_SPACE double* ai = e2i;
    MATRIX_SPACE int* pivot = ip2;
#endif
    SYNC();  // the last system's factors are out
    form(fjac, st[P_ALPHN], st[P_BETAN], ar, ai);
    const int zero = lu_decompose_complex(ar, ai, pivot);
#if ODE_LOCAL_SCRATCH
    store_matrix(ar, e2r);
    store_matrix(ai, e2i);
    store_pivots(pivot, ip2);
#endif
    if (LEADER && zero) st[P_SINGULAR] = 1.0;
  }
}
#endif
