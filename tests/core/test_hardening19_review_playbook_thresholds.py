"""A threshold written with a trailing zero, compared as a number and quoted in the finding's
title, loads and runs.

`min_accept_rate: 0.80` with `that: facts.accept_rate >= min_accept_rate` and a title "... below
{{ min_accept_rate }}" was refused at load ("YAML reads it as the number 0.8 ... quote it"), and
quoting it, as the hint said, made the comparison fail on every host (float >= str). The
version trap stays refused: `0.10` in a command (`pip install vllm=={{ v }}`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook

ACCEPT_RATE = """\
name: accept_rate
description: Is the draft accepted often enough?
vars:
  min_accept_rate: 0.80
steps:
  - id: rate
    run: "echo 'accept rate: 0.71'"
    capture:
      - regex: 'accept rate: (?P<accept_rate>[\\d.]+)'
        type: float
    expect:
      - that: facts.accept_rate >= min_accept_rate
        finding:
          code: SD900
          severity: error
          title: "Acceptance rate {{ facts.accept_rate }} is below {{ min_accept_rate }}"
"""


def test_a_threshold_compared_as_a_number_and_quoted_in_a_finding_runs(tmp_path):
    (tmp_path / "p.yaml").write_text(ACCEPT_RATE)
    ran = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local"], capture_output=True,
                         text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert ran.returncode == 1, ran.stdout + ran.stderr  # the rate is below: an error finding
    record = json.loads(next(Path(tmp_path, "runs").glob("*/run.json")).read_text())
    assert [f["title"] for f in record["findings"]] == ["Acceptance rate 0.71 is below 0.8"], record["findings"]


@pytest.mark.parametrize("where", [
    "    run: echo pip install vllm=={{ min_accept_rate }}\n",
    "    run: echo\n    findings: [{code: SD900, title: 'vLLM {{ min_accept_rate }}'}]\n",
])
def test_the_version_trap_is_still_refused_where_the_var_is_not_a_number(tmp_path, where):
    path = tmp_path / "p.yaml"
    path.write_text(f"name: pin\nvars:\n  min_accept_rate: 0.10\nsteps:\n  - id: a\n{where}")
    with pytest.raises(PlaybookError) as caught:
        load_playbook(path)
    assert "YAML reads it as the number 0.1" in caught.value.message, caught.value.message
