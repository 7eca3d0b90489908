"""A fact captured under a secret's name is masked as a value in everything recorded after.

`(?P<session_token>\\S+)` from `session=PlainSessionValue9876` (a value no pattern of
redact.py knows): run.json's facts said ***REDACTED*** (redact_value masks a value under a
secret's name), yet the next step's command `echo "using {{ facts.session_token }}"`, its
output and the login step's own output and command showed the value in run.json, report.md and
report.html (8 places in a real `--host local` run). A `--var session_token=...` is masked
as a value wherever it appears (secret_values); a captured one now is too, from the step that
captures it on. With --no-redact nothing is masked, as before.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

VALUE = "PlainSessionValue9876"
PLAYBOOK = """\
name: p
steps:
  - id: login
    run: echo "session=PlainSessionValue9876"
    capture:
      - regex: 'session=(?P<session_token>\\S+)'
      - regex: 'session=(?P<first_part>Plain)'
  - id: use
    run: echo "using {{ facts.session_token }} as {{ facts.first_part }}" && exit 1
"""


def _run(tmp_path, *extra: str):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out), *extra)
    run_dir, record = only_run(out)
    return result, run_dir, record


def test_a_captured_secret_is_masked_in_later_commands_and_outputs(tmp_path):
    result, run_dir, record = _run(tmp_path)
    assert result.code == 1, result.stderr
    login, use = record["steps"]
    assert login["stdout"] == "session=***REDACTED***\n"
    assert login["command"] == 'echo "session=***REDACTED***"'
    assert use["command"] == 'echo "using ***REDACTED*** as Plain" && exit 1'  # a fact not named so: kept
    assert use["stdout"] == "using ***REDACTED*** as Plain\n"
    assert record["facts"]["local"] == {"session_token": "***REDACTED***", "first_part": "Plain"}
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert VALUE not in text and "SessionValue" not in text


def test_with_no_redact_the_captured_value_is_shown(tmp_path):
    result, _, record = _run(tmp_path, "--no-redact")
    assert result.code == 1, result.stderr
    assert record["steps"][1]["stdout"] == f"using {VALUE} as Plain\n"
    assert record["facts"]["local"]["session_token"] == VALUE
