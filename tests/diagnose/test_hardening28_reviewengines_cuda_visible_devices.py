"""Round 28 review: visible_gpus reads CUDA_VISIBLE_DEVICES as CUDA does (PyTorch's emulation,
torch/cuda/__init__.py `_parse_visible_devices` / `_transform_uuid_to_ordinals`):
- a device named twice leaves CUDA no GPU ("0,1,0"); it was read as GPUs 0 and 1;
- the first entry's form is the list's: "0,GPU-<uuid of 3>" is GPU 0 alone (was 0 and 3);
- an index is read as strtoul reads it ("1gpu2" is 1; was: the list ended there, no GPU);
- a MIG device named by its own UUID (MIG-<uuid>, R470 on, what Kubernetes' device plugin
  sets) is found through `nvidia-smi -L` (was: no GPU visible);
- a driver before R450, asked without uuid, still reports the GPUs an index list selects."""

from __future__ import annotations

import stat

from spec_debug.probes import host_info

A100 = "GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f"
LIST = f"""GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-0b0e3b8c-5a4c-4c1e-9b7f-2d3c4e5f6a7b)
GPU 1: NVIDIA A100-SXM4-80GB (UUID: {A100})
  MIG 3g.40gb     Device  0: (UUID: MIG-b3061c09-2a4c-5026-a575-79f86a5bb12c)
  MIG 3g.40gb     Device  1: (UUID: MIG-27b1a30b-e164-5ba8-9904-9d949f65d8e4)"""
ROWS = ("0, NVIDIA A100-SXM4-80GB, 81920, 4, 0, GPU-0b0e3b8c-5a4c-4c1e-9b7f-2d3c4e5f6a7b, Disabled\n"
        f"1, NVIDIA A100-SXM4-80GB, 81920, 13, [N/A], {A100}, Enabled")


def _nvidia_smi(tmp_path, monkeypatch, rows: str, listing: str = LIST):
    tool = tmp_path / "nvidia-smi"
    tool.write_text(f"#!/bin/sh\ncase \"$1\" in\n-L) /bin/cat <<'END'\n{listing}\nEND\n;;\n"
                    f"*) /bin/cat <<'END'\n{rows}\nEND\n;;\nesac\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))


def test_cuda_rules_for_duplicates_forms_and_numbers():
    gpus = [{"index": str(i), "uuid": f"GPU-{i}{i}c0ffee-{i}000"} for i in range(4)]
    assert host_info.visible_gpus("0,1,0", gpus) == []
    assert host_info.visible_gpus("GPU-33,GPU-33c0ffee", gpus) == []  # one GPU, named twice
    assert host_info.visible_gpus("0,GPU-33c0ffee", gpus) == ["0"]
    assert host_info.visible_gpus("GPU-22c0ffee,1", gpus) == ["2"]
    assert host_info.visible_gpus("1gpu2,3", gpus) == ["1", "3"]
    assert host_info.visible_gpus("2,-1,1", gpus) == ["2"] and host_info.visible_gpus("4,0", gpus) == []


def test_a_mig_device_named_by_its_own_uuid(tmp_path, monkeypatch):
    _nvidia_smi(tmp_path, monkeypatch, ROWS)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "MIG-b3061c09-2a4c-5026-a575-79f86a5bb12c")
    assert host_info.run({})["visible_gpus"] == ["1"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "MIG-27b1a30b,MIG-b3061c09")  # two slices of GPU 1
    assert host_info.run({})["visible_gpus"] == ["1"]
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "MIG-27b1a30b,MIG-27b1a30b")
    assert host_info.run({})["visible_gpus"] == []


def test_a_driver_asked_without_uuid_still_maps_indices(tmp_path, monkeypatch):
    tool = tmp_path / "nvidia-smi"
    tool.write_text('#!/bin/sh\ncase "$1" in\n*mig.mode*) echo \'Field "mig.mode.current" is not a valid field to query.\'; exit 2;;\n'
                    'esac\necho "0, Tesla V100-SXM2-32GB, 32510, 0, 0"\necho "1, Tesla V100-SXM2-32GB, 32510, 0, 0"\n')
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    out = host_info.run({})
    assert out["cuda_visible_devices"] == "1" and out["visible_gpus"] == ["1"]
