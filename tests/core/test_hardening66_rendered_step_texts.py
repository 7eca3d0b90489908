"""A step's title and why, and an expectation's description, are rendered for the host.

`title: "Server on {{ host }} answers on {{ port }}"` showed its braces in the console and run.json, and a failed expectation's finding read "expected port {{ port }} answers",
while a finding's own title and the command were rendered."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """\
name: texts_check
vars:
  port: 30000
  hf_token: hf_abcdefghijklmnopqrstuvwxyz012345
steps:
  - id: answers
    title: "Server on {{ host }} answers on {{ port }}"
    why: "Port {{ port }} is where the engine listens"
    run: "echo closed"
    expect:
      - contains: "open"
        description: "port {{ port }} answers"
  - id: literal
    title: "Needs {{ not_a_var }} here"
    run: "echo ok"
  - id: secret
    title: "token {{ hf_token }}"
    run: "echo ok"
"""


def test_titles_whys_and_descriptions_are_rendered_per_host(tmp_path: Path) -> None:
    playbook = tmp_path / "texts_check.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json",
                     "--var", "port=8000")
    record = json.loads(result.stdout)
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["answers"]["title"] == "Server on local answers on 8000"
    # an undefined name leaves the label as written (the command is what would fail on it)
    assert steps["literal"]["title"] == "Needs {{ not_a_var }} here"
    # a secret var rendered into a title is masked like the rest of the record
    assert "hf_abcdefghijklmnopqrstuvwxyz012345" not in steps["secret"]["title"]
    failed = [f for f in record["findings"] if f["step"] == "answers"]
    assert failed and all("{{" not in f["title"] for f in failed)
    assert any("port 8000 answers" in f["title"] for f in failed), [f["title"] for f in failed]
    report = next((tmp_path / "runs").glob("*/report.md")).read_text()
    assert "expected port 8000 answers" in report and "{{ port }}" not in report
