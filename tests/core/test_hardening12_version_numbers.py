"""A version written unquoted in vars is not silently cut to another release.

`version: 0.10` (vLLM v0.10.0, SGLang 0.4.10's minor) and `python: 3.10` are floats to YAML, so
`pip install vllm=={{ version }}` ran `pip install vllm==0.1`: the classic trap of GitHub
Actions' `python-version: 3.10` (actions/setup-python asks for quoted versions). The number
stays allowed where it is used as a number.
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

UNQUOTED_VERSION = """\
name: pin_engine
vars:
  vllm_version: 0.10
steps:
  - id: install
    run: echo pip install vllm=={{ vllm_version }}
"""


def test_an_unquoted_version_that_yaml_reshapes_is_refused_where_it_is_written(write_playbook):
    result = run_cli("playbooks", "validate", str(write_playbook(UNQUOTED_VERSION)))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    assert ":3:17:" in result.stderr, result.stderr  # the value's line and column
    assert "0.1" in result.stderr and "'install'" in result.stderr, result.stderr
    assert 'quote it to keep it as written: "0.10"' in " ".join(result.stderr.split()), result.stderr


def test_the_quoted_version_runs_as_written(write_playbook, tmp_path):
    path = write_playbook(UNQUOTED_VERSION.replace("0.10", '"0.10"'))
    result = run_cli("run", str(path), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"] == "pip install vllm==0.10\n"


def test_a_version_used_through_another_var_is_refused_too(write_playbook):
    text = """\
name: pin_python
vars:
  python_versions: [3.10, 3.11]
  interpreter: "python{{ python_versions[0] }}"
steps:
  - id: interpreter
    run: "{{ interpreter }} --version"
"""
    result = run_cli("playbooks", "validate", str(write_playbook(text)))
    assert result.code == 2, result.stderr
    assert "var 'interpreter'" in result.stderr and "python_versions[0]" in result.stderr, result.stderr


def test_a_threshold_used_as_a_number_is_fine(write_playbook, tmp_path):
    text = """\
name: thresholds
vars:
  min_accept: 0.50
  version: 0.4
steps:
  - id: measure
    run: echo 0.62 {{ version }}
    capture:
      - regex: '^(\\S+)'
        name: accept
        type: float
    expect:
      - that: "facts.accept > min_accept"
"""
    result = run_cli("run", str(write_playbook(text)), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["steps"][0]["status"] == "passed" and record["steps"][0]["stdout"] == "0.62 0.4\n"
