"""Each value a template builds is bounded (a `*` at 10,000,000), but not how many it keeps: a
loop appending `'x' * 9999999` to a list 1,000 times keeps 10 GB, each append within every
bound, and the kernel's OOM killer ends the run; `range(1000) | map('center', 9999999) | list`
the same. What one render builds in all is bounded now (1,000,000,000 characters or items): the
step errors, the run goes on, and small values built in a loop work as before, and so does a text of 3,000 lines grown with
`~` in a loop (450M characters copied: the bound counts every copy)."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: kept
steps:
  - id: append
    run: "echo {% set a = [] %}{% for i in range(101) %}{{ a.append('x' * 9999999) or '' }}{% endfor %}{{ a | length }}"
  - id: update
    run: "echo {% set d = {} %}{% for i in range(101) %}{{ d.update({i: 'x' * 9999999}) or '' }}{% endfor %}{{ d | length }}"
  - id: map_center
    run: "echo {{ range(101) | map('center', 9999999) | list | length }}"
  - id: grown
    run: "echo {% set ns = namespace(t='') %}{% for i in range(3000) %}{% set ns.t = ns.t ~ ('%099d' % i) ~ ' ' %}{% endfor %}{{ ns.t | length }}"
  - id: small
    run: "echo {% set a = [] %}{% for i in range(1000) %}{{ a.append('%05d' % i) or '' }}{% endfor %}{{ a | length }}"
"""


def test_a_loop_keeping_long_values_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    for step, last in (("append", "'*'"), ("update", "'*'"), ("map_center", "'| center'")):
        assert steps[step]["status"] == "error"
        assert steps[step]["message"] == (
            f"step '{step}', run: template failed: SecurityError: this template would build more than 1,000,000,000 "
            f"characters or items in all (the last: {last}, a value built again and again in a loop); build less")
    assert steps["grown"]["status"] == "passed"
    assert steps["grown"]["stdout"] == "300000\n"
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "1000\n"
