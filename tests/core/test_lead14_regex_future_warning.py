"""A playbook regex with a literal `[` in a class (`[[]`) made Python's re print "FutureWarning:
Possible nested set" with a line of our source, three times, in the middle of a run's progress.
The regex matches as written today; the run says nothing about it."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: nested
steps:
  - id: a
    run: echo "[[x]] 5 tok/s"
    capture: [{regex: '[[](?P<v>\\w+)', type: str}]
"""


def test_a_nested_set_warning_is_not_printed_and_the_capture_works(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 0, result.stderr
    assert "FutureWarning" not in result.stderr and "Possible nested set" not in result.stderr
    record = json.loads(next(tmp_path.glob("runs/*/run.json")).read_text())
    assert record["facts"]["local"]["v"] == "x"
