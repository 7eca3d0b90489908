"""host_info on a ROCm host (round 27): no nvidia-smi there, so its AMD GPUs were reported as
none. rocm-smi's JSON (ROCm rocm_smi_lib python_smi_tools/rocm_smi.py: "card0" entries with
"Card series", "VRAM Total Memory (B)", "VRAM Total Used Memory (B)", "GPU use (%)", beside a
"system" entry) is read into the same fields, memory in MiB like nvidia-smi's."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info

ROCM_SMI = {"card0": {"Card series": "AMD Instinct MI300X", "VRAM Total Memory (B)": "206141652992",
                      "VRAM Total Used Memory (B)": "1073741824", "GPU use (%)": "3"},
            "system": {"Driver version": "6.8.5"}}


def _fake_tool(tmp_path, monkeypatch, name, stdout):
    tool = tmp_path / name
    tool.write_text(f"#!/bin/sh\n/bin/cat <<'END'\n{stdout}\nEND\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi: this machine's may be on /usr/bin


def test_amd_gpus_are_read_from_rocm_smi(tmp_path, monkeypatch):
    # rocm-smi prints a warning line before its JSON on some hosts
    _fake_tool(tmp_path, monkeypatch, "rocm-smi", "WARNING: AMD GPU device(s) is/are in a low-power state.\n"
               + json.dumps(ROCM_SMI))
    assert host_info._gpus_and_error()[0] == [{"index": "0", "name": "AMD Instinct MI300X", "memory_total_mib": "196592",
                                              "memory_used_mib": "1024", "utilization_pct": "3"}]


def test_unreadable_rocm_smi_output_is_no_gpus(tmp_path, monkeypatch):
    _fake_tool(tmp_path, monkeypatch, "rocm-smi", "ERROR: no AMD GPUs {")
    assert host_info._gpus_and_error()[0] == []
