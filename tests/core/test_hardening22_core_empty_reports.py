"""Reports of runs in which no step ran: every host unreachable, or quit at the first
step-through prompt. Steps, Timeline and each host's Facts were tables of headers alone, which
said nothing of why; they now say that no step ran, and why where the record knows it.
Markdown is read with markdown-it-py (CommonMark + GFM tables), as GitHub renders it.

Also: a playbook name with accents (`Prüfung GPU`) was suggested as `Pr_fung_GPU`."""

from __future__ import annotations

import os
import subprocess
import sys

from markdown_it import MarkdownIt

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    run: echo hello
"""


def _cli(cwd, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          input=stdin, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def _empty_tables(markdown: str) -> int:
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    opened = [i for i, t in enumerate(tokens) if t.type == "table_open"]
    return sum(1 for i in opened if next(t.type for t in tokens[i:] if t.type in ("tbody_open", "table_close")) == "table_close")


def _reports(tmp_path):
    (run_dir,) = (tmp_path / "runs").iterdir()
    return (run_dir / "report.md").read_text(), (run_dir / "report.html").read_text()


def test_all_hosts_unreachable_says_no_step_ran_and_why(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "root@127.0.0.1:1", "--host", "root@127.0.0.1:2", "--batch")
    assert proc.returncode == 3, proc.stderr
    markdown, html = _reports(tmp_path)
    assert "No step ran: no host could be reached (see Findings)." in markdown
    assert "<p>No step ran: no host could be reached (see Findings).</p>" in html
    assert "`root@127.0.0.1:1`: no facts captured." in markdown
    assert _empty_tables(markdown) == 0, markdown


def test_quit_at_the_first_prompt_says_the_run_stopped_first(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "--step", stdin="q\n")
    assert proc.returncode == 3, proc.stderr
    markdown, html = _reports(tmp_path)
    assert "No step ran: the run stopped before its first step." in markdown
    assert "the run stopped before its first step.</p>" in html and "<p>No step ran.</p>" in html
    assert _empty_tables(markdown) == 0, markdown


def test_a_run_with_steps_keeps_its_tables(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    markdown, _ = _reports(tmp_path)
    assert "| `local` | hello | passed | 0 |" in markdown and "No step ran" not in markdown


def test_an_accented_playbook_name_is_suggested_without_its_accents(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK.replace("name: simple", "name: Prüfung GPU Ünïcode"))
    proc = _cli(tmp_path, "playbooks", "validate", "p.yaml")
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 2 and "name: Prufung_GPU_Unicode" in said, said
