// The two mappings of RADAU5 onto work-items share one source (radau5.cl, dense_lu.cl); these macros are
// all that differs. ODE_GROUP is a build option.
//
// Mapping 1 (ODE_GROUP 0): one work-item per system; vectors and matrices are private arrays, every loop
// runs over all indices and there is nothing to synchronise.
// Mapping 2 (ODE_GROUP 1): one work-group per system; vectors and matrices live in the group's share of
// memory (SHARED), loops over indices are strided over the group's work-items, and SYNC() is a group
// barrier whose fence makes one work-item's writes visible to the others. The scalar control logic runs
// in every work-item on the same shared data, so all take the same branches and reach the same
// barriers. The share is local memory where it fits (ODE_LOCAL_SCRATCH, set by the host), else the
// group's slice of a global scratch buffer.
#if ODE_GROUP
#if ODE_LOCAL_SCRATCH
#define SHARED __local
#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define SHARED __global
#define SYNC() barrier(CLK_GLOBAL_MEM_FENCE)
#endif
#define LEADER (get_local_id(0) == 0)
#define OWN_FIRST ((int)get_local_id(0))
#define OWN_STRIDE ((int)get_local_size(0))
#define SYSTEM_FIRST get_group_id(0)
#define SYSTEM_STRIDE get_num_groups(0)
#else
// A large group_only system keeps its vectors in the work-item's slice of global scratch
// (ODE_GLOBAL_VECTORS, set by the host): at n = 1269 its 14 vectors alone would take 142 KB of a
// CPU thread's stack per work-item.
#if ODE_GLOBAL_VECTORS
#define SHARED __global
#else
#define SHARED __private
#endif
#define SYNC()
#define LEADER 1
#define OWN_FIRST 0
#define OWN_STRIDE 1
#define SYSTEM_FIRST get_global_id(0)
#define SYSTEM_STRIDE get_global_size(0)
#endif
// The systems of the launch a work-item integrates: claimed one at a time from a counter where the host
// sets ODE_CLAIM (launch::claims_systems says why), else every SYSTEM_STRIDE-th from its SYSTEM_FIRST.
#if ODE_CLAIM
#define FOR_SYSTEMS(item, count) for (ulong item = atomic_inc(claimed); item < (count); item = atomic_inc(claimed))
#else
#define FOR_SYSTEMS(item, count) for (ulong item = SYSTEM_FIRST; item < (count); item += SYSTEM_STRIDE)
#endif
// A work-item's share of indices first .. end - 1: its first, then every OWN_STRIDE-th.
#define FOR_OWN(i, first, end) for (int i = (first) + OWN_FIRST; i < (end); i += OWN_STRIDE)
// Where the matrices and pivots live: the mapping's SHARED space, except in the phased mapping
// (ODE_PHASED, mapping 1's kernel), which keeps them per system in global memory so that
// radau5_decompose.cl, a work-group per system, decomposes them between the work-items' passes, and in
// mapping 1 with ODE_SYSTEM_MATRICES (set by the host where private matrices would have the driver
// reserve too much memory), which keeps them there too, beside the chunk of systems it runs.
#if ODE_PHASED || ODE_SYSTEM_MATRICES
#define MATRIX_SPACE __global
#else
#define MATRIX_SPACE SHARED
#endif
// Where the system's own scratch (System::group_work) lives: the group's share in mapping 2, and in
// mapping 1, which calls the group functions only for a System::group_only system, the work-item's slice
// of global scratch: a large mechanism's work would not fit a work-item's private memory.
#if ODE_GROUP
#define WORK_SPACE SHARED
#else
#define WORK_SPACE __global
#endif
// Element-wise vector loops: index i has the same owner in every one of them, so they need no barrier
// between each other.
#define FOR_EACH(i) FOR_OWN(i, 0, ODE_N)
