"""A capture's regex is used as written. `regex: '{{ served_model }} loaded in (?P<load_s>[\\d.]+)s'`
validated ok and looked for the braces: the fact was None on every host, and the step that used
it failed as if the server had printed no load time. Such a regex is now refused at its line,
with what works: a group for that part, and the value compared in an expectation."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: load_time
vars:
  served_model: llama-3-8b
steps:
  - id: load
    run: echo 'llama-3-8b loaded in 12.5s'
    capture:
      - regex: {regex}
        type: {type}
{expect}  - id: report
    run: echo load={{{{ facts.load_s }}}}
"""


def _write(tmp_path: Path, regex: str, expect: str = "", type_: str = "float") -> Path:
    path = tmp_path / "load_time.yaml"
    path.write_text(PLAYBOOK.format(regex=regex, expect=expect, type=type_), encoding="utf-8")
    return path


def test_a_capture_regex_that_reads_a_var_is_refused_with_a_group_and_a_check(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "'{{ served_model }} loaded in (?P<load_s>[\\d.]+)s'")
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first, hint = validated.stderr.splitlines()[:2]
    assert first.startswith(f"error: {playbook}:8:16: the regex of a capture in step 'load' is used as written"), first
    assert "not the value of served_model, so the capture finds nothing" in first
    assert first.endswith("(at steps[0].capture[0].regex)"), first
    assert hint == ("  hint: a regex takes no value here: capture that part with a group in place of the {{ }} "
                    "((?P<name>\\S+), in a capture of its own: its type: applies to every group) "
                    'and compare the fact in an expectation: that: "facts.name == served_model"'), hint
    # What the hint says, written out: the fact is captured and the model compared.
    fixed = _write(tmp_path, "'loaded in (?P<load_s>[\\d.]+)s'",
                   "      - regex: '(?P<name>\\S+) loaded in'\n"
                   '    expect:\n      - that: "facts.name == served_model"\n')
    assert run_cli("playbooks", "validate", str(fixed)).code == 0
    result = run_cli("run", str(fixed), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [s["status"] for s in steps] == ["passed", "passed"]
    assert steps[1]["stdout"] == "load=12.5\n"


def test_regex_braces_that_read_no_var_stay_the_regex(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "'loaded in (?P<load_s>\\d{1,3}[.]\\d)s'")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
