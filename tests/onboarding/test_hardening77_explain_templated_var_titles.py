"""A var whose default is a template over other vars (`url: "http://localhost:{{ port }}"`,
docs/playbooks.md: rendered over the others before the run, as Ansible's vars are) left its
Jinja in every title that used it: `spec-debug explain` read "## 1. GET
http://localhost:{{ port }}" where `run` says "GET http://localhost:30000". Titles, whys,
expectation descriptions and finding titles now read such a var as the run resolves it (an
empty var and the host as their names in capitals); the vars table still shows the default as
written."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: served
vars:
  port: 30000
  model: ""
  url: "http://{{ host }}:{{ vars.port }}/v1"
  health: "{{ url }}/health"
  model_dir: "{{ model }}/draft"
steps:
  - id: health
    title: "GET {{ health }}"
    why: "The draft in {{ model_dir }} is served at {{ url }}."
    run: curl -sf {{ health }}
    expect:
      - exit_code: 0
        description: "{{ health }} answers"
        finding: {code: SD900, severity: error, title: "No answer from {{ url }}"}
"""


def test_explain_reads_templated_vars_as_the_run_resolves_them(tmp_path):
    path = tmp_path / "served.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "## 1. GET http://HOST:30000/v1/health (`health`)" in lines, result.stdout
    assert "**Why it matters.** The draft in MODEL/draft is served at http://HOST:30000/v1." in lines, result.stdout
    assert "**Healthy:** http://HOST:30000/v1/health answers." in lines, result.stdout
    assert "**Failing:** SD900 (error): No answer from http://HOST:30000/v1." in lines, result.stdout
    # the table keeps the defaults as written: that is what --var overrides
    assert "| `url` | `http://{{ host }}:{{ vars.port }}/v1` |  |" in lines, result.stdout


def test_explain_json_keeps_vars_as_written(tmp_path):
    path = tmp_path / "served.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["vars"]["health"] == "{{ url }}/health"
    assert document["steps"][0]["title"] == "GET http://HOST:30000/v1/health"
