"""A `{% for %}` over a long facts list inside another loop over it: no range() in it, so the
bound on ranges (test_hardening44_sandbox_range_loop) did not see it, and 30,000 captured lines
looped 30,000 times (9*10**8 iterations) held the run for many minutes, past SIGTERM and Ctrl-C.
The iterations of all loops of one render are bounded now: the step errors naming the bound, the
run goes on, and ordinary loops (loop.index, loop.length, else, a test) work as before."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: loops
steps:
  - id: lines
    run: seq 30000
    capture:
      - regex: '(?m)^(?P<n>\\d+)$'
        all: true
  - id: nested
    run: "echo {% for a in facts.n %}{% for b in facts.n %}{% endfor %}{% endfor %}done"
  - id: small
    run: >-
      echo {% for a in facts.n[:3] %}{% for b in facts.n[:2] if b != '9' %}{{ a }}{{ b }}
      {%- if not loop.last %},{% endif %}{% endfor %}/{{ loop.index }}/{{ loop.length }} {% endfor %}
      {%- for x in [] %}{{ x }}{% else %}none{% endfor %}
"""


def test_a_loop_inside_a_loop_over_a_long_fact_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=60)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["lines"]["status"] == "passed"
    assert steps["nested"]["status"] == "error"
    assert steps["nested"]["message"] == (
        "step 'nested', run: template failed: SecurityError: the {% for %} loops of this template would run "
        "more than 1,000,000 times (a loop inside a loop over a long list); loop over fewer")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "11,12/1/3 21,22/2/3 31,32/3/3 none\n"
