"""host_info on ROCm hosts whose amd-smi gives no JSON, or ROCm 6.0's JSON (round 28).

amd-smi's default output is human-readable: "GPU: 0", 4-space "SECTION:" lines, 8-space
"KEY: value unit" lines (ROCm amdsmi amdsmi_cli/amdsmi_logger.py
_convert_json_to_human_readable; the examples below are from its README.md `amd-smi static`
and CHANGELOG.md `amd-smi metric --usage`). When `--json` printed no JSON the GPUs read as
none. ROCm 6.0's amd-smi named GPU use `gfx_usage` (amdsmi_commands.py at rocm-6.0.0; renamed
gfx_activity in commit 4575990): its utilization read as None."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info

STATIC = """GPU: 0
    ASIC:
        MARKET_NAME: MI300A
        VENDOR_ID: 0x1002
        VENDOR_NAME: Advanced Micro Devices Inc. [AMD/ATI]
        DEVICE_ID: 0x74a0
        ASIC_SERIAL: 0x7E8F7E20764E2714
        OAM_ID: 0
    BUS:
        BDF: 0000:01:00.0
        MAX_PCIE_SPEED: 32 GT/s
    VRAM:
        TYPE: HBM
        SIZE: 64289 MB

GPU: 1
    ASIC:
        MARKET_NAME: MI300A
    BUS:
        BDF: 0000:02:00.0
"""

METRIC = """GPU: 0
    USAGE:
        GFX_ACTIVITY: 7 %
        UMC_ACTIVITY: 0 %
        MM_ACTIVITY: N/A
        VCN_ACTIVITY: [0 %, 0 %, 0 %, 0 %]
        JPEG_ACTIVITY: [0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0
            %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %, 0 %,
            0 %, 0 %, 0 %, 0 %]
    MEM_USAGE:
        TOTAL_VRAM: 64289 MB
        USED_VRAM: 283 MB
        FREE_VRAM: 64006 MB

GPU: 1
    USAGE:
        GFX_ACTIVITY: N/A
    MEM_USAGE:
        TOTAL_VRAM: 64289 MB
        USED_VRAM: N/A
"""


def _amd_smi(tmp_path, monkeypatch, static: str, metric: str, *, json_too: bool):
    """An amd-smi that prints `static` / `metric` (with --json too when json_too, else an
    error there)."""
    def branch(text):
        body = f"/bin/cat <<'END'\n{text}\nEND\n"
        return body if json_too else f'case "$*" in\n*--json*) echo "amd-smi: error: no JSON" >&2; exit 2;;\nesac\n{body}'
    tool = tmp_path / "amd-smi"
    tool.write_text(f'#!/bin/sh\ncase "$1" in\nstatic)\n{branch(static)};;\nmetric)\n{branch(metric)};;\nesac\n')
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi, no rocm-smi


def test_amd_smi_human_readable_output_is_read(tmp_path, monkeypatch):
    _amd_smi(tmp_path, monkeypatch, STATIC, METRIC, json_too=False)
    assert host_info._gpus_and_error()[0] == [
        {"index": "0", "name": "MI300A", "memory_total_mib": "64289", "memory_used_mib": "283", "utilization_pct": "7"},
        {"index": "1", "name": "MI300A", "memory_total_mib": "64289", "memory_used_mib": None, "utilization_pct": None},
    ]
    _amd_smi(tmp_path, monkeypatch, "ERROR: no AMD GPUs found: GPU: none", "Traceback: x", json_too=False)
    assert host_info._gpus_and_error()[0] == []  # text that is no amd-smi output is no GPUs


def test_rocm_6_0_amd_smi_json_names_use_gfx_usage(tmp_path, monkeypatch):
    # rocm-6.0.0 amdsmi_commands.py: usage keys gfx_usage / mem_usage / mm_ip_usage, bare numbers
    static = [{"gpu": 0, "asic": {"market_name": "AMD Instinct MI300X", "device_id": "0x74a1"}}]
    metric = [{"gpu": 0, "usage": {"gfx_usage": 3, "mem_usage": 0, "mm_ip_usage": "N/A"},
               "mem_usage": {"total_vram": 196592, "used_vram": 1024}}]
    _amd_smi(tmp_path, monkeypatch, json.dumps(static, indent=4), json.dumps(metric, indent=4), json_too=True)
    assert host_info._gpus_and_error()[0] == [{"index": "0", "name": "AMD Instinct MI300X", "memory_total_mib": "196592",
                                              "memory_used_mib": "1024", "utilization_pct": "3"}]



def test_rocm_6_0_amd_smi_on_a_one_gpu_host_prints_one_entry_not_a_list(tmp_path, monkeypatch):
    # rocm-6.0.0 amdsmi_helpers.py handle_gpus: a list for several GPUs, the entry alone for one
    static = {"gpu": 0, "asic": {"market_name": "AMD Radeon PRO W7900"}}
    metric = {"gpu": 0, "usage": {"gfx_usage": 0}, "mem_usage": {"total_vram": 46064, "used_vram": 14}}
    _amd_smi(tmp_path, monkeypatch, json.dumps(static, indent=4), json.dumps(metric, indent=4), json_too=True)
    assert host_info._gpus_and_error()[0] == [{"index": "0", "name": "AMD Radeon PRO W7900", "memory_total_mib": "46064",
                                              "memory_used_mib": "14", "utilization_pct": "0"}]
