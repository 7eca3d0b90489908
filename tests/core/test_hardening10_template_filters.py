"""A filter or test that does not exist is a playbook error when the playbook loads.

People who write playbooks come from Ansible, whose templates have `| quote`, `| to_json`,
`| regex_replace`, `is succeeded`; plain Jinja has none of them, and a typo (`| lowr`) is as
common. Jinja's parser accepts any filter name and only compiling refuses it, so `playbooks
validate` said "ok" and the step then failed mid-incident with SD003 (and a var using one failed
the run without a file position).
"""

from __future__ import annotations

from tests.conftest import run_cli


def validate(path) -> tuple[int, str]:
    result = run_cli("playbooks", "validate", str(path))
    assert "Traceback" not in result.stderr + result.stdout
    return result.code, " ".join((result.stdout + result.stderr).split())


PLAYBOOK = """\
name: filters
description: templates with filters
vars:
  model_dir: /models/llama
  draft_dir: "{{{{ model_dir | {var_filter} }}}}/eagle3"
steps:
  - id: config
    run: |
      echo start
      cat {{{{ draft_dir | {run_filter} }}}}/config.json
    when: model_dir {when_test}
    expect:
      - exit_code: 0
"""


def test_an_ansible_filter_in_a_step_command_is_named_with_its_line_and_column(write_playbook):
    playbook = write_playbook(PLAYBOOK.format(var_filter="trim", run_filter="quote", when_test="is defined"))
    code, message = validate(playbook)
    assert code == 2, message
    # Line 10 is `cat {{ draft_dir | quote }}...`, inside the block scalar.
    assert ":10:" in message and "No filter named 'quote'" in message, message
    assert "shell_quote" in message  # the filter that does what Ansible's quote does


def test_a_misspelt_filter_in_a_var_is_a_playbook_error_not_a_failed_run(write_playbook, tmp_path):
    playbook = write_playbook(PLAYBOOK.format(var_filter="trimm", run_filter="raw", when_test="is defined"))
    code, message = validate(playbook)
    assert code == 2 and ":5:" in message and "No filter named 'trimm'" in message and "'trim'" in message, message
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert ran.code == 2 and "Traceback" not in ran.stderr, ran.stderr
    assert "No filter named 'trimm'" in ran.stderr


def test_an_unknown_test_in_when_is_refused(write_playbook):
    playbook = write_playbook(PLAYBOOK.format(var_filter="trim", run_filter="raw", when_test="is succeeded"))
    code, message = validate(playbook)
    assert code == 2 and ":11:" in message and "No test named 'succeeded'" in message, message


def test_jinja_filters_and_ours_still_validate(write_playbook):
    playbook = write_playbook(PLAYBOOK.format(var_filter="trim | lower", run_filter="shell_quote",
                                              when_test="is string"))
    code, message = validate(playbook)
    assert code == 0, message
