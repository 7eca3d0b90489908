"""An inventory's host vars keep the types of the playbook's defaults, as --var does. An INI
inventory gives text: `gpu01 min_tokens=abc` was an SD003 TypeError on that host mid-run (exit
0), and `dry=no` the text 'no', which Jinja takes for true. Refused before any host, naming
the host, exit 2; or given the default's type."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """
name: typed_vars
vars:
  min_tokens: 3
  suffix: "v1"
  dry: false
steps:
  - id: show
    run: "echo {{ suffix }}"
    expect:
      - that: min_tokens >= 0
      - that: suffix.startswith(suffix)
  - id: wet
    when: not dry
    run: echo wet
"""


def _run(tmp_path, write_playbook, host_line, *extra):
    playbook = write_playbook(PLAYBOOK)
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\nlocalhost ansible_connection=local {host_line}\n", encoding="utf-8")
    return run_cli("run", str(playbook), "-i", str(inventory), "--out", str(tmp_path / "runs"), "--json", *extra)


def test_an_inventory_value_not_of_the_defaults_type_is_refused_naming_the_host(tmp_path, write_playbook):
    result = _run(tmp_path, write_playbook, "min_tokens=abc")
    assert result.code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == ("error: host localhost: inventory var min_tokens=abc: min_tokens is a number in the playbook "
                        "(default 3), and 'abc' is not a number")
    assert lines[1].strip() == "hint: write a number: min_tokens=3 (in the inventory)"
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_inventory_text_takes_the_defaults_type(tmp_path, write_playbook):
    result = _run(tmp_path, write_playbook, "min_tokens=7 dry=no suffix=5")
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["hosts"][0]["vars"] == {"min_tokens": 7, "dry": False, "suffix": "5"}
    assert [s["status"] for s in record["steps"]] == ["passed", "passed"]  # dry=no: the wet step runs


def test_a_var_given_on_the_command_line_replaces_the_inventory_value_unchecked(tmp_path, write_playbook):
    result = _run(tmp_path, write_playbook, "min_tokens=abc", "--var", "min_tokens=4")
    assert result.code == 0, result.stderr
