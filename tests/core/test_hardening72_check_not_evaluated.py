"""A playbook's `that:` that raises on what the step read (a fact left as text compared with a
number, a fact no step sets) is an SD003 warning, so the run exits 0 and says PASSED (the exit
code is unchanged: hardening39/69). Its finding said "A step could not run or its output could
not be read", though the step ran and its output was read, and the verdict said nothing of a
broken check. The finding is now titled as the playbook's check that could not be evaluated,
naming it, and the verdict counts them. Through the real CLI, real local steps."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = r'''name: broken_checks
steps:
  - id: loss
    run: echo "loss=0.5"
    capture:
      - regex: 'loss=(?P<loss>\S+)'
        type: str
    expect:
      - that: facts.loss < 5
  - id: typo
    run: echo hi
    expect:
      - that: facts.tokens_per_s > 3
        description: throughput is above 3 tokens/s
  - id: fine
    run: echo ok
    expect:
      - contains: ok
'''


def _run(tmp_path, playbook: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "p.yaml").write_text(playbook)
    return subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--out", "runs", "--json"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


def test_a_check_that_raised_is_named_as_the_playbooks_broken_check(tmp_path):
    proc = _run(tmp_path, PLAYBOOK)
    assert proc.returncode == 0, proc.stderr
    said = proc.stderr
    assert "SD003 The playbook's check could not be evaluated: that facts.loss < 5\n" in said
    # the step's line keeps the expression and the fix
    assert "compare it as one: (facts.loss | float)" in said
    assert "SD003 The playbook's check could not be evaluated: throughput is above 3 tokens/s\n" in said
    verdict = [line for line in said.splitlines() if line.startswith("PASSED")]
    assert len(verdict) == 1 and " · 2 of the playbook's checks could not be evaluated (fix them as each step's line says) · " in verdict[0]

    record = json.loads(proc.stdout)
    titles = {f["step"]: (f["code"], f["severity"], f["title"]) for f in record["findings"]}
    assert titles == {
        "loss": ("SD003", "warning", "The playbook's check could not be evaluated: that facts.loss < 5"),
        "typo": ("SD003", "warning", "The playbook's check could not be evaluated: throughput is above 3 tokens/s"),
    }


def test_one_broken_check_is_said_once_and_a_run_with_none_says_nothing_of_it(tmp_path):
    one = PLAYBOOK.split("  - id: typo")[0]
    proc = _run(tmp_path, one)
    assert proc.returncode == 0, proc.stderr
    assert " · 1 of the playbook's checks could not be evaluated (fix it as its step's line says) · " in proc.stderr

    clean = "name: clean\nsteps:\n  - id: fine\n    run: echo ok\n"
    proc = _run(tmp_path, clean)
    assert proc.returncode == 0 and "could not be evaluated" not in proc.stderr, proc.stderr
