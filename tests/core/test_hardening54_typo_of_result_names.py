"""A typo of a name an expectation reads (`exit_cod`, `stdot`, `fact.x`) or Ansible's `rc`.

Validation compared the unknown name with the playbook's vars only, not with the names an
`expect: that:` reads besides them (exit_code, stdout, stderr, facts, steps, host), so the
hint fell to the "text compared with something" one: `exit_cod == 0` was told "quote it:
'exit_cod' == 0", `rc == 0` (Ansible's registered rc) "quote it: 'rc' == 0" - advice that
makes the check false on every host. Now the hint names the name meant."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: typos
vars:
  model: llama
steps:
  - id: serve
    run: echo ready
    expect:
      - that: {that}
"""


@pytest.mark.parametrize(("that", "meant"), [
    ("exit_cod == 0", "did you mean 'exit_code'?"),
    ("stdot == 'ready'", "did you mean 'stdout'?"),
    ("'ready' in stdot", "did you mean 'stdout'?"),
    ("fact.ready == 1", "did you mean 'facts'?"),
    ("rc == 0", "write exit_code"),
    ("output is defined", "write stdout"),
])
def test_a_typo_of_a_result_name_is_named_not_quoted(tmp_path, that, meant):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that=f'"{that}"'))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "p.yaml:8:15: undefined variable" in result.stderr, result.stderr
    assert meant in result.stderr, result.stderr
    assert "quote it" not in result.stderr


def test_a_word_compared_with_a_fact_is_still_text_to_quote(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that='"facts.engine == sglang"'))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert "quote it: facts.engine == 'sglang'" in result.stderr, result.stderr


def test_rc_in_a_command_is_not_sent_to_exit_code(tmp_path):
    # exit_code is not known before the command runs: the rc hint is for until:/that: only.
    playbook = "name: t\nvars:\n  rcx: a\nsteps:\n  - id: s\n    run: echo {{ rc }}\n"
    (tmp_path / "p.yaml").write_text(playbook)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert "undefined variable 'rc'" in result.stderr, result.stderr
    assert "write exit_code" not in result.stderr


def test_ansible_stdout_lines_is_sent_to_splitlines_not_to_stdout(tmp_path):
    # "did you mean 'stdout'?" led to stdout[0]: the first character, not the first line.
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that="\"stdout_lines[0] == 'ready'\""))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert "undefined variable 'stdout_lines'" in result.stderr, result.stderr
    assert "write stdout.splitlines()[0] for the first" in result.stderr, result.stderr
    assert "did you mean" not in result.stderr


def test_rc_in_when_is_sent_to_the_earlier_steps_exit_code(tmp_path):
    # "quote it: 'rc' == 0" made the gate false on every host: the step was skipped everywhere.
    playbook = "name: t\nsteps:\n  - id: a\n    run: 'true'\n  - id: b\n    when: rc == 0\n    run: echo b\n"
    (tmp_path / "p.yaml").write_text(playbook)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert "p.yaml:6:11: undefined variable 'rc'" in result.stderr, result.stderr
    assert "steps.STEP_ID.exit_code" in result.stderr, result.stderr
    assert "quote it" not in result.stderr
