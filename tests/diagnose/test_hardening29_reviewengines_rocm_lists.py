"""Round 29 review: host_info read ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES as CUDA reads
CUDA_VISIBLE_DEVICES, and said "no GPU" (visible_gpus []) where the runtimes use GPUs:
HIP_VISIBLE_DEVICES=GPU-<uuid> (HIP maps a UUID to its GPU: ROCm/clr rocdevice.cpp), an empty
HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES (HIP then filters nothing), ROCR_VISIBLE_DEVICES=0,1,0
(ROCr stops at the repeated 0: ROCR-Runtime amd_filter_device.cpp). ROCr reads an index with
strtol base 0 ("0x2" is GPU 2), HIP only a plain decimal ("1gpu2" ends HIP's list)."""

from __future__ import annotations

from spec_debug.probes import host_info
from tests.diagnose.test_hardening29_engines_rocm_visible_devices import _eight_mi300x


def test_a_hip_uuid_or_an_empty_value_is_not_reported_as_no_gpu(tmp_path, monkeypatch):
    _eight_mi300x(tmp_path, monkeypatch)
    monkeypatch.setenv("HIP_VISIBLE_DEVICES", "GPU-4e7d6c1a2b3f5e60")
    out = host_info.run({})
    assert out["hip_visible_devices"] == "GPU-4e7d6c1a2b3f5e60" and "visible_gpus" not in out  # was []
    monkeypatch.setenv("HIP_VISIBLE_DEVICES", "")  # HIP then reads CUDA_VISIBLE_DEVICES
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "2,3")
    assert host_info.run({})["visible_gpus"] == ["2", "3"]  # was []
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # both empty: HIP filters nothing, torch counts none
    assert "visible_gpus" not in host_info.run({})  # was []


def test_each_list_is_read_as_its_runtime_reads_it():
    gpus = [{"index": str(i)} for i in range(4)]
    assert host_info.rocm_visible_gpus("0,1,0", None, gpus) == ["0", "1"]  # ROCr: the repeat ends it
    assert host_info.rocm_visible_gpus("0x2, 3", None, gpus) == ["2", "3"]  # strtol base 0, trimmed
    assert host_info.rocm_visible_gpus("", None, gpus) == []  # set and empty: no GPU
    assert host_info.rocm_visible_gpus(None, "1gpu2,3", gpus) == []  # HIP: not a plain index
    assert host_info.rocm_visible_gpus(None, "3,1,3", gpus) is None  # HIP skips, torch counts none
    assert host_info.rocm_visible_gpus("3,1", "1,0", gpus) == ["1", "3"]
