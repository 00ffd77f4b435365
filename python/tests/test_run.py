import json

import numpy as np
import pytest

import hetflow
from conftest import DEVICE, SOURCE, cli

# A self-test sized to a second on PoCL.
SELFTEST = {"type": "selftest", "selftest": {"size": [24, 20, 16], "steps": 20, "precision": "double",
                                             "tolerance": 1e-10},
            "output": {"every": 10, "hdf5": False}}


def test_a_dict_case_runs_as_the_same_case_file_does(tmp_path):
    result = hetflow.run(SELFTEST, device=DEVICE, output=str(tmp_path / "py"))
    assert result.status == "complete"
    case = tmp_path / "case.yaml"
    case.write_text(json.dumps(SELFTEST))
    cli("run", case, "--device", DEVICE, "--output", tmp_path / "cli", "-q")
    expected = json.loads((tmp_path / "cli" / "manifest.json").read_text())["result"]
    assert result.manifest["result"] == expected  # every number to the bit
    assert result.table("selftest.csv")["total"].tolist() == \
        hetflow.run(case, device=DEVICE, output=str(tmp_path / "file")).table("selftest.csv")["total"].tolist()


def test_outputs_and_set_overrides_reach_the_run(tmp_path):
    result = hetflow.run(SELFTEST, device=DEVICE, output=str(tmp_path / "r"), set=["selftest.steps=10"])
    assert result.manifest["case"]["selftest"]["steps"] == 10
    assert "manifest.json" in result.outputs and "selftest.csv" in result.outputs


def test_a_malformed_case_names_every_bad_key():
    bad = {"type": "selftest", "selftest": {"steps": -3, "sise": [1, 2]}}
    with pytest.raises(hetflow.InputError) as caught:
        hetflow.run(bad)
    assert "selftest.steps = -3" in str(caught.value)
    assert "did you mean 'size'" in str(caught.value)


def test_a_missing_case_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(hetflow.HetflowError, match="nowhere.yaml"):
        hetflow.run(tmp_path / "nowhere.yaml")


def test_a_case_of_another_type_is_refused():
    with pytest.raises(TypeError):
        hetflow.run(42)


# The flow solvers whose issues are still open reach Python through hetflow.run; sized to seconds on PoCL.
# Sod's shock tube on 4 x 1 roots of 16^2 cells refined once, to t = 0.05 (no wave has reached x = 0 or 1).
SOD = {"type": "compressible",
       "domain": {"roots": [4, 1], "root_size": 0.25, "block_size": 16, "max_level": 1},
       "boundary": {"west": {"type": "outflow"}, "east": {"type": "outflow"},
                    "south": {"type": "periodic"}, "north": {"type": "periodic"}},
       "materials": {"air": {"gamma": 1.4}},
       "initial": {"background": {"rho": 0.125, "p": 0.1, "material": "air"},
                   "regions": {"left": {"shape": "half_plane", "axis": "x", "side": "below", "at": 0.5,
                                        "rho": 1, "p": 1}}},
       "time": {"end": 0.05}, "output": {"interval": 0.05}}
# The lid-driven cube on 6^3 cells of 6 tets, 20 steps from rest.
CAVITY = {"type": "incompressible", "mesh": {"kind": "box", "cells": [6, 6, 6]}, "fluid": {"viscosity": 0.01},
          "boundary": {"y_max": {"type": "velocity", "value": [1, 0, 0]}, "x_min": {"type": "no_slip"},
                       "x_max": {"type": "no_slip"}, "y_min": {"type": "no_slip"}, "z_min": {"type": "no_slip"},
                       "z_max": {"type": "no_slip"}},
          "time": {"end": 0.2, "max_dt": 0.01}, "output": {"interval": 0.1}}


@pytest.mark.parametrize("case, table", [(SOD, "series.csv"), (CAVITY, "log.csv")], ids=["compressible", "fem"])
def test_the_flow_solvers_run_as_the_cli_runs_them(tmp_path, case, table):
    result = hetflow.run(case, device=DEVICE, output=str(tmp_path / "py"), quiet=True)
    assert result.status == "complete"
    path = tmp_path / "case.yaml"
    path.write_text(json.dumps(case))
    cli("run", path, "--device", DEVICE, "--output", tmp_path / "cli", "-q")
    expected = hetflow.Result(tmp_path / "cli", {}).table(table)
    got = result.table(table)
    assert list(got) == list(expected)
    for name in got:
        assert np.array_equal(got[name], expected[name], equal_nan=True), name  # to the bit
    if case is SOD:  # the tube holds 0.25 (0.5 + 0.5 / 8) of mass while no wave leaves it
        assert np.abs(got["mass"] / 0.140625 - 1).max() < 1e-13
