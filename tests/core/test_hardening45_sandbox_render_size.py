"""Each piece a template writes is bounded (a `*`, a `| join` of 10,000,000 characters at most),
not how many it writes: a loop over 30,000 captured lines writing `facts.n | join(',')` each time
wrote 4.5 GB, the run at 9.5 GB and deaf to SIGTERM. A render writing more than 100,000,000
characters in all is refused now: the step errors naming the bound, the run goes on. (Here
120,000,000 characters: refused with the bound, yet small enough to build without it.)"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: writes
steps:
  - id: lines
    run: seq 30000
    capture:
      - regex: '(?m)^(?P<n>\\d+)$'
        all: true
  - id: written
    run: "echo {% for a in facts.n %}{{ 'x' * 4000 }}{% endfor %} | wc -c"
  - id: small
    run: "echo {% for a in facts.n[:3] %}{{ facts.n[:4] | join(',') }}/{% endfor %}"
"""


def test_a_render_writing_too_much_in_all_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["written"]["status"] == "error"
    assert steps["written"]["message"] == (
        "step 'written', run: template failed: SecurityError: this template would write more than "
        "100,000,000 characters (a long value written in a loop); write less")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "1,2,3,4/1,2,3,4/1,2,3,4/\n"
