"""`facts.X is not defined or facts.X.version > 1` and `... or -facts.X < 1` beside the capture
of X validated quietly, but a capture that matches nothing sets X to None (defined): reading an
attribute of None ("'None' has no attribute 'version'", the runner's strict undefined) and
negating it ("refused as arithmetic") failed the step with SD003 on exactly the host missing the
value. Both are now warned, in `playbooks validate` and `run`, with the guard that works; an
attribute only tested (`is defined`) or defaulted (`| default(0)`) takes None fine and stays quiet."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

STEP = """\
name: engine_info
steps:
  - id: info
    run: "echo '{{}}'"
    capture: [{{json: engine, name: engine}}, {{regex: 'n=(?P<n>\\d+)', type: int}}]
    expect: [{{that: {that}, finding: {{code: SD101}}}}]
"""


def _write(tmp_path: Path, that: str) -> Path:
    path = tmp_path / "playbook.yaml"
    path.write_text(STEP.format(that=json.dumps(that)), encoding="utf-8")
    return path


def _statuses(tmp_path: Path, playbook: Path):
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return result, [step["status"] for step in record["steps"]]


@pytest.mark.parametrize(("that", "name", "use", "fixed_status"), [
    ("facts.engine is not defined or facts.engine.version > 1", "engine", "reading its attributes", "passed"),
    # `and`: the check asks for the value, so the host without it fails the check (SD001), not the step.
    ("facts.engine is defined and facts.engine.flags == 'x'", "engine", "reading its attributes", "failed"),
    ("facts.n is not defined or -facts.n < 1", "n", "negating it", "passed"),
])
def test_a_defined_guard_before_an_attribute_or_a_minus_is_warned(
        tmp_path: Path, that: str, name: str, use: str, fixed_status: str) -> None:
    playbook = _write(tmp_path, that)
    result, statuses = _statuses(tmp_path, playbook)
    assert statuses == ["error"]  # what the guard does at run time: SD003 on None
    assert f"guards facts.{name} with a defined test" in result.stderr
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 0
    lines = validated.stderr.splitlines()
    assert f"so {use} fails the step (SD003)" in lines[0], lines
    assert lines[1].startswith(f"  hint: write facts.{name} is "), lines
    # The hint's guard is the one that works: the step then passes on the host without the value.
    fixed = _write(tmp_path, lines[1].removeprefix("  hint: write "))
    assert run_cli("playbooks", "validate", str(fixed)).stderr == ""
    shutil.rmtree(tmp_path / "runs")
    assert _statuses(tmp_path, fixed)[1] == [fixed_status]


@pytest.mark.parametrize("that", [
    "facts.engine is defined and facts.engine.version is defined",
    "facts.engine is not defined or (facts.engine.version | default(0)) < 1",
])
def test_an_attribute_only_tested_or_defaulted_is_not_warned(tmp_path: Path, that: str) -> None:
    playbook = _write(tmp_path, that)
    assert run_cli("playbooks", "validate", str(playbook)).stderr == ""
    result, statuses = _statuses(tmp_path, playbook)
    assert statuses != ["error"] and "guards facts." not in result.stderr
