"""A user's report template that sends the record on as JSON (a webhook, a Slack payload):
`{{ record.findings | tojson }}` is the Jinja way to write it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """
name: tojson_story
steps:
  - id: num_steps
    run: echo --speculative-num-steps 1
    capture: [{regex: '--speculative-num-steps[ =](?P<num_steps>\\d+)', type: int}]
    expect: [{that: facts.num_steps > 1, finding: {code: SD101}}]
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("tojson")
    (folder / "p.yaml").write_text(PLAYBOOK)
    proc = _cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=folder)
    assert proc.returncode == 1, proc.stderr  # SD101 is an error finding
    return next((folder / "runs").iterdir())


def test_findings_hosts_and_the_whole_record_render_with_tojson(run_dir, tmp_path):
    template = tmp_path / "hook.j2"
    template.write_text('{"findings": {{ record.findings | tojson }}, "hosts": {{ record.hosts | tojson }},'
                        ' "sorted": {{ findings_sorted | tojson }}, "record": {{ record | tojson }}}\n')
    proc = _cli("report", str(run_dir), "--template", str(template), cwd=tmp_path)
    # Before: "report template hook.j2:1 failed: TypeError: Object of type Finding is not JSON serializable"
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert [f["code"] for f in payload["findings"]] == ["SD101"]
    assert payload["sorted"][0]["code"] == "SD101"
    assert payload["hosts"][0]["name"] == "local" and payload["hosts"][0]["status"] == "failed"
    # The whole record is what run.json holds.
    assert payload["record"] == json.loads((run_dir / "run.json").read_text())


def test_an_html_template_escapes_what_tojson_writes(run_dir, tmp_path):
    """tojson stays HTML-safe for a record model too (remote output cannot close a <script>)."""
    template = tmp_path / "page.html.j2"
    template.write_text("<script>const findings = {{ record.findings | tojson }};</script>\n")
    proc = _cli("report", str(run_dir), "--template", str(template), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "SD101" in proc.stdout and proc.stdout.count("<") == 2  # only the two script tags


def test_a_value_json_cannot_write_is_still_one_line_naming_the_template(run_dir, tmp_path):
    template = tmp_path / "bad.j2"
    template.write_text("{{ record.steps[0].status }}\n{{ cycler(1, 2) | tojson }}\n")
    proc = _cli("report", str(run_dir), "--template", str(template), cwd=tmp_path)
    assert proc.returncode == 2
    assert "bad.j2:2 failed: TypeError" in proc.stderr and "Traceback" not in proc.stderr
