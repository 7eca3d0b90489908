"""The README's "A playbook in ten lines" runs as it says, on its default var too.

Its check was `facts.num_steps is not defined or facts.num_steps > 1`, but a capture that matched
nothing sets the fact to None (docs/playbooks.md, captures): with the default empty cmdline the
step errored (`None > 1`, SD003, "nothing was checked") instead of passing."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import run_cli

README = Path(__file__).resolve().parents[2] / "README.md"


def _ten_line_playbook(tmp_path: Path) -> Path:
    section = README.read_text(encoding="utf-8").split("## A playbook in ten lines", 1)[1]
    body = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    path = tmp_path / "num_steps_check.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def _run(tmp_path: Path, *extra: str) -> tuple[int, dict]:
    playbook = _ten_line_playbook(tmp_path)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", *extra)
    return result.code, json.loads(result.stdout)


def test_readme_playbook_passes_when_the_flag_is_absent(tmp_path: Path) -> None:
    code, record = _run(tmp_path)
    assert code == 0
    assert [s["status"] for s in record["steps"]] == ["passed"]
    assert record["findings"] == []


def test_readme_playbook_finds_sd101_for_one_step(tmp_path: Path) -> None:
    code, record = _run(tmp_path, "--var", "cmdline=python -m sglang.launch_server --speculative-num-steps 1")
    assert code == 1
    assert [f["code"] for f in record["findings"]] == ["SD101"]


def test_readme_playbook_passes_for_three_steps(tmp_path: Path) -> None:
    code, record = _run(tmp_path, "--var", "cmdline=--speculative-num-steps 3")
    assert code == 0 and record["findings"] == []
