import json
import time

import numpy as np
import pytest

import hetflow
from conftest import DEVICE, MECHANISMS, SOURCE, cli, ctrl_c_at_the_first_report


@pytest.fixture(scope="module")
def h2o2():
    return hetflow.Mechanism(str(MECHANISMS / "h2o2.yaml"))


def test_a_mechanism_lists_its_species_and_weights(h2o2):
    assert h2o2.species[:3] == ["H2", "H", "O"] and len(h2o2.species) == 10 and h2o2.reactions == 29
    assert h2o2.molecular_weights[h2o2.species_index("O2")] == pytest.approx(0.031998, rel=1e-6)
    assert h2o2.species_index("CH4") == -1


def test_a_malformed_mechanism_names_its_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("phases:\n- name: gas\n  thermo: ideal-gas\n  species: [H2, Q]\n")
    with pytest.raises(hetflow.InputError, match="bad.yaml"):
        hetflow.Mechanism(str(bad))


def test_final_states_equal_the_clis_bit_for_bit(tmp_path, h2o2):
    # The CLI samples the states; its trajectories' first samples are the initial states' bits.
    case = tmp_path / "batch.yaml"
    case.write_text(f"type: reactor_batch\nmechanism:\n  file: {MECHANISMS / 'h2o2.yaml'}\nmixture:\n  fuel: \"H2:1\"\n"
                    "batch:\n  count: 30\n  dt: 1e-5\n  temperature: [1100, 1400]\n"
                    "output:\n  samples: 2\n  dir: out\n")
    cli("run", case, "--device", DEVICE, "-q", cwd=tmp_path)
    run = hetflow.run(case)  # the same case again, through the package
    final = run.table("final_states.csv")
    start = run.table("trajectories.csv")
    first = start["t_s"] == 0
    Y0 = np.column_stack([start["Y_" + s][first] for s in h2o2.species])
    start_call = time.perf_counter()
    out = hetflow.reactor_batch(h2o2, start["T_K"][first], final["p_Pa"], Y0, 1e-5, device=DEVICE)
    wall = time.perf_counter() - start_call
    assert out.ok and out.seconds > 0 and out.setup_seconds > 0 and out.release_seconds > 0
    # the three parts the call times are disjoint stretches of it
    assert out.setup_seconds + out.seconds + out.release_seconds < wall
    assert np.array_equal(out.T, final["T_K"])
    assert np.array_equal(out.Y, np.column_stack([final["Y_" + s] for s in h2o2.species]))
    assert np.array_equal(out.steps, final["steps"].astype(int))


def test_only_failed_systems_carry_a_reason(h2o2):
    # a stoichiometric H2/air state at 1400 K ignites within 1e-3 s, in more than 20 steps; O2 alone takes 9
    X = np.zeros(10)
    X[h2o2.species_index("H2")], X[h2o2.species_index("O2")], X[h2o2.species_index("N2")] = 2.0, 1.0, 3.76
    burning = X * h2o2.molecular_weights / (X * h2o2.molecular_weights).sum()
    oxygen = np.eye(10)[h2o2.species_index("O2")]
    T, p, Y = np.array([1400.0, 300.0]), np.full(2, 101325.0), np.vstack([burning, oxygen])
    out = hetflow.reactor_batch(h2o2, T, p, Y, 1e-3, device=DEVICE, max_steps=20)
    assert list(out.status) == ["too_many_steps", "ok"]
    assert "nmax = 20" in out.reasons[0] and out.reasons[1] == ""


def test_solver_keys_are_checked_as_a_case_file_checks_them(h2o2):
    T, p, Y = np.array([1200.0]), np.array([101325.0]), np.eye(10)[[h2o2.species_index("O2")]]
    with pytest.raises(hetflow.InputError, match="solver.rtol"):
        hetflow.reactor_batch(h2o2, T, p, Y, 1e-6, device=DEVICE, rtol=-1.0)
    with pytest.raises(hetflow.InputError, match="solver.tol"):
        hetflow.reactor_batch(h2o2, T, p, Y, 1e-6, device=DEVICE, tol=1e-6)
    with pytest.raises(ValueError, match=r"Y\[0\] sums to 0.5"):
        hetflow.reactor_batch(h2o2, T, p, Y * 0.5, 1e-6, device=DEVICE)
    with pytest.raises(ValueError, match=r"\(n, 10\)"):
        hetflow.reactor_batch(h2o2, T, p, Y[:, :9], 1e-6, device=DEVICE)
    with pytest.raises(TypeError, match="T: expected a float64 array"):
        hetflow.reactor_batch(h2o2, [1200], p, Y, 1e-6, device=DEVICE)


