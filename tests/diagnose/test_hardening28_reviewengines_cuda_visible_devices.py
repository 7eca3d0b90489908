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


def _old_driver(tmp_path, monkeypatch, knows_uuid: bool):
    """nvidia-smi of a driver before R450: refuses mig.mode.current (and uuid when not
    knows_uuid), else answers the fields asked."""
    rows = "\n".join(f'echo "{i}, Tesla V100-SXM2-32GB, 32510, 0, 0$u{i}"' for i in range(2))
    refuse = "" if knows_uuid else "*uuid*) echo 'Field \"uuid\" is not a valid field to query.'; exit 2;;\n"
    tool = tmp_path / "nvidia-smi"
    tool.write_text('#!/bin/sh\nu0=; u1=\ncase "$1" in\n'
                    "*mig.mode*) echo 'Field \"mig.mode.current\" is not a valid field to query.'; exit 2;;\n"
                    f"{refuse}*uuid*) u0=', GPU-00c0ffee'; u1=', GPU-11c0ffee';;\nesac\n{rows}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))


def test_a_driver_before_r450_keeps_uuids_and_maps_indices(tmp_path, monkeypatch):
    """It was asked again with the five first fields: uuid lost, a GPU-... list read as no GPU
    and an index list not reported."""
    _old_driver(tmp_path, monkeypatch, knows_uuid=True)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "GPU-11c0")
    out = host_info.run({})
    assert [gpu["uuid"] for gpu in out["gpus"]] == ["GPU-00c0ffee", "GPU-11c0ffee"] and out["visible_gpus"] == ["1"]
    assert "gpu_error" not in out
    _old_driver(tmp_path, monkeypatch, knows_uuid=False)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    out = host_info.run({})
    assert [gpu["uuid"] for gpu in out["gpus"]] == [None, None] and out["visible_gpus"] == ["1"]


def test_a_mig_gpu_uuid_names_a_slice_only_of_a_gpu_in_mig_mode():
    gpus = [{"index": "0", "uuid": "GPU-00c0ffee", "mig_mode": "Disabled"},
            {"index": "1", "uuid": "GPU-11c0ffee", "mig_mode": "Enabled"}]
    assert host_info.visible_gpus("MIG-GPU-00c0ffee/1/0", gpus) == []
    assert host_info.visible_gpus("MIG-GPU-11c0ffee/1/0,MIG-GPU-11c0ffee/2/0", gpus) == ["1"]
