"""Round 30: ROCR_VISIBLE_DEVICES may name GPUs by UUID ("GPU-" and KFD's unique_id, as rocminfo
prints it), and host_info then reported no visible_gpus ("not told here"): no listing it read
carried those UUIDs. ROCr matches an entry that starts with G against the start of each GPU's
"GPU-<unique_id in 16 hex digits>", upper-cased, and ends the list at one that names no GPU or
several (ROCR-Runtime src/core/runtime/amd_filter_device.cpp ProcessUuidToken). Now the UUIDs
come from amd-smi list -e (hip_uuid, KFD's, ROCm/rocm-systems#3614), else the ASIC serial in
amd-smi list's uuid or rocm-smi --showuniqueid, and the entries are read as ROCr reads them."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info

SERIALS = [f"de8287300da37c7{i}" for i in range(8)]  # amd-smi README's example GPU, then 7 more


def _smi_uuid(serial: str) -> str:
    """amd-smi list's uuid around an ASIC serial (amdsmi amd_smi_uuid.cc amdsmi_uuid_gen, device
    0x74a1, function 0xff): "deff74a1-0000-1000-8082-87300da37c70"."""
    return f"{serial[:2]}ff74a1-0000-1000-80{serial[2:4]}-{serial[4:]}"


def _mi300x_host(tmp_path, monkeypatch, listing: list[dict] | None, *, rocm_smi: dict | None = None):
    """8 x MI300X as amd-smi static/metric show them; `amd-smi list -e --json` prints `listing`
    (None: an amd-smi before -e, which refuses it; `amd-smi list --json` then prints uuids only)."""
    static = {"gpu_data": [{"gpu": i, "asic": {"market_name": "AMD Instinct MI300X"}} for i in range(8)]}
    metric = {"gpu_data": [{"gpu": i, "mem_usage": {"total_vram": {"value": 196592, "unit": "MB"}}} for i in range(8)]}
    old_list = [{"gpu": i, "bdf": f"0000:{0x05 + 16 * i:02x}:00.0", "uuid": _smi_uuid(s)} for i, s in enumerate(SERIALS)]
    lines = ["#!/bin/sh", 'case "$*" in',
             f"'static --asic --json') /bin/cat <<'END'\n{json.dumps(static)}\nEND\n;;",
             f"'metric --usage --mem-usage --json') /bin/cat <<'END'\n{json.dumps(metric)}\nEND\n;;"]
    if listing is None:
        lines.append("'list -e --json'|'list -e') echo 'amd-smi list: error: unrecognized arguments: -e' >&2; exit 2;;")
    else:
        lines.append(f"'list -e --json') /bin/cat <<'END'\n{json.dumps(listing)}\nEND\n;;")
    if rocm_smi is None:
        lines.append(f"'list --json') /bin/cat <<'END'\n{json.dumps(old_list)}\nEND\n;;")
    lines.append("esac")
    tool = tmp_path / "amd-smi"
    tool.write_text("\n".join(lines) + "\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    if rocm_smi is not None:
        smi = tmp_path / "rocm-smi"
        smi.write_text(f"#!/bin/sh\ncase \"$*\" in\n'--showuniqueid --json') /bin/cat <<'END'\n{json.dumps(rocm_smi)}\nEND\n;;\nesac\n")
        smi.chmod(smi.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))
    for key in ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(key, raising=False)


def _listing() -> list[dict]:
    """amd-smi list -e --json of ROCm 7 (amdsmi_cli amdsmi_commands.py list: hip_id, hip_uuid)."""
    return [{"gpu": i, "bdf": f"0000:{0x05 + 16 * i:02x}:00.0", "uuid": _smi_uuid(s), "kfd_id": 1000 + i,
             "node_id": 2 + i, "partition_id": 0, "render": f"renderD{128 + 8 * i}", "card": f"card{i}",
             "hsa_id": 2 + i, "hip_id": i, "hip_uuid": f"GPU-{s}"} for i, s in enumerate(SERIALS)]


def test_rocr_by_uuid_names_gpus_from_amd_smi_hip_uuids(tmp_path, monkeypatch):
    _mi300x_host(tmp_path, monkeypatch, _listing())
    # lower case and a UUID's start are enough, as ROCr upper-cases and matches a prefix
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "gpu-de8287300da37c75, GPU-DE8287300DA37C72")
    monkeypatch.setenv("HIP_VISIBLE_DEVICES", "1")
    out = host_info.run({})
    assert out["rocr_visible_devices"] == "gpu-de8287300da37c75, GPU-DE8287300DA37C72"
    assert out["visible_gpus"] == ["2"]  # was absent: "not told here"
    assert host_info.rocm_visible_gpus("3,GPU-DE8287300DA37C7F,1", None, out["gpus"], host_info.rocr_uuids()) == ["3"]
    # a start that names all eight GPUs names none: ROCr ends the list there
    assert host_info.rocm_visible_gpus("GPU-DE82,1", None, out["gpus"], host_info.rocr_uuids()) == []


def test_an_amd_smi_before_hip_uuid_gives_the_serial_in_its_uuid(tmp_path, monkeypatch):
    _mi300x_host(tmp_path, monkeypatch, None)
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "GPU-de8287300da37c76,0")
    assert host_info.run({})["visible_gpus"] == ["6", "0"]
    # a UUID no serial matches may be a partition's or a VF's KFD UUID: not told, not "none"
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "GPU-0123456789abcdef")
    assert "visible_gpus" not in host_info.run({})


def test_rocm_smi_unique_ids_stand_in_where_amd_smi_lists_none(tmp_path, monkeypatch):
    unique = {f"card{i}": {"Unique ID": f"0x{s}"} for i, s in enumerate(SERIALS)}
    _mi300x_host(tmp_path, monkeypatch, None, rocm_smi=unique)
    monkeypatch.setenv("ROCR_VISIBLE_DEVICES", "GPU-DE8287300DA37C74")
    assert host_info.run({})["visible_gpus"] == ["4"]
