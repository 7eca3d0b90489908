"""engine_info (host side): which serving engine and reference library this Python has.

Reads package metadata and locations only; nothing is imported (importing sglang or vllm
initialises CUDA and takes seconds to minutes).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

PACKAGES = ("sglang", "vllm", "speculators", "torch", "transformers", "safetensors")


def package_info(name: str) -> dict[str, Any] | None:
    try:
        spec = importlib.util.find_spec(name)  # a top-level name: finds, does not import
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return None
    try:
        from importlib.metadata import version

        ver = version(name)
    except Exception:
        ver = None
    locations = list(spec.submodule_search_locations or [])
    return {"version": ver, "path": locations[0] if locations else spec.origin}


def run(args: dict) -> dict:
    return {
        "args": args,
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "packages": {name: package_info(name) for name in PACKAGES},
    }
