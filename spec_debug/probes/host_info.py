"""host_info: what machine is this? Python, OS, GPUs, and which engines are importable."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys


def _gpus() -> list[dict]:
    if not shutil.which("nvidia-smi"):
        return []
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=index,name,memory.total,memory.used,utilization.gpu", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=15, check=False,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
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
