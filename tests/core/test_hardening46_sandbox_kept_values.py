"""Each value a template builds is bounded (a `*` at 10,000,000), but not how many it keeps: a
loop appending `'x' * 9999999` to a list 1,000 times keeps 10 GB, each append within every
bound, and the kernel's OOM killer ends the run. What one render puts into the lists, dicts and
sets it fills is bounded now (100,000,000 characters): the step errors, the run goes on, and a
list filled with small values works as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: kept
steps:
  - id: append
    run: "echo {% set a = [] %}{% for i in range(11) %}{{ a.append('x' * 9999999) or '' }}{% endfor %}{{ a | length }}"
  - id: update
    run: "echo {% set d = {} %}{% for i in range(11) %}{{ d.update({i: 'x' * 9999999}) or '' }}{% endfor %}{{ d | length }}"
  - id: small
    run: "echo {% set a = [] %}{% for i in range(1000) %}{{ a.append(i) or '' }}{% endfor %}{{ a | length }}"
"""


def test_a_loop_keeping_long_values_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    for step in ("append", "update"):
        assert steps[step]["status"] == "error"
        assert steps[step]["message"] == (
            f"step '{step}', run: template failed: SecurityError: this template would keep more than 100,000,000 "
            "characters in the lists and dicts it fills (a long value added in a loop); keep less")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "1000\n"