def h2_air(h2o2, n, seed=1):
    """n lean H2/air states at 1 atm, 1000-1500 K."""
    Y = np.zeros((n, 10))
    Y[:, h2o2.species_index("H2")], Y[:, h2o2.species_index("O2")] = 0.028, 0.226
    Y[:, h2o2.species_index("N2")] = 1 - 0.028 - 0.226
    return np.random.default_rng(seed).uniform(1000, 1500, n), np.full(n, 101325.0), Y


def test_ctrl_c_stops_a_long_batch_and_the_device_stays_usable(h2o2):
    if hetflow.devices(DEVICE)[0]["type"] != "CPU":
        pytest.skip("a GPU integrates this batch in one chunk, so nothing is left to stop")
    n = 40000
    T, p, Y = h2_air(h2o2, n)
    # The signal arrives while the batch runs (at its first report), as a Ctrl-C would.
    with pytest.raises(KeyboardInterrupt, match="hetflow.reactor_batch: interrupted after") as caught:
        hetflow.reactor_batch(h2o2, T, p, Y, 1e-3, device=DEVICE,
                              progress=ctrl_c_at_the_first_report())
    # What was computed comes with the exception: some chunks ran to dt, the rest never started.
    partial = caught.value.result
    done = partial.status == "ok"
    assert 0 < done.sum() < n and (partial.status[~done] == "not_run").all()
    assert (partial.T[done] > 0).all() and np.isfinite(partial.Y[done]).all()
    again = hetflow.reactor_batch(h2o2, T[:5], p[:5], Y[:5], 1e-6, device=DEVICE)
    assert again.ok


def test_progress_calls_back_after_each_chunk_up_to_the_total(h2o2, capsys):
    T, p, Y = h2_air(h2o2, 3000)
    seen = []
    result = hetflow.reactor_batch(h2o2, T, p, Y, 1e-5, device=DEVICE, progress=lambda d, t: seen.append((d, t)))
    assert result.ok and seen and seen[-1] == (3000, 3000)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:])) and all(t == 3000 for _, t in seen)
    assert capsys.readouterr().err == ""  # a callable replaces the display


def test_an_exception_in_the_progress_callable_stops_the_batch_and_propagates(h2o2):
    T, p, Y = h2_air(h2o2, 100)

    def fail(done, total):
        raise RuntimeError(f"stop at {done} of {total}")

    with pytest.raises(RuntimeError, match="stop at [0-9]+ of 100"):
        hetflow.reactor_batch(h2o2, T, p, Y, 1e-5, device=DEVICE, progress=fail)
    with pytest.raises(TypeError, match="progress: expected True, False or a callable"):
        hetflow.reactor_batch(h2o2, T, p, Y, 1e-5, device=DEVICE, progress="yes")


def test_the_display_shows_only_calls_that_outlast_a_second(h2o2, capsys):
    T, p, Y = h2_air(h2o2, 2000)
    hetflow.reactor_batch(h2o2, T, p, Y, 1e-5, device=DEVICE, progress=False)
    assert capsys.readouterr().err == ""
    # A call long enough on PoCL for the display; a fast device may finish within the quiet second.
    T, p, Y = h2_air(h2o2, 2500)
    start = time.perf_counter()
    hetflow.reactor_batch(h2o2, T, p, Y, 1e-3, device=DEVICE)
    seconds = time.perf_counter() - start
    err = capsys.readouterr().err
    if seconds > 1.2:
        assert "reactor_batch: 2500 systems in " in err
    elif seconds < 1:
        assert err == ""


