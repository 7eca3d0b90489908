"""A step title with a filter or a condition in its braces (`restart on {{ port | default(8000)
}}`) was shown by `spec-debug explain` as written, Jinja to a newcomer, though a plain `{{ port
}}` beside it read 30000: only bare names were filled in. Each expression is now rendered as
the runner renders it, with the vars' defaults (a var left empty, the host and a fact read as
their names in capitals, through any filter, `default` too: the run gives them); one that cannot
be known before the run (a comparison with a fact) stays as written."""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """\
name: restart
vars:
  port: 30000
  engine: {name: sglang, tp: 8}
  model: ""
steps:
  - id: restart
    title: "restart on {{ port | default(8000) }}"
    why: "Check {{ model | default('the model') }} ({{ draft | default('no draft') }}) on {{ host }} at {{ port|int }} ({{ 'tp' if engine.tp > 1 else 'single' }})"
    run: echo {{ port }}
  - id: accept
    title: "{{ engine.name | upper }} on {{ host | default('localhost') }}, {{ facts.accept | default('?') }}"
    run: echo ok
    expect:
      - that: exit_code == 0
        description: "exits {{ steps.restart.exit_code | int }} on {{ vars.port }}"
        finding:
          code: SD900
          severity: warning
          title: "accept {{ facts.accept | round(2) }} below {{ engine.tp }}; {{ 'low' if facts.accept < 2 else 'ok' }}"
"""


def test_explain_renders_filters_and_conditions_with_the_defaults(tmp_path):
    path = tmp_path / "restart.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "## 1. restart on 30000 (`restart`)" in lines, result.stdout
    assert "**Why it matters.** Check MODEL (no draft) on HOST at 30000 (tp)" in lines, result.stdout
    assert "## 2. SGLANG on HOST, ACCEPT (`accept`)" in lines, result.stdout
    assert "**Healthy:** exits EXIT_CODE on 30000." in lines, result.stdout
    # a fact's comparison cannot be known before the run: kept as written, the rest filled in
    assert ("**Failing:** SD900 (warning): accept ACCEPT below 8; {{ 'low' if facts.accept < 2 else 'ok' }}."
            in lines), result.stdout


def test_explain_json_step_title_rendered(tmp_path):
    import json

    path = tmp_path / "restart.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert [s["title"] for s in steps] == ["restart on 30000", "SGLANG on HOST, ACCEPT"]


BLOCKS = """\
name: blocks
vars:
  tp: 8
steps:
  - id: a
    title: "Container {% raw %}{{.State.Status}}{% endraw %} on {{ host }}"
    why: "{% if tp > 1 %}Tensor parallel over {{ tp }} GPUs{% else %}One GPU{% endif %}"
    run: echo a
  - id: b
    title: "Served layers{# SD201 checks these #} on {{ host }}"
    run: echo b
"""


def test_blocks_and_comments_read_as_the_run_shows_them(tmp_path):
    path = tmp_path / "blocks.yaml"
    path.write_text(BLOCKS)
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "## 1. Container {{.State.Status}} on HOST (`a`)" in lines, result.stdout
    assert "**Why it matters.** Tensor parallel over 8 GPUs" in lines, result.stdout
    assert "## 2. Served layers on HOST (`b`)" in lines, result.stdout  # a {# comment #} is the author's
