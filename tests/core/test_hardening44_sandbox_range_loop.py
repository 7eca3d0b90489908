"""A loop of ranges in a template: Jinja bounds one `range()` to 100,000 items but not a loop
of them, so `{% for i in range(100000) %}{% for j in range(100000) %}` ran 10**10 iterations on
the controller, and SIGTERM and Ctrl-C waited on it (the run could only be killed -9). The
ranges of one render are bounded in all now: the step errors naming the bound, the run goes on."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: loops
steps:
  - id: nested
    run: "echo {% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}done"
  - id: small
    run: "echo {% for i in range(10) %}{{ range(3) | sum }}{% endfor %} {{ range(100000) | sum }}"
"""


def test_a_loop_of_ranges_errors_and_the_run_goes_on(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=60)
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["nested"]["status"] == "error"
    assert steps["nested"]["message"] == ("step 'nested', run: template failed: SecurityError: the range() calls of this "
                                          "template would make more than 1,000,000 items (a loop of ranges); loop over fewer")
    assert steps["small"]["status"] == "passed"
    assert steps["small"]["stdout"] == "3333333333 4999950000\n"
