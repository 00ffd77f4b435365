// The phased mapping's record of a system between passes (radau5.cl with ODE_PHASED, radau5_decompose.cl),
// PHASED_STATE doubles per system; mirrored by radau5_buffers.hpp. A pass of radau5_integrate runs each system
// up to its next decomposition and leaves here what the step loop needs to go on: its scalars (with the
// index of its next dense-output sample), f(x, y) and the last collocation polynomial. y stays in the
// batch's y, the counters in the counters, J and the factors in the matrices. The decomposition returns
// in P_SINGULAR whether a pivot was zero.
#define P_X 0
#define P_H 1
#define P_HOLD 2
#define P_HOPT 3
#define P_FACCON 4
#define P_THETA 5
#define P_THQOLD 6
#define P_DYNOLD 7
#define P_HACC 8
#define P_ERRACC 9
#define P_FAC1 10
#define P_ALPHN 11
#define P_BETAN 12
#define P_REJECT 13
#define P_FIRST 14
#define P_LAST 15
#define P_NSING 16
#define P_CALJAC 17
#define P_SINGULAR 18
#define P_SAMPLE 19
#define P_Y0 20
#define P_A1 (P_Y0 + ODE_N)
#define P_A2 (P_A1 + ODE_N)
#define P_A3 (P_A2 + ODE_N)
#define PHASED_STATE (P_A3 + ODE_N)
// J, E1, E2's real and imaginary parts per system, ODE_MATRIX doubles each: n^2, or with a sparse
// Jacobian (sparse_lu.cl) n^2 + 2 n + 1, which holds J with u and v, and the sparse factors with their
// vectors; and the pivots of E1 and E2.
#ifndef ODE_MATRIX
#define ODE_MATRIX (ODE_N * ODE_N)
#endif
#define PHASED_MATRICES (4 * ODE_MATRIX)
#define PHASED_PIVOTS (2 * ODE_N)
