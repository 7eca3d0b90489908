"""Ansible's -e habits typed at `spec-debug run -e`: `-e 'model=/m draft=/d'` (Ansible reads
several KEY=VALUE in one -e) gave `model` the text "/m draft=/d" and left `draft` at its default,
unsaid; `-e @vars.yml` and `-e '{"model": "/m"}'` were told only "e.g. --var python=...". """

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """
name: paths
vars:
  model: /models/default
  draft: /models/draft
  server_cmdline: ""
steps:
  - id: show
    run: "echo {{ model }} {{ draft }}"
"""


def _run(tmp_path, write_playbook, *args):
    playbook = write_playbook(PLAYBOOK)
    return run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", *args)


def test_two_vars_in_one_e_are_refused_with_each_as_its_own_var(tmp_path, write_playbook):
    result = _run(tmp_path, write_playbook, "-e", "model=/m draft=/d")
    assert result.code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "error: --var model=/m draft=/d: one --var sets one var, and this value also assigns draft"
    assert lines[1].strip() == "hint: give each its own --var: --var model=/m --var draft=/d (quote a value that has spaces: --var 'model=a b')"
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_command_line_value_with_its_own_options_is_kept(tmp_path, write_playbook):
    cmdline = "python -m sglang.launch_server --model-path=/m --speculative-num-steps=3"
    result = _run(tmp_path, write_playbook, "--var", f"server_cmdline={cmdline}")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["vars"]["server_cmdline"] == cmdline


@pytest.mark.parametrize("given, hint", [
    ("@vars.yml", "a file of vars is --var-file vars.yml (Ansible's -e @FILE)"),
    ('{"model": "/m"}', "write each var as --var KEY=VALUE, or put them in a YAML file: --var-file FILE"),
])
def test_ansible_forms_of_e_name_the_option_that_reads_them(tmp_path, write_playbook, given, hint):
    result = _run(tmp_path, write_playbook, "-e", given)
    assert result.code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == f"error: --var {given!r} is not KEY=VALUE"
    assert lines[1].strip() == f"hint: {hint}"
