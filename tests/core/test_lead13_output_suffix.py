"""`-o FILE` without `--format` writes what FILE's suffix names (report, explain, analyze).

Before, `spec-debug report RUN -o incident.html` wrote Markdown into incident.html (a browser
shows one long line of text), and so did `explain ... -o walk.html` and `analyze ... -o pm.html`.
An explicit --format (or --json) still wins over the suffix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spec_debug.cli import app
from tests.conftest import run_cli

PLAYBOOK = """\
name: small
steps:
  - id: hello
    run: echo hello
"""
SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "claude-code" / "representative_messages.jsonl"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("suffix")
    (folder / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(folder / "p.yaml"), "--host", "local", "--out", str(folder / "runs"))
    assert result.code == 0, result.stderr
    return next((folder / "runs").iterdir())


def invoke(*args: str) -> None:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output


def kind_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8").lstrip()
    if text.startswith("<!DOCTYPE html>"):
        return "html"
    try:
        json.loads(text)
        return "json"
    except ValueError:
        return "md"


@pytest.mark.parametrize("name, expected", [("r.html", "html"), ("r.HTM", "html"), ("r.json", "json"),
                                            ("r.md", "md"), ("report.txt", "md")])
def test_report_writes_what_the_suffix_names(run_folder, tmp_path, name, expected):
    invoke("report", str(run_folder), "-o", str(tmp_path / name))
    assert kind_of(tmp_path / name) == expected


def test_an_explicit_format_wins_over_the_suffix(run_folder, tmp_path):
    invoke("report", str(run_folder), "--format", "md", "-o", str(tmp_path / "r.html"))
    assert kind_of(tmp_path / "r.html") == "md"
    invoke("report", str(run_folder), "--json", "-o", str(tmp_path / "r2.html"))
    assert kind_of(tmp_path / "r2.html") == "json"


def test_explain_writes_html_for_an_html_file(tmp_path):
    invoke("explain", "perf_regression", "-o", str(tmp_path / "walk.html"))
    assert kind_of(tmp_path / "walk.html") == "html"


@pytest.mark.parametrize("name, expected", [("pm.html", "html"), ("analysis.json", "json"), ("pm.md", "md")])
def test_analyze_writes_what_the_suffix_names(tmp_path, name, expected):
    invoke("analyze", str(SESSION), "-o", str(tmp_path / name))
    assert kind_of(tmp_path / name) == expected
