"""Round 31: host_smoke on a ROCm host. host_info lists an MI300X's GPUs from rocm-smi, so the
gpu_busy step (`when: facts.gpus | length > 0`) ran nvidia-smi there, which a ROCm host does not
have: exit code 127, an SD001 error on a healthy host, the run FAILED. host_info now says whose
tool listed the GPUs (gpu_vendor) and gpu_busy runs where that is nvidia-smi."""

from __future__ import annotations

import stat

from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.templating import TemplateSite, evaluate
from spec_debug.probes import host_info

# rocm-smi --showproductname --showmeminfo vram --showuse --json on an MI300X (ROCm 6.1+ keys)
ROCM_SMI = ('{"card0": {"Card Series": "AMD Instinct MI300X", "VRAM Total Memory (B)": "206141652992", '
            '"VRAM Total Used Memory (B)": "293253120", "GPU use (%)": "0"}, "system": {}}')
# nvidia-smi --query-gpu=index,name,memory.total,memory.used,utilization.gpu,uuid,mig.mode.current
NVIDIA_SMI = "0, NVIDIA H100 80GB HBM3, 81559, 0, 0, GPU-5f4d6a2e-8c1b-4b0e-9a3c-1d2e3f4a5b6c, Disabled"


def _gpu_busy_runs(tmp_path, monkeypatch, name: str | None, stdout: str = "") -> tuple[bool, dict]:
    """Whether host_smoke's gpu_busy step runs on a host whose only GPU tool is `name`, with the
    facts host_info gives there (the runner evaluates `when:` on them: runner/engine.py)."""
    if name:
        tool = tmp_path / name
        tool.write_text(f"#!/bin/sh\n/bin/cat <<'END'\n{stdout}\nEND\n")
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi, rocm-smi or amd-smi of this machine
    facts = host_info.run({})
    [step] = [s for s in load_playbook("host_smoke").playbook.steps if s.id == "gpu_busy"]
    return bool(evaluate(step.when, {"facts": facts, "vars": {}}, TemplateSite(step.id, "when"))), facts


def test_a_rocm_host_does_not_run_nvidia_smi(tmp_path, monkeypatch):
    runs, facts = _gpu_busy_runs(tmp_path, monkeypatch, "rocm-smi", ROCM_SMI)
    assert facts["gpus"][0]["name"] == "AMD Instinct MI300X" and facts["gpu_vendor"] == "amd"
    assert not runs  # was: ran nvidia-smi, exit code 127, SD001 "Step 'gpu_busy' failed"


def test_an_nvidia_host_still_records_gpu_use_and_a_host_without_gpus_skips(tmp_path, monkeypatch):
    runs, facts = _gpu_busy_runs(tmp_path, monkeypatch, "nvidia-smi", NVIDIA_SMI)
    assert runs and facts["gpu_vendor"] == "nvidia"
    bare = tmp_path / "no-gpu-tools"
    bare.mkdir()
    runs, facts = _gpu_busy_runs(bare, monkeypatch, None)
    assert not runs and facts["gpu_vendor"] is None
