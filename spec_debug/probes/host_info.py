"""host_info: what machine is this? Python, OS, GPUs, and which engines are importable."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys


def _output(command: list[str]) -> str:
    """The command's stdout, "" when it is not installed, fails to start or hangs."""
    if not shutil.which(command[0]):
        return ""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=15, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _gpus() -> list[dict]:
    """NVIDIA GPUs from nvidia-smi, else AMD GPUs from rocm-smi (a ROCm host, where SGLang and
    vLLM run as ROCm builds, has no nvidia-smi: its GPUs were reported as none)."""
    return _nvidia_gpus() or _rocm_gpus()


def _rocm_gpus() -> list[dict]:
    """rocm-smi's JSON: {"card0": {"Card series": ..., "VRAM Total Memory (B)": "...",
    "VRAM Total Used Memory (B)": "...", "GPU use (%)": "..."}, "system": {...}} (ROCm
    rocm_smi_lib python_smi_tools/rocm_smi.py, --showproductname --showmeminfo vram --showuse)."""
    import json

    out = _output(["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showuse", "--json"])
    try:
        cards = json.loads(out[out.find("{"):]) if "{" in out else {}
    except ValueError:
        return []
    gpus = []
    for key, card in (cards.items() if isinstance(cards, dict) else ()):
        if not (isinstance(key, str) and key.startswith("card") and isinstance(card, dict)):
            continue
        gpus.append({"index": key[len("card"):], "name": card.get("Card series") or card.get("Card model") or key,
                     "memory_total_mib": _mib(card.get("VRAM Total Memory (B)")),
                     "memory_used_mib": _mib(card.get("VRAM Total Used Memory (B)")),
                     "utilization_pct": card.get("GPU use (%)")})
    return gpus


def _mib(value: object) -> str | None:
    """Bytes as rocm-smi prints them ("206141652992") in MiB, the unit nvidia-smi reports."""
    try:
        return str(int(str(value)) // (1024 * 1024))
    except ValueError:
        return None


def _nvidia_gpus() -> list[dict]:
    out = _output(["nvidia-smi", "--query-gpu=index,name,memory.total,memory.used,utilization.gpu",
                   "--format=csv,noheader,nounits"])
    gpus = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 5:
            gpus.append({"index": parts[0], "name": parts[1], "memory_total_mib": parts[2], "memory_used_mib": parts[3], "utilization_pct": parts[4]})
    return gpus


def _version_of(package: str) -> str | None:
    """The version of the code `import package` runs (engine_info.installed_version: a source
    checkout on PYTHONPATH ahead of a pip-installed copy reports its own version)."""
    from spec_debug.probes.engine_info import package_info

    info = package_info(package)
    if info is None:
        return None
    return info["version"] or "unknown"


def run(args: dict) -> dict:
    return {
        "hostname": platform.node(),
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "cpu_count": os.cpu_count(),
        "gpus": _gpus(),
        "packages": {name: _version_of(name) for name in ("torch", "sglang", "vllm", "speculators", "safetensors", "transformers")},
    }
