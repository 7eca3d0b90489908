"""The none-guard warning (`facts.X is not defined or facts.X > 1` beside the capture of X, which
sets X to None when it matches nothing) was given by `playbooks validate` alone: `spec-debug
run`, what most users type, started without a word and the host missing the flag came back
SD003, "nothing was checked". Now run says the same warning before it starts (the run goes on).
And `'EAGLE' in facts.X` guarded the same way fails the same way ("argument of type 'NoneType'
is not iterable", seen below on a real run): it is warned too, where `facts.X == 'on'` and
`facts.X in [...]` (only false with None) are not. Through the real CLI on --host local."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: algo_check
steps:
  - id: algo
    run: echo no flag here
    capture: [{{regex: '--speculative-algorithm[ =](?P<algo>\\S+)'}}]
    expect: [{{that: "{that}", finding: {{code: SD103}}}}]
"""


def _write(tmp_path: Path, that: str) -> Path:
    path = tmp_path / "playbook.yaml"
    path.write_text(PLAYBOOK.format(that=that), encoding="utf-8")
    return path


def _run(tmp_path: Path, playbook: Path):
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return result, [step["status"] for step in record["steps"]]


def test_run_warns_before_it_starts_and_still_runs(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "facts.algo is not defined or 'EAGLE' in facts.algo")
    result, statuses = _run(tmp_path, playbook)
    assert statuses == ["error"]  # what the guard does at run time: SD003
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"warning: {playbook}:6:") and "looking in it fails the step (SD003)" in lines[0], result.stderr
    assert lines[1] == "  hint: write facts.algo is none or 'EAGLE' in facts.algo"
    assert lines[2].startswith("spec-debug running algo_check")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 0 and validated.stderr.splitlines() == lines[:2]
    (tmp_path / "fixed").mkdir()
    fixed = _write(tmp_path / "fixed", "facts.algo is none or 'EAGLE' in facts.algo")
    result, statuses = _run(tmp_path / "fixed", fixed)
    assert statuses == ["passed"] and "warning:" not in result.stderr


@pytest.mark.parametrize("that", ["facts.algo is not defined or facts.algo == 'EAGLE3'",
                                  "facts.algo is not defined or facts.algo in ['EAGLE', 'EAGLE3']"])
def test_what_none_only_makes_false_is_not_warned(tmp_path: Path, that: str) -> None:
    playbook = _write(tmp_path, that)
    result, statuses = _run(tmp_path, playbook)
    assert "warning:" not in result.stderr, result.stderr
    assert run_cli("playbooks", "validate", str(playbook)).stderr == ""


def test_a_method_call_on_the_fact_is_warned_too(tmp_path: Path) -> None:
    # `facts.algo.startswith('EAGLE')` on None: "'None' has no attribute 'startswith'", SD003.
    playbook = _write(tmp_path, "facts.algo is not defined or facts.algo.startswith('EAGLE')")
    result, statuses = _run(tmp_path, playbook)
    assert statuses == ["error"]
    assert "calling its methods fails the step (SD003)" in result.stderr, result.stderr
    assert "hint: write facts.algo is none or facts.algo.startswith('EAGLE')" in result.stderr
    (tmp_path / "fixed").mkdir()
    fixed = _write(tmp_path / "fixed", "facts.algo is none or facts.algo.startswith('EAGLE')")
    result, statuses = _run(tmp_path / "fixed", fixed)
    assert statuses == ["passed"] and "warning:" not in result.stderr
