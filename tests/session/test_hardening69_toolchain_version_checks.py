"""A launch that fails on the host's CUDA driver, then `python3 --version` or `nvcc --version`: a
look at the toolchain's version before a change of approach, as `pip show torch` is a look at a
package's. `pip show torch` was titled "Checking installed versions" and the postmortem said what
it showed ("checking installed versions (torch 2.4.0)"); `python3 --version` was "Running Python",
and `nvcc --version` no change of approach at all. Both are now version checks (python(1): -V,
--version "Print the Python version number and exit"; NVCC docs: --version (-V)), named
``python`` and ``nvcc``; ``commands[]`` and ``pivots[]`` keep their categories ("python", "other")."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.version_checks import checked_packages
from spec_debug.session.versions_seen import printed_versions
from tests.session.incident_story import _Writer

LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --port 30000")
# torch's message for a driver older than its CUDA build (torch/cuda/__init__.py, _check_driver)
FAILED = "RuntimeError: The NVIDIA driver on your system is too old (found version 11040)."
NVCC = ("nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2021 NVIDIA Corporation\n"
        "Built on Wed_Jul_14_19:41:19_PDT_2021\nCuda compilation tools, release 11.4, V11.4.100\n"
        "Build cuda_11.4.r11.4/compiler.30188945_0")


def test_the_toolchain_each_check_names() -> None:
    assert checked_packages("python3 --version") == {"python"}
    assert checked_packages("python -V") == {"python"}
    assert checked_packages("/home/me/venv/bin/python3.11 -VV") == {"python"}
    assert checked_packages("nvcc --version") == {"nvcc"}
    assert checked_packages("which nvcc && /usr/local/cuda/bin/nvcc -V") == {"nvcc"}
    assert checked_packages("python3 --version; nvcc --version") == {"python", "nvcc"}
    # a script given --version, an interpreter given more, another program: no toolchain's version
    assert checked_packages("python3 train.py --version") == set()
    assert checked_packages("python3 -V -c 'print(1)'") == set()
    assert checked_packages("nvidia-smi --version") == set()
    assert checked_packages("sort -V versions.txt") == set()


def test_the_versions_they_print() -> None:
    assert printed_versions({"python"}, "Python 3.8.10\n", False) == {"python": "3.8.10"}
    assert printed_versions({"nvcc"}, NVCC, False) == {"nvcc": "11.4"}
    assert printed_versions({"nvcc"}, "bash: nvcc: command not found", False) == {}


def _analyze(tmp_path: Path, check: str, printed: str):
    w = _Writer("s1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Serve EAGLE-3 on this box with sglang")
    w.bash(LAUNCH, FAILED, exit_code=1)
    at, _ = w.bash(check, printed)
    w.bash("pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cu118",
           "Successfully installed torch-2.3.1")
    w.bash(LAUNCH, "The server is fired up and ready to roll!")
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    a = analyze_path(path)
    return at, a, json.loads(analysis_json(a))


@pytest.mark.parametrize("check, printed, category, shown", [
    ("python3 --version", "Python 3.8.10\n", "python", "python 3.8.10"),
    ("nvcc --version", NVCC, "other", "nvcc 11.4"),
])
def test_a_toolchain_version_check_after_a_failure_is_titled_as_one(tmp_path, check, printed, category, shown):
    at, a, j = _analyze(tmp_path, check, printed)
    [pivot] = j["pivots"]
    assert pivot["seq"] == at
    assert pivot["summary"] == (f"After {FAILED} [msg {at - 1}], moved from launching the server to "
                                f"checking installed versions: {check}")
    assert (pivot["from_category"], pivot["to_category"]) == ("launch_server", category)
    assert [c["category"] for c in j["commands"] if c["seq"] == at] == [category]
    assert [s["title"] for s in j["segments"]][1] == f"Checking installed versions (pivot after [msg {at - 1}])"
    assert postmortem_view(a)["went_well"][0] == (
        f"Changed approach after {FAILED} [msg {at - 1}]: launching the server → "
        f"checking installed versions ({shown}) [msg {at}] (main).")
