"""A step's `title` and `why` are templates, rendered for each host when the step runs
(docs/playbooks.md), but `spec-debug explain` printed them as written: the walkthrough's heading
read "## 1. Server on {{ host }} answers on {{ port }} (`serve`)", Jinja to a newcomer, where a
finding title in the same walkthrough already read "... on HOST" (readable_title). The step's
title and why now read as finding titles do: a var its default, anything else its name in
capitals; `run --step` still shows them rendered for the host."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: served
vars:
  port: 30000
  model: ""
steps:
  - id: serve
    title: Server on {{ host }} answers on {{ port }}
    why: A server that does not answer on {{ port }} serves {{ model }} to nobody.
    run: curl -s localhost:{{ port }}/health
  - id: plain
    run: echo ok
"""


def test_explain_heading_and_why_read_without_jinja(tmp_path):
    path = tmp_path / "served.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "## 1. Server on HOST answers on 30000 (`serve`)" in lines, result.stdout
    assert "## 2. plain (`plain`)" in lines
    shown = result.stdout.replace("curl -s localhost:{{ port }}/health", "").replace("(`{{ var }}` is filled in", "")
    assert "{{" not in shown, result.stdout  # the command itself is shown as written, as before
    assert "A server that does not answer on 30000 serves MODEL to nobody." in result.stdout

    data = json.loads(run_cli("explain", str(path), "--json", cwd=tmp_path).stdout)
    assert [(s["title"], s["why"]) for s in data["steps"]] == [
        ("Server on HOST answers on 30000", "A server that does not answer on 30000 serves MODEL to nobody."),
        ("plain", "")]


def test_an_expectations_description_reads_the_same_way(tmp_path):
    """An expectation's `description:` is a template too: "**Healthy:** port {{ port }} answers"."""
    path = tmp_path / "desc.yaml"
    path.write_text("name: desc\nvars:\n  port: 30000\nsteps:\n  - id: serve\n    run: echo ok\n"
                    "    expect:\n      - contains: ok\n        description: the server on {{ host }} answers on {{ port }}\n")
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert "**Healthy:** the server on HOST answers on 30000." in result.stdout, result.stdout
