import os
import subprocess
import sys

import pytest

import hetflow
from conftest import DEVICE


def test_the_test_device_is_listed_once_with_its_facts():
    listed = hetflow.devices(DEVICE)
    assert len(listed) == 1
    d = listed[0]
    assert d["type"].lower() == DEVICE.split(":")[0]
    assert d["memory_bytes"] > 0 and d["compute_units"] >= 1 and d["fp64"]


def test_all_devices_include_the_test_device():
    assert hetflow.devices(DEVICE)[0]["index"] in [d["index"] for d in hetflow.devices()]


def test_a_malformed_selection_is_an_input_error_naming_it():
    with pytest.raises(hetflow.InputError, match="gpu:x"):
        hetflow.devices("gpu:x")


def test_a_selection_no_device_matches_is_a_no_device_error():
    with pytest.raises(hetflow.NoDeviceError, match="cpu:99"):
        hetflow.devices("cpu:99")


def test_bandwidth_is_measured_when_asked():
    d = hetflow.devices(DEVICE, bandwidth=True)[0]
    assert d["copy_GBs"] > 0 and d["triad_GBs"] > 0


def test_processes_started_after_listing_see_the_users_icd_list():
    # The GPU machine's PoCL rewrites OCL_ICD_FILENAMES as drivers load; os.environ keeps the start-up value.
    before = os.environ.get("OCL_ICD_FILENAMES")
    hetflow.devices()
    child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('OCL_ICD_FILENAMES'))"],
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip() == str(before)
