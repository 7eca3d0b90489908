"""A launch that fails, then `python -c "import sglang; print(sglang.__version__)"`: the turn to
the version check was titled "Running Python" in the phase and the pivot summary (a `pip show
sglang` in its place was already "Checking installed versions"). It is now titled the version
check it is; the JSON's ``to_category`` stays "python", as ``commands[]`` has it."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from tests.session.incident_story import _Writer

# sglang 0.4.1's server_args.py has no EAGLE3 choice (added in 0.4.4): argparse's message
LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--port 30000")
FAILED = ("usage: launch_server.py [-h] --model-path MODEL_PATH\n"
          "launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
          "(choose from 'EAGLE')")


def _analyze(tmp_path, check: str, printed: str):
    w = _Writer("s1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Serve EAGLE-3 on this box with sglang")
    w.bash(LAUNCH, FAILED, exit_code=2)
    at, _ = w.bash(check, printed)
    w.bash("pip install -U sglang==0.4.6", "Successfully installed sglang-0.4.6")
    w.bash(LAUNCH, "The server is fired up and ready to roll!")
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return at, json.loads(analysis_json(analyze_path(path)))


@pytest.mark.parametrize("check, printed, category", [
    ('python -c "import sglang; print(sglang.__version__)"', "0.4.1\n", "python"),
    ("python3 -c 'import sglang as sgl; print(sgl.__version__)'", "0.4.1\n", "python"),
    ("pip show sglang", "Name: sglang\nVersion: 0.4.1\n", "other"),
])
def test_a_version_printed_by_python_is_titled_a_version_check(tmp_path, check, printed, category):
    at, j = _analyze(tmp_path, check, printed)
    [pivot] = j["pivots"]
    assert pivot["seq"] == at
    assert pivot["summary"].endswith(f"moved from launching the server to checking installed versions: {check}")
    assert (pivot["from_category"], pivot["to_category"]) == ("launch_server", category)
    titles = [s["title"] for s in j["segments"]]
    assert titles[1] == f"Checking installed versions (pivot after [msg {at - 1}])"
    assert [c["category"] for c in j["commands"] if c["seq"] == at] == [category]


def test_a_python_run_that_prints_no_version_is_still_running_python(tmp_path):
    at, j = _analyze(tmp_path, 'python -c "import sglang; print(sglang.ServerArgs)"', "<class>\n")
    [pivot] = j["pivots"]
    assert "to running python:" in pivot["summary"]
    assert [s["title"] for s in j["segments"]][1] == f"Running Python (pivot after [msg {at - 1}])"
