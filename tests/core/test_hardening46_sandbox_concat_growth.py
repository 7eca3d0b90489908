"""`*` is bounded (10,000,000), but `~`, `+` and `.extend()` were not: a value doubled in a loop
(`{% set ns.s = ns.s ~ ns.s %}`) made 160,000,000 characters in 4 turns, and 10 turns would be
10 GB, the kernel's OOM killer then ending the run with its run.json left "running". Each is now
bounded like `*`: the step errors naming the size, the run goes on, small values join as before."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

DOUBLE = "{% set ns = namespace(s=START) %}{% for i in range(4) %}{% set ns.s = GROW %}{% endfor %}{{ ns.s | length }}"
PLAYBOOK = f"""name: growth
steps:
  - id: tilde
    run: "echo {DOUBLE.replace('START', "'x' * 6000000").replace('GROW', 'ns.s ~ ns.s')}"
  - id: plus_text
    run: "echo {DOUBLE.replace('START', "'x' * 6000000").replace('GROW', 'ns.s + ns.s')}"
  - id: plus_list
    run: "echo {DOUBLE.replace('START', '[0] * 6000000').replace('GROW', 'ns.s + ns.s')}"
  - id: extend
    run: "echo {{% set a = [] %}}{{% for i in range(4) %}}{{{{ a.extend([0] * 6000000) or '' }}}}{{% endfor %}}{{{{ a | length }}}}"
  - id: small
    run: "echo {{{{ 'a' ~ 1 ~ [2] }}}} {{{{ 1 + 2 }}}} {{{{ 'b' + 'c' }}}} {{{{ ([1] + [2]) | join('-') }}}}"
"""


@pytest.mark.parametrize(("step", "what", "unit"), [
    ("tilde", "'~'", "characters"), ("plus_text", "'+'", "characters"), ("plus_list", "'+'", "items"),
    ("extend", "'.extend()'", "items")])
def test_a_value_doubled_in_a_loop_errors_and_the_run_goes_on(tmp_path, write_playbook, step, what, unit):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps[step]["status"] == "error"
    assert steps[step]["message"] == (
        f"step '{step}', run: template failed: SecurityError: {what} would make 12,000,000 {unit}; at most 10,000,000")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "a1[2] 3 bc 1-2\n"
