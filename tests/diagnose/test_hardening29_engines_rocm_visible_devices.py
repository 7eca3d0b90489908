"""Round 29: on an AMD host host_info reported no visible_gpus at all: it mapped only
CUDA_VISIBLE_DEVICES, and only over nvidia-smi's GPUs. SGLang's and vLLM's ROCm builds use the
GPUs ROCR_VISIBLE_DEVICES leaves (the ROCr runtime, over all GPUs), then HIP_VISIBLE_DEVICES,
else CUDA_VISIBLE_DEVICES, as indices into those (ROCm HIP docs, reference/env_variables.html;
PyTorch torch/cuda/__init__.py `_parse_visible_devices`, pytorch/pytorch#142292). Now the
variables set are reported and visible_gpus names amd-smi's indices of the GPUs they select."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info


def _eight_mi300x(tmp_path, monkeypatch):
    """amd-smi of ROCm 6.2+ on an 8 x MI300X node ({"gpu_data": [...]}, amdsmi_cli/amdsmi_logger.py)."""
    static = {"gpu_data": [{"gpu": i, "asic": {"market_name": "AMD Instinct MI300X", "device_id": "0x74a1"}}
                           for i in range(8)]}
    metric = {"gpu_data": [{"gpu": i, "usage": {"gfx_activity": {"value": 0, "unit": "%"}},
                            "mem_usage": {"total_vram": {"value": 196592, "unit": "MB"},
                                          "used_vram": {"value": 283, "unit": "MB"}}} for i in range(8)]}
    tool = tmp_path / "amd-smi"
    tool.write_text(f"#!/bin/sh\ncase \"$1\" in\nstatic) /bin/cat <<'END'\n{json.dumps(static)}\nEND\n;;\n"
                    f"metric) /bin/cat <<'END'\n{json.dumps(metric)}\nEND\n;;\nesac\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi, no rocm-smi
    for key in ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(key, raising=False)


def test_hip_visible_devices_on_an_mi300x_node_names_its_gpus(tmp_path, monkeypatch):
    _eight_mi300x(tmp_path, monkeypatch)
    monkeypatch.setenv("HIP_VISIBLE_DEVICES", "4,5,6,7")
    out = host_info.run({})
    assert out["hip_visible_devices"] == "4,5,6,7" and out["visible_gpus"] == ["4", "5", "6", "7"]
    # HIP's list indexes the GPUs ROCR_VISIBLE_DEVICES left, and wins over CUDA_VISIBLE_DEVICES
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "2,3,6")
    monkeypatch.setenv("HIP_VISIBLE_DEVICES", "2,0")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    assert host_info.run({})["visible_gpus"] == ["6", "2"]


def test_cuda_visible_devices_alone_and_rocr_by_uuid(tmp_path, monkeypatch):
    _eight_mi300x(tmp_path, monkeypatch)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,9,1")  # HIP stops at the GPU that is not there
    out = host_info.run({})
    assert out["cuda_visible_devices"] == "3,9,1" and out["visible_gpus"] == ["3"]
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "GPU-18e5d5ac3c1b7a9e")  # by UUID: not told here
    out = host_info.run({})
    assert out["rocr_visible_devices"] == "GPU-18e5d5ac3c1b7a9e" and "visible_gpus" not in out
    # a GPU named twice ends ROCr's list there (amd_filter_device.cpp), it does not empty it
    assert host_info.rocm_visible_gpus("0,1,0", None, out["gpus"]) == ["0", "1"]
