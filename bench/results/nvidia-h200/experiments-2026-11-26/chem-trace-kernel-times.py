"""Prints each RADAU5 kernel of HETFLOW_TRACE files (.csv.gz) in order, in ms ("int": radau5_integrate,
"dec": a decomposition kernel), and their sums: python3 chem-trace-kernel-times.py TRACE.csv.gz ..."""
import csv
import gzip
import sys

for name in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(name, 'rt')))
    kernels = [(r['command'], float(r['duration_us']) / 1000) for r in rows if r['command'].startswith('radau5')]
    print(name, ' '.join(f"{c[7:10]}{d:.1f}" for c, d in kernels))
    print('  integrate %.1f decompose %.1f' % (sum(d for c, d in kernels if 'integ' in c),
                                               sum(d for c, d in kernels if 'decomp' in c)))
