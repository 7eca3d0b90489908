"""An expectation reading an attribute this attempt's stdout, stderr or exit_code lacks.

`stdout.lines[0] == 'ready'` (Ansible's stdout_lines, a JavaScript `.length`) passed
validation and failed at run time on every host: SD003 "'str object' has no attribute
'lines'", the run PASSED with "nothing was checked". Now validation refuses it at its line,
with what to write; str's own methods (`stdout.splitlines()`, `.strip()`) still run."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: attrs
steps:
  - id: serve
    run: echo ready
    expect:
      - that: {that}
"""


@pytest.mark.parametrize(("that", "message", "hint"), [
    ("stdout.lines[0] == 'ready'", "reads stdout.lines, but stdout is the text the command printed", "write stdout.splitlines()"),
    ("stderr.length == 0", "reads stderr.length, but stderr is the text the command printed", "write stderr | length"),
    ("exit_code.value == 0", "reads exit_code.value, but exit_code is the number the command exited with",
     "e.g. exit_code == 0"),
])
def test_a_missing_attribute_is_a_playbook_error_at_its_line(tmp_path, that, message, hint):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that=f'"{that}"'))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "p.yaml:6:15: step 'serve' " + message in result.stderr, result.stderr
    assert hint in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("that", ["stdout.splitlines()[0] == 'ready'", "stdout.strip() == 'ready'",
                                  "stdout.startswith('rea')", "stderr | length == 0"])
def test_str_methods_still_run(tmp_path, that):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.format(that=f'"{that}"'))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "passed", step


def test_an_earlier_steps_output_attribute_is_refused_too(tmp_path):
    # `when: steps.a.stdout.lines[0] == 'a'` failed at run time on every host, as stdout.lines did.
    playbook = ("name: t\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n"
                "    when: \"steps.a.stdout.lines[0] == 'a'\"\n    run: echo b\n")
    (tmp_path / "p.yaml").write_text(playbook)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert ("p.yaml:6:11: step 'b' reads steps.a.stdout.lines, but steps.a.stdout is the text the command printed"
            in result.stderr), result.stderr
    assert "write steps.a.stdout.splitlines()" in result.stderr


def test_an_earlier_steps_output_method_still_runs(tmp_path):
    playbook = ("name: t\nsteps:\n  - id: a\n    run: echo a\n  - id: b\n"
                "    when: \"steps.a.stdout.splitlines()[0] == 'a' and steps.a.exit_code == 0\"\n    run: echo b\n")
    (tmp_path / "p.yaml").write_text(playbook)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert [s["status"] for s in json.loads(result.stdout)["steps"]] == ["passed", "passed"]
