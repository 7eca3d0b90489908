"""`facts.X is not defined or facts.X | length > 0` beside the capture of X validated quietly,
but a capture that matches nothing sets X to None (defined), and `None | length` raises
("object of type 'NoneType' has no len()"): the step failed with SD003 on exactly the host
missing the flag. A filter that needs a sized or iterable value (length, count, first, last,
join, sort, ...) is now warned as ordering the fact is, in `playbooks validate` and `run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

STEP = """\
name: flags_check
steps:
  - id: flags
    run: echo no flags here
    capture: [{{regex: 'flags=(?P<flags>\\S+)'}}]
    expect: [{{that: {that}, finding: {{code: SD101}}}}]
"""


def _write(tmp_path: Path, that: str) -> Path:
    path = tmp_path / "playbook.yaml"
    path.write_text(STEP.format(that=json.dumps(that)), encoding="utf-8")
    return path


def _run(tmp_path: Path, playbook: Path):
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return result, [step["status"] for step in record["steps"]]


@pytest.mark.parametrize("that", [
    "facts.flags is not defined or facts.flags | length > 0",
    "facts.flags is not defined or (facts.flags | first) == 'x'",
    "facts.flags is defined and facts.flags | count > 2",
    "facts.flags is not defined or facts.flags[0] == 'x'",  # "None has no element 0"
    "facts.flags is not defined or facts.flags + 1 > 2",  # arithmetic on None: refused
])
def test_a_defined_guard_before_a_use_none_fails_is_warned_in_validate_and_run(tmp_path: Path, that: str) -> None:
    playbook = _write(tmp_path, that)
    result, statuses = _run(tmp_path, playbook)
    assert statuses == ["error"]  # what the guard does at run time: SD003 on None
    assert "guards facts.flags with a defined test" in result.stderr
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 0
    lines = validated.stderr.splitlines()
    assert any(f"so {use}" in lines[0] for use in ("filtering it with", "indexing it", "doing arithmetic")) and "fails the step (SD003)" in lines[0]
    assert lines[1].startswith("  hint: write facts.flags is ")


def test_the_fixed_guard_is_quiet_and_skips_the_check(tmp_path: Path) -> None:
    fixed = _write(tmp_path, "facts.flags is none or facts.flags | length > 0")
    assert run_cli("playbooks", "validate", str(fixed)).stderr == ""
    result, statuses = _run(tmp_path, fixed)
    assert statuses == ["passed"]
    assert "guards" not in result.stderr


@pytest.mark.parametrize("that", [
    "facts.flags is not defined or facts.flags | default('') | length > 0",  # default first: never None
    "facts.flags is not defined or facts.flags | string == 'None'",  # str(None) is fine
    "facts.flags is not defined or facts.flags | lower == 'x'",
    "facts.flags is not defined or facts.flags ~ 'x' == 'Nonex'",  # ~ writes None as text
    "facts.flags is not defined or (facts.flags or 0) + 1 > 2",  # `or` first: never None
    "facts.flags is not defined or facts['flags'] == 'x'",
])
def test_filters_that_take_none_are_not_warned(tmp_path: Path, that: str) -> None:
    assert run_cli("playbooks", "validate", str(_write(tmp_path, that))).stderr == ""
