import json

import pytest

import hetflow
from conftest import DEVICE, cli, ctrl_c_at_the_first_report

# A deterministic tuning (TNT's work counted, not timed): the same search finds the same setting.
SMALL_CLASS = dict(problem_class="small", size=60, kappa=[1e2, 1e6], objective="work", budget=6)


def entries(path):
    return json.loads(path.read_text())["entries"]


def test_tunables_are_the_clis():
    names = [t["name"] for t in hetflow.tunables()]
    help_text = cli("tune", "--help")
    assert {"lbm", "ftle", "radau5", "nnls", "nnls-constants", "karst", "fem", "probe"} <= set(names)
    for name in names:
        assert f"\n  {name}: " in help_text.replace("\n                                ", "\n  ")
    radau5 = next(t for t in hetflow.tunables() if t["name"] == "radau5")
    assert radau5["case"] and not next(t for t in hetflow.tunables() if t["name"] == "karst")["case"]


def test_a_tuning_finds_and_stores_what_the_cli_does(tmp_path):
    reports = []
    r = hetflow.tune("nnls-constants", device=DEVICE, database=tmp_path / "py.json",
                     progress=lambda done, total: reports.append((done, total)), **SMALL_CLASS)
    cli("tune", "nnls-constants", "--class", "small", "--size", 60, "--kappa", "1e2,1e6", "--objective", "work",
        "--budget", 6, "--device", DEVICE, "--db", tmp_path / "cli.json")
    [mine], [theirs] = entries(tmp_path / "py.json"), entries(tmp_path / "cli.json")
    assert mine.pop("tuned_at") and theirs.pop("tuned_at")
    assert mine == theirs
    assert r.best == theirs["best"] and r.best_cost == theirs["best_seconds"]
    assert r.cost_unit == "work" and r.search == "annealing" and r.space_size == 133 and len(r.trials) == 6
    assert r.defaults == {"ec": "1.20", "rc": "0.80"} and r.defaults_cost is not None
    assert r.best_cost == min(t["cost"] for t in r.trials if t["cost"] is not None)
    assert r.best_over_worst >= r.best_over_mean >= 1
    assert r.database == str(tmp_path / "py.json")
    assert reports == [(k, 6) for k in range(1, 7)] + [(6, 6)]  # after each setting, and the end's count


def test_a_timed_tuning_rates_its_best(tmp_path):
    r = hetflow.tune("karst", device=DEVICE, size=100, repeats=1, database=tmp_path / "db.json", progress=False)
    assert r.cost_unit == "s" and r.rate_unit == "runs/s" and r.search == "exhaustive"
    assert len(r.trials) == r.space_size
    [entry] = entries(tmp_path / "db.json")
    assert (entry["best"], entry["best_seconds"], entry["best_rate"]) == (r.best, r.best_cost, r.best_rate)
    assert r.best_cost == min(t["cost"] for t in r.trials if t["cost"] is not None)


def test_a_ctrl_c_stops_the_search_and_stores_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt, match="interrupted after 1 settings") as stop:
        hetflow.tune("nnls-constants", device=DEVICE, database=tmp_path / "db.json",
                     progress=ctrl_c_at_the_first_report(), **SMALL_CLASS)
    assert len(stop.value.trials) == 1 and stop.value.trials[0]["cost"] > 0
    assert not (tmp_path / "db.json").exists()
    assert hetflow.tune("nnls-constants", device=DEVICE, database=tmp_path / "db.json", progress=False,
                        **SMALL_CLASS).trials  # the device is still usable


def test_a_raising_progress_callable_stops_the_search(tmp_path):
    def fail(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        hetflow.tune("nnls-constants", device=DEVICE, database=tmp_path / "db.json", progress=fail, **SMALL_CLASS)
    assert not (tmp_path / "db.json").exists()


@pytest.mark.parametrize("kwargs, message", [
    (dict(name="lbmm"), "name = 'lbmm': expected one of probe, lbm"),
    (dict(name="probe", size=100), "size: tune 'probe' takes no size"),
    (dict(name="lbm", size=3), "size = 3: expected an integer in 4 .. 10000000"),
    (dict(name="nnls", storage="fp16"), "storage = 'fp16': tune 'nnls' takes fp64 or fp32"),
    (dict(name="karst", storage="fp32"), "storage = 'fp32': tune 'karst' takes no storage"),
    (dict(name="lbm", case="x.yaml"), "case: tune 'lbm' takes no case file \\(radau5 only\\)"),
    (dict(name="radau5", case="no-such.yaml"), "case = 'no-such.yaml': no such file"),
    (dict(name="lbm", search="random"), "search = 'random': expected 'exhaustive' or 'annealing'"),
    (dict(name="lbm", repeats=0), "repeats = 0: expected an integer in 1 .. 1000"),
    (dict(name="lbm", kappa=[1e2], objective="work"), "kappa, objective: for tune 'nnls-constants' only"),
    (dict(name="nnls-constants", problem_class="c", objective="speed"), "objective = 'speed': expected"),
    (dict(name="nnls-constants", problem_class="c", problems=[("A.npy",)]), "problems: expected pairs"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        hetflow.tune(device=DEVICE, progress=False, **kwargs)


def test_a_bad_device_selection_is_an_input_error(tmp_path):
    with pytest.raises(hetflow.InputError):
        hetflow.tune("karst", device="gpu:x", database=tmp_path / "db.json", progress=False)