def reference(name):
    """Cantera's delays (scripts/chem_reference.py): T0, p, Y and delay per case."""
    cases = json.loads((SOURCE / "tests" / "chem" / "data" / name).read_text())["cases"]
    return (np.array([c["T0"] for c in cases]), np.array([c["p"] for c in cases]), np.array([c["Y"] for c in cases]),
            np.array([c["delay"] for c in cases]))


@pytest.mark.parametrize("reactor, name", [("constant_pressure", "h2_ignition_reference.json"),
                                           ("constant_volume", "h2_ignition_constant_volume_reference.json")])
def test_ignition_delays_match_canteras(h2o2, reactor, name):
    T, p, Y, delay = reference(name)
    r = hetflow.ignition_delays(h2o2, T, p, Y, device=DEVICE, reactor=reactor, end_time=0.01)
    assert r.ignited.all() and r.launches > 0
    assert r.delay == pytest.approx(delay, rel=0.01)  # the C++ cases' tolerance against the same reference
    assert (r.final_T > T + 400).all() and r.T.shape == (2, len(r.times)) and (r.T[:, 0] == T).all()


def test_ignition_delays_equal_the_clis_for_the_same_states(tmp_path, h2o2):
    (tmp_path / "h2.yaml").write_text(
        f"type: ignition\nmechanism:\n  file: {MECHANISMS / 'h2o2.yaml'}\nmixture:\n  fuel: \"H2:1\"\n"
        "  oxidizer: \"O2:1, N2:3.76\"\ninitial:\n  temperature: [1000, 1100, 1200]\n"
        "ignition:\n  end_time: 0.01\n  criterion: max_slope\noutput:\n  dir: out\n")
    cli("run", "h2.yaml", "--device", DEVICE, "-q", cwd=tmp_path)
    systems = json.loads((tmp_path / "out" / "manifest.json").read_text())["result"]["systems"]
    _, _, Y, _ = reference("h2_ignition_reference.json")  # the same stoichiometric H2/air
    r = hetflow.ignition_delays(h2o2, np.array([1000.0, 1100, 1200]), np.full(3, 101325.0), np.repeat(Y[:1], 3, 0),
                                device=DEVICE, end_time=0.01, criterion="max_slope")
    # Y from Cantera and from the case's mixture may differ in their last bits.
    assert r.delay == pytest.approx([s["delay"] for s in systems], rel=1e-9)


def test_states_that_do_not_ignite_and_malformed_keys(h2o2):
    _, _, Y, _ = reference("h2_ignition_reference.json")
    seen = []
    r = hetflow.ignition_delays(h2o2, np.array([700.0]), np.array([101325.0]), Y[:1], device=DEVICE, end_time=1e-3,
                                progress=lambda done, planned: seen.append((done, planned)))
    assert r.status.tolist() == ["no_ignition"] and np.isnan(r.delay[0]) and r.final_T[0] < 1100
    assert seen[-1] == (r.launches, r.launches)
    with pytest.raises(hetflow.InputError, match="ignition.rise = -1"):
        hetflow.ignition_delays(h2o2, np.array([1000.0]), np.array([101325.0]), Y[:1], rise=-1)
    with pytest.raises(hetflow.InputError, match="first_sample = 0.1 is not below ignition.end_time = 0.01"):
        hetflow.ignition_delays(h2o2, np.array([1000.0]), np.array([101325.0]), Y[:1], end_time=0.01, first_sample=0.1)
    with pytest.raises(hetflow.InputError, match="criterion"):
        hetflow.ignition_delays(h2o2, np.array([1000.0]), np.array([101325.0]), Y[:1], criterion="peak")


def test_ctrl_c_stops_an_ignition_search_with_the_samples_taken(h2o2):
    _, _, Y, _ = reference("h2_ignition_reference.json")
    with pytest.raises(KeyboardInterrupt, match="hetflow.ignition_delays: interrupted after") as caught:
        hetflow.ignition_delays(h2o2, np.array([1000.0, 1200.0]), np.full(2, 101325.0), Y, device=DEVICE,
                                end_time=0.01, progress=ctrl_c_at_the_first_report())
    partial = caught.value.result
    assert partial.status.tolist() == ["interrupted"] * 2 and 1 <= partial.launches < 10
    assert (partial.T[:, 1] > 0).all() and np.isnan(partial.T[:, -1]).all()
