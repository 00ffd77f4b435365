// The per-step diagnostics of the flow (docs/fem.md, Time loop): one pass over the nodes and their rows
// gives each work-group's partial kinetic energy, divergence norm, largest stability rate and speed,
// and the count and first index of nodes holding a non-finite velocity or pressure; one work-group then
// combines the partials, so the host reads six numbers. A failure is then located on the host.
#include "fem/fem_nodes.cl"

// Slots of a group's partials; the host's StepDiagnostics reads them in this order.
#define DIAG_KINETIC 0     // Σ M_I |u_I|² / 2
#define DIAG_DIVERGENCE 1  // Σ D(u)_I² / M_I, the squared L2 norm of the lumped projection of ∇·u
#define DIAG_RATE 2        // max over nodes of (2 max(|u_I|, |u_I − u_J|) / h_I + 4ν / h_I²)
#define DIAG_SPEED 3       // max |u_I|
#define DIAG_BAD 4         // nodes with a non-finite u or p
#define DIAG_FIRST_BAD 5   // the least index of those, or `nodes` when there is none
#define DIAG_COUNT 6

// Puts a work-item's values in the group's local slots.
void store_partials(__local real_t* part, const real_t kinetic, const real_t divergence, const real_t rate,
                    const real_t speed, const real_t bad, const real_t first_bad) {
  const uint lid = get_local_id(0);
  part[lid + DIAG_KINETIC * DIAG_WG] = kinetic;
  part[lid + DIAG_DIVERGENCE * DIAG_WG] = divergence;
  part[lid + DIAG_RATE * DIAG_WG] = rate;
  part[lid + DIAG_SPEED * DIAG_WG] = speed;
  part[lid + DIAG_BAD * DIAG_WG] = bad;
  part[lid + DIAG_FIRST_BAD * DIAG_WG] = first_bad;
}

// Reduces the group's local slots by a tree and writes the result to out[0 .. DIAG_COUNT).
void combine_partials(__local real_t* part, __global real_t* out) {
  const uint lid = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = DIAG_WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      __local real_t* a = part + lid;
      __local real_t* b = part + lid + stride;
      a[DIAG_KINETIC * DIAG_WG] += b[DIAG_KINETIC * DIAG_WG];
      a[DIAG_DIVERGENCE * DIAG_WG] += b[DIAG_DIVERGENCE * DIAG_WG];
      a[DIAG_RATE * DIAG_WG] = fmax(a[DIAG_RATE * DIAG_WG], b[DIAG_RATE * DIAG_WG]);
      a[DIAG_SPEED * DIAG_WG] = fmax(a[DIAG_SPEED * DIAG_WG], b[DIAG_SPEED * DIAG_WG]);
      a[DIAG_BAD * DIAG_WG] += b[DIAG_BAD * DIAG_WG];
      a[DIAG_FIRST_BAD * DIAG_WG] = fmin(a[DIAG_FIRST_BAD * DIAG_WG], b[DIAG_FIRST_BAD * DIAG_WG]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid < DIAG_COUNT) out[lid] = part[lid * DIAG_WG];
}

__kernel __attribute__((reqd_work_group_size(DIAG_WG, 1, 1))) void fem_step_diagnostics(
    const uint nodes, __global const uint* restrict slice_start, __global const uint* restrict col,
    __global const edge_t* restrict records, __global const real_t* restrict mass,
    __global const real_t* restrict h_min, __global const real_t* restrict u, __global const real_t* restrict p,
    const real_t viscosity, __global real_t* restrict partial) {
  __local real_t part[DIAG_COUNT * DIAG_WG];
  real_t kinetic = 0, divergence = 0, rate = 0, speed = 0, bad = 0, first_bad = nodes;
  FOR_EACH_NODE(i, nodes) {
    const real3_t u_i = vload3(i, u);
    const real_t speed_i = sqrt(dot(u_i, u_i));
    // The largest squared speed, rooted once: the root is monotonic, so this is the largest root.
    real_t div = 0, relative_squared = dot(u_i, u_i);
    FOR_ROW_EDGES_UNROLLED(k, i, slice_start) {
      const real3_t du = vload3(col[k], u) - u_i;
      div += dot(load_record(k, records).d, du);
      relative_squared = fmax(relative_squared, dot(du, du));
    }
    const real_t relative = sqrt(relative_squared);
    const real_t h = h_min[i];
    if (isfinite(speed_i) && isfinite(p[i]) && isfinite(div)) {
      kinetic += 0.5 * mass[i] * speed_i * speed_i;
      divergence += div * div / mass[i];
      rate = fmax(rate, 2 * relative / h + 4 * viscosity / (h * h));
      speed = fmax(speed, speed_i);
    } else {
      bad += 1;
      first_bad = fmin(first_bad, (real_t)i);
    }
  }
  store_partials(part, kinetic, divergence, rate, speed, bad, first_bad);
  combine_partials(part, partial + get_group_id(0) * DIAG_COUNT);
}

// Combines the `groups` partials of fem_step_diagnostics into one set, in one work-group.
__kernel __attribute__((reqd_work_group_size(DIAG_WG, 1, 1))) void fem_diagnostics_total(
    const uint groups, __global const real_t* restrict partial, __global real_t* restrict total) {
  __local real_t part[DIAG_COUNT * DIAG_WG];
  real_t kinetic = 0, divergence = 0, rate = 0, speed = 0, bad = 0, first_bad = (real_t)INFINITY;
  for (uint g = get_local_id(0); g < groups; g += DIAG_WG) {
    __global const real_t* s = partial + g * DIAG_COUNT;
    kinetic += s[DIAG_KINETIC];
    divergence += s[DIAG_DIVERGENCE];
    rate = fmax(rate, s[DIAG_RATE]);
    speed = fmax(speed, s[DIAG_SPEED]);
    bad += s[DIAG_BAD];
    first_bad = fmin(first_bad, s[DIAG_FIRST_BAD]);
  }
  store_partials(part, kinetic, divergence, rate, speed, bad, first_bad);
  combine_partials(part, total);
}
