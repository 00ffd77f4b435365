#!/usr/bin/env python3
"""Summarises -DEXP_TIMER=1 output (lines "T system sm begin_ns end_ns nstep njac ndec nsol").
Arguments: FILE and the sizes of the consecutive runs it holds (warm-up and timed runs); for each run:
its span, end-time quantiles, systems per SM, and mean/max duration by step count."""
import collections
import gzip
import sys

path, sizes = sys.argv[1], [int(a) for a in sys.argv[2:]]
opener = gzip.open if path.endswith(".gz") else open
rows = [l.split()[1:] for l in opener(path, "rt") if l.startswith("T ")]
rows = [tuple(int(v) for v in r) for r in rows]
print(f"{len(rows)} rows; the first {len(rows) - sum(sizes)} (the flamelet's) skipped")
rows = rows[len(rows) - sum(sizes):]
at = 0
for size in sizes:
    run, at = rows[at:at + size], at + size
    if len(run) < size:
        print(f"only {len(run)} rows left for a run of {size}")
        break
    t0 = min(r[2] for r in run)
    ends = sorted((r[3] - t0) / 1e6 for r in run)
    starts = sorted((r[2] - t0) / 1e6 for r in run)
    q = lambda v: [round(v[min(len(v) - 1, int(p * len(v)))], 3) for p in (0.1, 0.5, 0.9, 0.99, 1.0)]
    sms = collections.Counter(r[1] for r in run)
    print(f"run of {size}: span {ends[-1]:.3f} ms; start q10/50/90/99/100 {q(starts)}; end {q(ends)}; "
          f"{len(sms)} SMs, systems per SM {min(sms.values())}..{max(sms.values())}")
    by_steps = collections.defaultdict(list)
    for r in run:
        by_steps[r[4]].append((r[3] - r[2]) / 1e6)
    for n in sorted(by_steps):
        v = by_steps[n]
        print(f"  nstep {n}: {len(v)} systems, duration mean {sum(v) / len(v):.3f} ms, max {max(v):.3f} ms")
    mean_steps = sum(r[4] for r in run) / len(run)
    print(f"  mean steps {mean_steps:.2f}, max {max(r[4] for r in run)}; sum of durations / span / SMs in use: "
          f"{sum((r[3] - r[2]) / 1e6 for r in run) / ends[-1] / len(sms):.1f} systems at once per SM")
