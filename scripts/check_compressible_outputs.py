#!/usr/bin/env python3
"""Reads a compressible run's fields with VTK's own readers, the ones ParaView uses, and checks them against
the run's series.csv: every snapshot of fields.pvd opens as a multiblock of image blocks that tile the domain,
one per leaf, whose mass and x momentum equal the series' within 1e-12 of the mass; with output.hdf5, uniform.xmf opens
with the XDMF reader, one time step per snapshot, with the same mass. Exits 1 naming the first mismatch.

  pip install vtk numpy
  scripts/check_compressible_outputs.py runs/compressible-sod
"""
import csv
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

TOLERANCE = 1e-12  # relative to the mass: sums of the same cell values in another order


def fail(message):
    print(f"check_compressible_outputs: {message}", file=sys.stderr)
    sys.exit(1)


def close(a, b, scale, what):
    """a and b agree within TOLERANCE times `scale` (the quantity's size, or the mass for a momentum
    that may vanish)."""
    if abs(a - b) > TOLERANCE * scale:
        fail(f"{what}: {a!r} from the files, {b!r} in series.csv")


def blocks_of(vtm):
    reader = vtk.vtkXMLMultiBlockDataReader()
    reader.SetFileName(str(vtm))
    reader.Update()
    iterator = reader.GetOutput().NewIterator()
    iterator.InitTraversal()
    while not iterator.IsDoneWithTraversal():
        yield iterator.GetCurrentDataObject()
        iterator.GoToNextItem()


def cell_arrays(data):
    cells = data.GetCellData()
    return {name: vtk_to_numpy(cells.GetArray(name)) for name in ("rho", "u")}


def check_snapshot(vtm, row):
    leaves, area, mass, momentum = 0, 0.0, 0.0, 0.0
    for block in blocks_of(vtm):
        if not isinstance(block, vtk.vtkImageData):
            fail(f"{vtm}: a block is a {block.GetClassName()}, not image data")
        dx, dy, _ = block.GetSpacing()
        arrays = cell_arrays(block)
        if len(arrays["rho"]) != block.GetNumberOfCells():
            fail(f"{vtm}: a block has {len(arrays['rho'])} rho values for {block.GetNumberOfCells()} cells")
        leaves += 1
        area += dx * dy * block.GetNumberOfCells()
        mass += dx * dy * float(np.sum(arrays["rho"]))
        momentum += dx * dy * float(np.sum(arrays["rho"] * arrays["u"]))
    if leaves != int(row["leaves"]):
        fail(f"{vtm}: {leaves} blocks, series.csv has {row['leaves']} leaves")
    close(mass, float(row["mass"]), mass, f"{vtm}: mass")
    close(momentum, float(row["momentum_x"]), mass, f"{vtm}: x momentum")
    return area


def check_xdmf(xmf, rows):
    reader = vtk.vtkXdmfReader()
    reader.SetFileName(str(xmf))
    reader.UpdateInformation()
    times = reader.GetOutputInformation(0).Get(vtk.vtkStreamingDemandDrivenPipeline.TIME_STEPS())
    if times is None or len(times) != len(rows):
        fail(f"{xmf}: {0 if times is None else len(times)} time steps, series.csv has {len(rows)}")
    for t, row in zip(times, rows):
        reader.UpdateTimeStep(t)
        grid = reader.GetOutputDataObject(0)
        dx, dy, _ = grid.GetSpacing()
        mass = float(row["mass"])
        close(dx * dy * float(np.sum(cell_arrays(grid)["rho"])), mass, mass, f"{xmf} at t = {t}: mass")


def main():
    if len(sys.argv) != 2:
        fail("usage: check_compressible_outputs.py RUN_DIRECTORY")
    run = Path(sys.argv[1])
    with open(run / "series.csv") as f:
        rows = list(csv.DictReader(f))
    snapshots = [run / d.get("file") for d in ET.parse(run / "fields.pvd").getroot().iter("DataSet")]
    if len(snapshots) != len(rows):
        fail(f"fields.pvd lists {len(snapshots)} snapshots, series.csv has {len(rows)} rows")
    areas = [check_snapshot(vtm, row) for vtm, row in zip(snapshots, rows)]
    if max(areas) - min(areas) > TOLERANCE * max(areas):
        fail(f"the blocks cover areas from {min(areas)} to {max(areas)}: they do not tile one domain")
    if (run / "uniform.xmf").exists():
        check_xdmf(run / "uniform.xmf", rows)
    print(f"{run}: {len(rows)} snapshots read by VTK {vtk.vtkVersion.GetVTKVersion()}: blocks tile an area of "
          f"{areas[0]:.6g}, mass and x momentum equal series.csv within {TOLERANCE:g}"
          + (", and so does uniform.xmf's mass" if (run / "uniform.xmf").exists() else ""))


if __name__ == "__main__":
    main()
