"""host_info on ROCm hosts as they are in 2026 (review of round 27).

The round read rocm-smi's JSON with the product key "Card series"; rocm_smi_lib prints
"Card Series" since ROCm 6.1 (python_smi_tools/rocm_smi.py showProductName, commit 4b5ccb5),
so an MI300X was named "card0". ROCm's replacement tool amd-smi (rocm-smi deprecated) was not
read at all: its JSON is a list of per-GPU entries, or {"gpu_data": [...]} in later releases
(amdsmi_cli/amdsmi_logger.py), with asic.market_name and mem_usage {"value", "unit": "MB"}
(bytes // 2**20, amdsmi_cli/amdsmi_commands.py)."""

from __future__ import annotations

import json
import stat

from spec_debug.probes import host_info

MI300X = {"index": "0", "name": "AMD Instinct MI300X", "memory_total_mib": "196592",
          "memory_used_mib": "1024", "utilization_pct": "3"}


def _fake_tool(tmp_path, monkeypatch, name, script):
    tool = tmp_path / name
    tool.write_text("#!/bin/sh\n" + script)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi: this machine's may be on /usr/bin


def _cat(text):
    return f"/bin/cat <<'END'\n{text}\nEND\n"


def test_rocm_smi_of_rocm_6_1_and_later_names_the_card_series(tmp_path, monkeypatch):
    cards = {"card0": {"Card Series": "AMD Instinct MI300X", "Card Model": "0x74a1",
                       "VRAM Total Memory (B)": "206141652992", "VRAM Total Used Memory (B)": "1073741824",
                       "GPU use (%)": "3"}, "system": {"Driver version": "6.8.5"}}
    _fake_tool(tmp_path, monkeypatch, "rocm-smi", _cat(json.dumps(cards) + "\n====== End of ROCm SMI Log ======"))
    assert host_info._gpus_and_error()[0] == [MI300X]


def _amd_smi(tmp_path, monkeypatch, wrap):
    static = [{"gpu": 0, "asic": {"market_name": "AMD Instinct MI300X", "device_id": "0x74a1"}}]
    metric = [{"gpu": 0, "usage": {"gfx_activity": {"value": 3, "unit": "%"}},
               "mem_usage": {"total_vram": {"value": 196592, "unit": "MB"},
                             "used_vram": {"value": 1024, "unit": "MB"}}}]
    if wrap:
        static, metric = {"gpu_data": static}, {"gpu_data": metric}
    _fake_tool(tmp_path, monkeypatch, "amd-smi",
               f'case "$1" in\nstatic)\n{_cat(json.dumps(static, indent=4))};;\n'
               f'metric)\n{_cat(json.dumps(metric, indent=4))};;\nesac\n')


def test_amd_smi_is_read_when_rocm_smi_is_gone(tmp_path, monkeypatch):
    _amd_smi(tmp_path, monkeypatch, wrap=False)
    assert host_info._gpus_and_error()[0] == [MI300X]


def test_amd_smi_gpu_data_wrapper_and_na_values(tmp_path, monkeypatch):
    _amd_smi(tmp_path, monkeypatch, wrap=True)
    assert host_info._gpus_and_error()[0] == [MI300X]
    _fake_tool(tmp_path, monkeypatch, "amd-smi",
               _cat(json.dumps({"gpu_data": [{"gpu": 1, "asic": "N/A", "mem_usage": {"total_vram": "N/A"}}]})))
    assert host_info._gpus_and_error()[0] == [{"index": "1", "name": "gpu1", "memory_total_mib": None,
                                              "memory_used_mib": None, "utilization_pct": None}]
