import json

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
