"""A --var-file value keeps the type of the var's default, as a --var does: `min_tokens: abc`
for a number var was an SD003 TypeError on every host and exit 0, `dry: "no"` for a yes/no var
was the text 'no' (true to Jinja), `suffix: 5` for a text var the int 5. Refused at the value's
line and column in the file, before any host, exit 2; or given the default's type."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """
name: typed_vars
vars:
  min_tokens: 3
  suffix: "v1"
  dry: false
  gpus: [0, 1]
steps:
  - id: show
    run: "echo min={{ min_tokens }} suffix={{ suffix }}"
    expect:
      - that: min_tokens >= 0
      - that: suffix.startswith(suffix)
  - id: wet
    when: not dry
    run: echo wet
"""


def _run(tmp_path, write_playbook, var_file_text, *extra):
    playbook = write_playbook(PLAYBOOK)
    var_file = tmp_path / "vars.yaml"
    var_file.write_text(var_file_text, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--var-file", str(var_file), "--out", str(out), "--json", *extra)
    return result, var_file, out


@pytest.mark.parametrize("text, where, message, hint", [
    ("suffix: v2\nmin_tokens: abc\n", "2:13", "min_tokens is a number in the playbook (default 3), and 'abc' is not a number",
     "write a number: min_tokens: 3"),
    ("min_tokens: 20GB\n", "1:13", "min_tokens is a number in the playbook (default 3), and 'GB' after it makes the value "
     "text its checks cannot compare", "write the number alone, in the unit the playbook uses for min_tokens: min_tokens: 20"),
    ("dry: maybe\n", "1:6", "dry is a yes/no in the playbook (default false), and 'maybe' is neither", "write true or false: dry: true"),
    ("gpus: 0\n", "1:7", "gpus is a list in the playbook (default [0, 1]), and '0' is not one",
     "write it as YAML, as the playbook's default is: gpus: [0, 1]"),
])
def test_a_value_not_of_the_defaults_type_is_refused_at_its_line(tmp_path, write_playbook, text, where, message, hint):
    result, var_file, out = _run(tmp_path, write_playbook, text)
    assert result.code == 2, result.stderr
    lines = result.stderr.splitlines()
    name = message.split()[0]
    assert lines[0] == f"error: {var_file}:{where}: {message} (at {name})"
    assert lines[1].strip() == f"hint: {hint}"
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("text, name, value", [
    ("dry: 'no'\n", "dry", False), ("dry: 'yes'\n", "dry", True), ("dry: 1\n", "dry", True),
    ("suffix: 5\n", "suffix", "5"), ("suffix: true\n", "suffix", "true"),
    ("min_tokens: '7'\n", "min_tokens", 7), ("gpus: [2]\n", "gpus", [2]),
])
def test_a_value_takes_the_type_of_its_default(tmp_path, write_playbook, text, name, value):
    result, _, _ = _run(tmp_path, write_playbook, text)
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["vars"][name] == value and type(record["vars"][name]) is type(value)
    assert record["steps"][0]["status"] == "passed"


def test_a_var_given_on_the_command_line_replaces_the_files_value_unchecked(tmp_path, write_playbook):
    result, _, _ = _run(tmp_path, write_playbook, "min_tokens: abc\n", "--var", "min_tokens=4")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["vars"]["min_tokens"] == 4
