"""A prompt ("Which sglang is installed?") answered by `python -c "import sglang;
print(sglang.__version__)"` alone: its phase was titled "… — Running Python" (and "… — Running
commands" for `pip show sglang`), though a pivot to the same command was already titled
"Checking installed versions". A phase whose calls of its leading kind only looked at installed
versions is titled so; ``commands[]`` keeps "python" / "other"."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from tests.session.incident_story import _Writer


def _analyze(tmp_path, commands: list[tuple[str, str]]):
    w = _Writer("s1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Serve EAGLE-3 on this box with sglang")
    w.bash("nvidia-smi", "GPU 0: NVIDIA H100 80GB HBM3")
    w.prompt("Which sglang is installed?")
    for command, printed in commands:
        w.bash(command, printed)
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return json.loads(analysis_json(analyze_path(path)))


@pytest.mark.parametrize("check, printed, category", [
    ('python -c "import sglang; print(sglang.__version__)"', "0.4.1\n", "python"),
    ("pip show sglang", "Name: sglang\nVersion: 0.4.1\n", "other"),
])
def test_a_prompt_answered_by_a_version_check_is_titled_one(tmp_path, check, printed, category):
    j = _analyze(tmp_path, [(check, printed)])
    assert [s["title"] for s in j["segments"]] == [
        "Serve EAGLE-3 on this box with sglang — Checking the GPUs",
        "Which sglang is installed? — Checking installed versions"]
    assert [c["category"] for c in j["commands"]] == ["gpu_status", category]


def test_two_checks_are_one_look(tmp_path):
    j = _analyze(tmp_path, [('python -c "import sglang; print(sglang.__version__)"', "0.4.1\n"),
                            ('python3 -c "import torch; print(torch.__version__)"', "2.5.1\n")])
    assert [s["title"] for s in j["segments"]][1] == "Which sglang is installed? — Checking installed versions"


@pytest.mark.parametrize("other", ['python -c "import sglang; print(sglang.ServerArgs)"', "python3 /root/convert_draft.py"])
def test_python_that_also_ran_something_else_is_still_running_python(tmp_path, other):
    j = _analyze(tmp_path, [('python -c "import sglang; print(sglang.__version__)"', "0.4.1\n"), (other, "ok\n")])
    assert [s["title"] for s in j["segments"]][1] == "Which sglang is installed? — Running Python"
