"""`-e "model='/models/Qwen 7B'"`, how Ansible users give a value with spaces: Ansible reads the
value without the quotes around it (ansible/ansible: lib/ansible/parsing/splitter.py, parse_kv;
lib/ansible/parsing/quoting.py, unquote). Here the quote marks stayed in the value, and the
command on the host got a path that begins and ends with a quote: `ls: cannot access
"'/models/Qwen 7B'": No such file or directory`. They are now taken off, by the same rule; a value with a quote of its own
(`it's`), or one unclosed, is kept as typed."""

from __future__ import annotations

import json

import pytest

from tests.conftest import only_run, run_cli

PLAYBOOK = """
name: quoted
vars:
  model: /models/default
  n: 1
steps:
  - id: show
    run: ls -d {{ model }} && echo "n={{ n }}"
"""


def _run(tmp_path, write_playbook, *args):
    playbook = write_playbook(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *args)
    return result, only_run(out)[1] if out.exists() else None


@pytest.mark.parametrize("quote", ["'", '"'])
def test_a_value_in_quotes_reaches_the_command_without_them(tmp_path, write_playbook, quote):
    model = tmp_path / "Qwen 7B"
    model.mkdir()
    result, record = _run(tmp_path, write_playbook, "-e", f"model={quote}{model}{quote}", "-e", f"n={quote}3{quote}")
    assert result.code == 0, result.stderr
    [step] = record["steps"]
    assert step["stdout"] == f"{model}\nn=3\n"
    assert record["vars"]["model"] == str(model) and record["vars"]["n"] == 3


@pytest.mark.parametrize(("given", "kept"), [("it's", "it's"), ("'open", "'open"), ("'a'b", "'a'b"), ("'", "'")])
def test_a_value_with_quotes_of_its_own_is_kept(tmp_path, write_playbook, given, kept):
    result, record = _run(tmp_path, write_playbook, "-e", f"model={given}")
    assert record["vars"]["model"] == kept, result.stderr
