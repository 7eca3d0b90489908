"""A var whose default uses another var, as Ansible taught: `draft_dir: "{{ model_dir }}/eagle3"`.

Before, the value went into the command as the literal text `{{ model_dir }}/eagle3`: the step
looked for a folder of that name, failed, and the report blamed a missing checkpoint. A typo
in such a default (`{{ modle_dir }}`) passed `validate` too.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from spec_debug.cli import app
from tests.conftest import run_cli


def validate(path) -> tuple[int, str]:
    """`spec-debug playbooks validate PATH` in this process (the real CLI app; a subprocess per
    broken file would cost a second each): exit code and the message on one line."""
    result = CliRunner().invoke(app, ["playbooks", "validate", str(path)], env={"COLUMNS": "2000"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())

PLAYBOOK = """\
name: draft_config
vars:
  model_dir: /models/Meta-Llama-3.1-8B-Instruct
  draft_dir: "{{ model_dir }}/eagle3"
  config: "{{ vars.draft_dir }}/config.json"
  note: ""
steps:
  - id: draft_config
    run: cat "{{ config }}"; echo "note={{ note }}"
    expect:
      - contains: '"draft_vocab_size": 32000'
"""


def test_a_var_default_that_uses_other_vars_follows_the_command_line(tmp_path, write_playbook):
    model_dir = tmp_path / "my model"  # a space: the rendered value is still quoted as one word
    (model_dir / "eagle3").mkdir(parents=True)
    (model_dir / "eagle3" / "config.json").write_text('{"draft_vocab_size": 32000}\n')
    playbook = write_playbook(PLAYBOOK)

    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json",
                     "--var", f"model_dir={model_dir}", "--var", "note={{ typed by the user }}")

    assert result.code == 0, result.stderr
    step = json.loads(result.stdout)["steps"][0]
    assert step["command"] == f'cat "{model_dir}/eagle3/config.json"; echo "note={{{{ typed by the user }}}}"'
    assert step["stdout"] == '{"draft_vocab_size": 32000}\nnote={{ typed by the user }}\n'
    assert step["status"] == "passed"


def test_var_defaults_that_cannot_render_are_refused_where_they_are_written(tmp_path, write_playbook):
    cases = {
        # a typo in the name of the var it uses
        'model_dir: /models/llama\n  draft_dir: "{{ modle_dir }}/eagle3"':
            (":4:14: undefined variable 'modle_dir' in var 'draft_dir'", "did you mean 'model_dir'?"),
        # two defaults that wait on each other
        'a: "{{ b }}/x"\n  b: "{{ a }}/y"': (":3:6: vars refer to each other in a circle: a -> b -> a", "plain value"),
        # facts exist only once a step has run
        'port: "{{ facts.port }}"': (":3:9: var 'port' uses 'facts'", "in the step's run:"),
        # docker's Go template is not Jinja
        "fmt: '{{.State.Status}}'": (":3:9: template syntax error in var 'fmt'", "{% raw %}"),
    }
    for index, (vars_text, (where, hint)) in enumerate(cases.items()):
        playbook = write_playbook(f"name: p\nvars:\n  {vars_text}\nsteps:\n  - id: s\n    run: echo hi\n", f"p{index}.yaml")
        code, message = validate(playbook)
        assert code == 2, (vars_text, message)
        assert f"{playbook.name}{where}" in message and hint in message, (vars_text, message)


def test_a_command_line_value_a_default_cannot_use_is_a_usage_error_before_any_step(tmp_path, write_playbook):
    playbook = write_playbook("""\
name: ports
vars:
  port: 30000
  metrics_port: "{{ port + 1 }}"
steps:
  - id: metrics
    run: echo {{ metrics_port }}
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0 and json.loads(result.stdout)["steps"][0]["stdout"] == "30001\n"

    bad = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "bad"), "--var", "port=auto")
    assert bad.code == 2 and "Traceback" not in bad.stderr
    # refused as the number var it is (hardening44), before the default that uses it renders
    assert "--var port=auto: port is a number in the playbook (default 30000)" in bad.stderr
    assert not (tmp_path / "bad").exists() or not any((tmp_path / "bad").iterdir())


def test_a_long_chain_of_vars_using_vars_resolves_without_a_traceback(tmp_path, write_playbook):
    # A generated playbook (one var per layer, each built on the next) went past Python's
    # recursion limit: validate and run ended in a RecursionError traceback.
    chain = "".join(f'  v{i}: "{{{{ v{i + 1} }}}}"\n' for i in range(1500))
    playbook = write_playbook(f"name: chain\nvars:\n{chain}  v1500: /data/end\nsteps:\n  - id: s\n    run: echo {{{{ v0 }}}}\n")
    assert validate(playbook) == (0, f"ok {playbook} (1 step)")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "/data/end\n"
