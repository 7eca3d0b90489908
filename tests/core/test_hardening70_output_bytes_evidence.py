"""A byte of command output that is no UTF-8 is shown as `\\xe9` in run.json and the reports
(test_hardening70_output_bytes_shown), but a finding that quoted the step's stderr tail, a
check's observed text and the `--show-output` live lines still said U+FFFD for the same byte:
`show| err \ufffd` on the terminal and evidence `err \ufffd` beside `"stderr": "err \\xff\\n"`."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""
name: latin
steps:
  - id: show
    run: printf 'caf\351 ok\n'; printf 'err \377\n' >&2; exit 3
  - id: check
    run: printf 'r\351sultats\n'
    expect:
      - contains: 'missing'
"""


def test_evidence_and_live_lines_show_the_byte_as_run_json_does(tmp_path):
    playbook = tmp_path / "latin.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--show-output")
    assert result.code == 1, result.stderr
    _, record = only_run(tmp_path / "runs")
    show, check = record["steps"]
    assert show["stderr"] == "err \\xff\n"
    failed = next(f for f in record["findings"] if f["step"] == "show")
    assert failed["evidence"] == ["exit code 3", "err \\xff"]
    unmet = next(f for f in record["findings"] if f["step"] == "check")
    assert unmet["evidence"] == ["expected output contains 'missing', observed not found", "r\\xe9sultats"]
    shown = result.stdout + result.stderr
    assert "show| caf\\xe9 ok" in shown and "show| err \\xff" in shown and "check| r\\xe9sultats" in shown
    assert "\ufffd" not in shown and "\ufffd" not in str(record)


UNTIL = r"""
name: latin-until
steps:
  - id: wait
    run: printf 'loading caf\351\n'
    retries: 1
    until: "'ready' in stdout"
"""


def test_an_until_that_never_held_quotes_the_byte_as_run_json_does(tmp_path):
    playbook = tmp_path / "until.yaml"
    playbook.write_text(UNTIL)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 1, result.stderr
    _, record = only_run(tmp_path / "runs")
    [step] = record["steps"]
    assert step["stdout"] == "loading caf\\xe9\n"
    [finding] = record["findings"]
    assert finding["evidence"] == ["until \"'ready' in stdout\" was still false after 2 attempt(s)", "loading caf\\xe9"]
