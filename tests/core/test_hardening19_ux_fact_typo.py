"""A misspelt fact name behind an `is defined` guard.

A new engineer writes the README's num_steps check, captures `num_steps`, and guards the check
with `when: facts.num_step is defined`. No step captures `num_step`, so the check was skipped on
every host and the run said PASSED on the incident's own command line
(`--speculative-num-steps 1`, SD101). An unguarded read already fails the step naming the
fact; a guarded one never said anything."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """\
name: num_steps_check
steps:
  - id: launch
    run: echo "python -m sglang.launch_server --speculative-algorithm EAGLE3 --speculative-num-steps 1"
    capture:
      - regex: '--speculative-num-steps[ =](?P<num_steps>\\d+)'
        type: int
  - id: check
    when: {when}
    run: echo checking
    expect:
      - that: facts.num_steps > 1
        finding: SD101
"""


def _cli(*args: str, cwd) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_a_misspelt_guarded_fact_is_refused_with_the_captured_name(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(when="facts.num_step is defined"))
    for args in (("playbooks", "validate", "p.yaml"), ("run", "p.yaml", "--host", "local", "--out", "runs")):
        proc = _cli(*args, cwd=tmp_path)
        assert proc.returncode == 2, proc.stdout + proc.stderr  # was 0: PASSED, the check skipped
        assert "p.yaml:9:11: step 'check' reads facts.num_step in when:, but no step captures 'num_step'" in proc.stderr
        assert "hint: did you mean facts.num_steps? ('launch' captures it)" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_the_corrected_name_finds_the_bug(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(when="facts.num_steps is defined"))
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path)
    assert proc.returncode == 1 and "SD101" in proc.stderr, proc.stderr


def test_a_default_filter_and_a_subscript_are_guards_too():
    for when in ("(facts.num_step | default(2)) > 1", "facts['num_step'] is not defined"):
        with pytest.raises(PlaybookError) as caught:
            load_playbook_text(PLAYBOOK.format(when=repr(when)), "p.yaml")
        assert "did you mean facts.num_steps?" in (caught.value.hint or "")


def test_names_like_no_capture_and_facts_a_probe_may_set_still_load():
    # Testing for a fact nobody captures (absence on purpose) is the author's choice.
    load_playbook_text(PLAYBOOK.format(when="facts.gpus is not defined"), "p.yaml")
    # An earlier probe may set any name: host_info's facts are not known before it runs.
    probe_first = PLAYBOOK.replace("steps:\n", "steps:\n  - id: info\n    probe: host_info\n", 1)
    load_playbook_text(probe_first.format(when="facts.num_step is defined"), "p.yaml")
