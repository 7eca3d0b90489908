"""A byte of command output that is no UTF-8 is kept as its surrogate (PEP 383) in the step's
record, its captures and evidence, shown as `\\xe9` in run.json. `that:`/`until:` expressions and
finding templates still read `stdout` decoded with U+FFFD: a fact captured from one step's
output (`caf\\xe9.log`) was not `in stdout` of the next step that printed the same bytes, and
`evidence: ["{{ stdout }}"]` said `caf\ufffd` beside the step's `caf\\xe9`."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""
name: latin-fact
steps:
  - id: list
    run: printf 'caf\351.log\n'
    capture:
      - regex: '^(?P<log>\S+)$'
  - id: kept
    run: printf 'reading caf\351.log\n'
    expect:
      - that: "facts.log in stdout"
      - that: "'never' in stdout"
    findings:
      - code: SD900
        severity: warning
        title: Latin
        evidence: ["{{ stdout }}", "{{ stdout | length }}"]
  - id: cut
    run: python3 -c "import sys; o=sys.stdout.buffer; o.write(b'x'*3000+b'\n'+b'reading caf\xe9.log\n'+b'y'*3000+b'\n')"
    expect:
      - that: "facts.log in stdout"
  - id: plain
    run: printf 'caf\303\251 ok\n'
    expect:
      - that: "'caf\u00e9 ok' in stdout and stdout | length == 8"
"""


def test_expressions_and_templates_read_the_byte_as_captures_and_run_json_do(tmp_path):
    playbook = tmp_path / "latin.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--capture-limit", "1024")
    assert result.code == 0, result.stderr  # SD900 is a warning
    _, record = only_run(tmp_path / "runs")
    listed, kept, cut, plain = record["steps"]
    assert listed["facts"] == {"log": "caf\\xe9.log"}
    assert kept["stdout"] == "reading caf\\xe9.log\n"
    assert [e["passed"] for e in kept["expectations"]] == [True, False]
    assert cut["stdout"].startswith("x") and "caf" not in cut["stdout"]  # the line is in the cut part
    assert [e["passed"] for e in cut["expectations"]] == [True]
    assert cut["status"] == "passed"
    assert [e["passed"] for e in plain["expectations"]] == [True]  # plain UTF-8 reads as before
    [latin] = [f for f in record["findings"] if f["code"] == "SD900"]
    assert latin["evidence"][:2] == ["reading caf\\xe9.log\n", "17"]
    assert "\ufffd" not in str(record)
