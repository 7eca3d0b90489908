"""An `expect: that:` or `when:` that fails at run time on what a host printed.

`facts.sglang_version >= 0.5` on the captured "0.5.4" (an engine-version gate, the first check
most playbooks make) read "TypeError: '>=' not supported between instances of 'str' and
'float'", naming neither the fact, its value nor the fix. And the fix the templating layer
gives with its errors ("guard it", "give the capture a default") was dropped from the SD003
finding of an expectation or a `when:` (an `until:` kept it): the report's remediation was the
generic one."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = r"""name: gates
steps:
  - id: engine
    run: |
      echo 'sglang version: 0.5.4'
    capture:
      - regex: 'version: (?P<sglang_version>\S+)'
      - regex: 'accept_len: (?P<accept_len>[\d.]+)'
    expect:
      - that: facts.sglang_version >= 0.5
  - id: gated
    when: facts.accept_len < 2
    run: echo slow
"""


def test_a_version_compared_with_a_number_names_the_value_and_the_fix(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    engine, gated = record["steps"]
    assert engine["status"] == "error"
    assert "facts.sglang_version is the version '0.5.4', text, not a number" in engine["message"], engine["message"]
    assert "TypeError" not in engine["message"]
    (finding,) = [f for f in record["findings"] if f["step"] == "engine"]
    assert finding["code"] == "SD003"
    assert "(?P<major>\\d+)\\.(?P<minor>\\d+)" in finding["remediation"], finding["remediation"]


def test_the_fix_of_a_failed_when_reaches_the_finding(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    gated = record["steps"][1]
    assert gated["status"] == "error" and "facts.accept_len is None" in gated["message"], gated["message"]
    (finding,) = [f for f in record["findings"] if f["step"] == "gated"]
    assert "give the capture a default" in finding["remediation"], finding["remediation"]
    assert not finding["remediation"].startswith(("or ", "Or ")), finding["remediation"]  # a whole fix, alone
