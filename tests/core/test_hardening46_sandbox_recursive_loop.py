"""`loop(children)` in a recursive `{% for %}` ran the loop body over items the per-render loop
count never saw (Jinja calls LoopContext.__call__, not the loop's own iterable): 40 lists of
30,000 captured lines made 1,200,000 iterations past the 1,000,000 bound. They count now; a small
recursive loop renders as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: recursive_loops
steps:
  - id: lines
    run: seq 30000
    capture:
      - regex: '(?m)^(?P<n>\\d+)$'
        all: true
  - id: recursive
    run: "echo {% for x in [facts.n] * 40 recursive %}{% if x is iterable %}{{ loop(x) }}{% endif %}{% endfor %}done"
  - id: small
    run: "echo {% for x in [['a', ['b']], 'c'] recursive %}{% if x is string %}{{ x }}{% else %}{{ loop(x) }}{% endif %}{% endfor %}"
"""


def test_a_recursive_loop_over_long_lists_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["recursive"]["status"] == "error"
    assert steps["recursive"]["message"] == (
        "step 'recursive', run: template failed: SecurityError: the {% for %} loops of this template would run "
        "more than 1,000,000 times (a loop inside a loop over a long list); loop over fewer")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "abc\n"
