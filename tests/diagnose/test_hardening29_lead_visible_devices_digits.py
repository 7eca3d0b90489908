"""GPU-selection variables read with ASCII digits only, as the runtimes read them (HIP's
rocdevice.cpp and CUDA parse 0-9). `HIP_VISIBLE_DEVICES=²` raised ValueError out of the GPU
probe ("²".isdigit() is True, int("²") is not a number), and CUDA_VISIBLE_DEVICES=١ (an
Arabic-Indic one, which Python's \\d and int() accept) was read as GPU 1."""

from __future__ import annotations

import pytest

from spec_debug.probes import host_info

GPUS = [{"index": str(i), "uuid": f"GPU-{i}aaaa"} for i in range(4)]


@pytest.mark.parametrize("value, expected", [("²", []), ("1,²", ["1"]), ("2,3", ["2", "3"])])
def test_hip_visible_devices_stop_at_an_entry_that_is_no_ascii_number(value, expected):
    assert host_info.rocm_visible_gpus(None, value, GPUS) == expected


@pytest.mark.parametrize("value, expected", [("١", []), ("0,١", ["0"]), ("3,1", ["3", "1"])])
def test_cuda_visible_devices_stop_at_an_entry_that_is_no_ascii_number(value, expected):
    assert host_info.visible_gpus(value, GPUS) == expected
