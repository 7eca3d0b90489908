"""`spec-debug playbooks validate --format json`: each error and warning with its parts apart.

Before, validate printed only lines for people ("error: f.yaml:3:6: ... (at vars.f)" and a
"hint:" line), and a CI step or an editor that wanted the line and column had to parse them
back (a message holding ": " split wrongly); `--format json` was "No such option". The text
form and the exit codes are unchanged.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

BAD = "name: f\nvars:\n  mode: 0777\nsteps:\n  - id: a\n    run: chmod {{ mode }} x\n"
WARNED = ("name: g\nsteps:\n  - id: a\n    run: echo speed=3\n    capture:\n      - regex: 'speed=(?P<speed>[0-9]+)'\n"
          "        type: int\n  - id: b\n    run: echo hi\n    when: facts.sped > 1\n")


def _files(tmp_path):
    bad, warned = tmp_path / "bad.yaml", tmp_path / "warned.yaml"
    bad.write_text(BAD)
    warned.write_text(WARNED)
    return bad, warned, tmp_path / "missing.yaml"


def test_json_gives_each_error_and_warning_apart(tmp_path):
    bad, warned, missing = _files(tmp_path)
    result = run_cli("playbooks", "validate", "--format", "json", str(bad), str(warned), str(missing))
    assert result.code == 2, result.stdout + result.stderr
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert document["ok"] is False
    assert document["files"] == [
        {"file": str(bad), "ok": False, "steps": None},
        {"file": str(warned), "ok": True, "steps": 2},
        {"file": str(missing), "ok": False, "steps": None},
    ]
    error, warning, absent = document["problems"]
    assert error == {"file": str(bad), "line": 3, "column": 9, "key_path": "vars.mode",
                     "message": "'0777' would be read as the number 511",
                     "hint": 'write 511 if you mean the number, or quote it ("0777") if you mean the text',
                     "severity": "error"}
    assert warning == {"file": str(warned), "line": 10, "column": 11, "key_path": "steps[1].when",
                       "message": "step 'b' reads facts.sped in when:, but no step captures 'sped', so it is never set "
                                  "and the step fails on every host",
                       "hint": "did you mean facts.speed? ('a' captures it)", "severity": "warning"}
    assert absent["file"] == str(missing) and absent["severity"] == "error" and absent["line"] is None
    assert str(missing) in absent["message"] and absent["hint"]


@pytest.mark.parametrize("fmt", ["json", "JSON"])
def test_json_of_good_playbooks_is_ok_and_exits_0(tmp_path, fmt):
    _, warned, _ = _files(tmp_path)
    result = run_cli("playbooks", "validate", "--format", fmt, str(warned))
    assert result.code == 0, result.stdout + result.stderr
    document = json.loads(result.stdout)
    assert document["ok"] is True and [p["severity"] for p in document["problems"]] == ["warning"]


def test_the_text_form_is_unchanged(tmp_path):
    bad, warned, _ = _files(tmp_path)
    result = run_cli("playbooks", "validate", str(bad), str(warned))
    assert result.code == 2
    assert result.stdout.strip() == f"ok {warned} (2 steps)"
    said = result.stderr.splitlines()
    assert said[0] == f"error: {bad}:3:9: '0777' would be read as the number 511 (at vars.mode)"
    assert said[2].startswith(f"warning: {warned}:10:11: step 'b' reads facts.sped")


def test_an_unknown_format_is_refused(tmp_path):
    _, warned, _ = _files(tmp_path)
    result = run_cli("playbooks", "validate", "--format", "xml", str(warned))
    assert result.code == 2 and "--format 'xml' is not a format of playbooks validate" in result.stderr
    assert result.stdout == ""
