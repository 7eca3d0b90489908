"""host_info against nvidia-smi as it answers on real hosts (round 28).

- a driver upgraded under the loaded kernel module: nvidia-smi prints "Failed to initialize
  NVML: Driver/library version mismatch" (and "NVML library version: N") on stdout and exits 18;
  host_info reported `gpus: []` and nothing else, a host without GPUs;
- a MIG-enabled A100: utilization.gpu is "[N/A]" (no whole-GPU use in MIG mode), which was
  reported as the text "[N/A]" where the AMD readers give None; MIG mode itself was not said;
- uuid is reported, the name CUDA_VISIBLE_DEVICES=GPU-... uses.
"""

from __future__ import annotations

import stat

from spec_debug.probes import host_info


def _nvidia_smi(tmp_path, monkeypatch, stdout: str, code: int = 0):
    tool = tmp_path / "nvidia-smi"
    tool.write_text(f"#!/bin/sh\n/bin/cat <<'END'\n{stdout}\nEND\nexit {code}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no rocm-smi, no amd-smi


def test_a_driver_library_mismatch_is_said_not_read_as_no_gpus(tmp_path, monkeypatch):
    _nvidia_smi(tmp_path, monkeypatch, "Failed to initialize NVML: Driver/library version mismatch\n"
                "NVML library version: 570.86", code=18)
    out = host_info.run({})
    assert out["gpus"] == []
    assert out["gpu_error"] == ("nvidia-smi: Failed to initialize NVML: Driver/library version mismatch; "
                                "NVML library version: 570.86")


def test_mig_mode_na_fields_and_uuids(tmp_path, monkeypatch):
    _nvidia_smi(tmp_path, monkeypatch,
                "0, NVIDIA A100-SXM4-80GB, 81920, 13, [N/A], GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f, Enabled\n"
                "1, NVIDIA A100-SXM4-80GB, 81920, 4, 0, GPU-0b0e3b8c-5a4c-4c1e-9b7f-2d3c4e5f6a7b, Disabled")
    out = host_info.run({})
    assert "gpu_error" not in out
    assert out["gpus"] == [
        {"index": "0", "name": "NVIDIA A100-SXM4-80GB", "memory_total_mib": "81920", "memory_used_mib": "13",
         "utilization_pct": None, "uuid": "GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f", "mig_mode": "Enabled"},
        {"index": "1", "name": "NVIDIA A100-SXM4-80GB", "memory_total_mib": "81920", "memory_used_mib": "4",
         "utilization_pct": "0", "uuid": "GPU-0b0e3b8c-5a4c-4c1e-9b7f-2d3c4e5f6a7b", "mig_mode": "Disabled"},
    ]


def test_a_gpu_nvidia_smi_cannot_reach_is_said_beside_the_others(tmp_path, monkeypatch):
    _nvidia_smi(tmp_path, monkeypatch,
                "0, NVIDIA H100 80GB HBM3, 81559, 0, 0, GPU-1a2b3c4d-0000-1111-2222-333344445555, [N/A]\n"
                "Unable to determine the device handle for GPU0000:41:00.0: Unknown Error", code=15)
    out = host_info.run({})
    assert [gpu["index"] for gpu in out["gpus"]] == ["0"] and out["gpus"][0]["mig_mode"] is None
    assert out["gpu_error"] == "nvidia-smi: Unable to determine the device handle for GPU0000:41:00.0: Unknown Error"


EIGHT_H100 = "\n".join(f"{i}, NVIDIA H100 80GB HBM3, 81559, 0, 0, GPU-{i}{i}c0ffee-{i}000-4000-8000-00000000000{i}, Disabled"
                       for i in range(8))


def test_cuda_visible_devices_of_uuids_names_the_gpus_it_selects(tmp_path, monkeypatch):
    """A scheduler (Slurm with gres, Kubernetes' device plugin) sets CUDA_VISIBLE_DEVICES to
    UUIDs: the report listed all eight GPUs and nothing said which ones a server here would use."""
    _nvidia_smi(tmp_path, monkeypatch, EIGHT_H100)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-33c0ffee-3000-4000-8000-000000000003,GPU-55c0ffee")
    out = host_info.run({})
    assert out["cuda_visible_devices"].startswith("GPU-33c0ffee") and out["visible_gpus"] == ["3", "5"]
    gpus = out["gpus"]
    assert host_info.visible_gpus("2,1", gpus) == ["2", "1"]  # CUDA's order is the list's
    assert host_info.visible_gpus("0,2,-1,1", gpus) == ["0", "2"]  # CUDA stops at an invalid entry
    assert host_info.visible_gpus("GPU-,4", gpus) == []  # a prefix every GPU shares names none
    assert host_info.visible_gpus("MIG-GPU-66c0ffee-6000-4000-8000-000000000006/1/0", gpus) == []  # MIG off
    gpus[6]["mig_mode"] = "Enabled"
    assert host_info.visible_gpus("MIG-GPU-66c0ffee-6000-4000-8000-000000000006/1/0", gpus) == ["6"]
    assert host_info.visible_gpus("", gpus) == []


def test_a_driver_that_knows_no_mig_field_still_lists_its_gpus(tmp_path, monkeypatch):
    tool = tmp_path / "nvidia-smi"
    tool.write_text('#!/bin/sh\ncase "$1" in\n*mig.mode*) echo \'Field "mig.mode.current" is not a valid field to query.\'; exit 2;;\n'
                    'esac\necho "0, Tesla V100-SXM2-32GB, 32510, 0, 0"\n')
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    out = host_info.run({})
    assert "gpu_error" not in out and out["gpus"] == [
        {"index": "0", "name": "Tesla V100-SXM2-32GB", "memory_total_mib": "32510", "memory_used_mib": "0",
         "utilization_pct": "0", "uuid": None, "mig_mode": None}]
