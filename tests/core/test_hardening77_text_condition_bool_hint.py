"""A check on a text that says false (`ready=False` captured as text) names `| bool` as a fix.

Before: the refusal's hint offered comparing with the word that says true or capturing with
type: bool, not `| bool`, which had no filter here and is how Ansible authors read a yes/no
var; now it offers `facts.ready | bool` too (bracketed where the expression has more than one
part), and following it gives the check its verdict: failed on a host that printed False.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: words
steps:
  - id: health
    run: echo "ready=False"
    capture:
      - regex: 'ready=(?P<ready>\\S+)'
    expect:
      - that: {that}
"""


def _run(tmp_path, that: str) -> dict:
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that=json.dumps(that)))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


def test_the_hint_offers_bool_and_following_it_fails_the_check(tmp_path):
    record = _run(tmp_path, "facts.ready")
    assert [f["remediation"] for f in record["findings"] if f["remediation"].startswith("Compare it: facts.ready")]
    (remediation,) = [f["remediation"] for f in record["findings"] if f["remediation"].startswith("Compare it: facts.ready")]
    assert ", or read it as a yes or no: facts.ready | bool. Fix the cause" in remediation, remediation
    (step,) = _run(tmp_path, "facts.ready | bool")["steps"]
    assert step["status"] == "failed", step


def test_an_expression_of_more_than_one_part_is_bracketed(tmp_path):
    record = _run(tmp_path, "'' or facts.ready")
    assert any(", or read it as a yes or no: ('' or facts.ready) | bool. " in f["remediation"]
               for f in record["findings"]), record["findings"]
