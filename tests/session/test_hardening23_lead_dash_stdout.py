"""`analyze -o -` and `distill -o -` write to standard output, as `report`, `explain` and
`schema -o -` do (curl -o -, tar -f -): they wrote a file named "-" in the working folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from spec_debug.playbook import load_playbook_text
from tests.session.incident_story import write_story

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "claude-code" / "minimal_showcase"


def _spec_debug(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_analyze_dash_o_writes_the_analysis_to_stdout_and_no_file_named_dash(tmp_path):
    done = _spec_debug(tmp_path, "analyze", str(SAMPLE), "--json", "-o", "-")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "claude-code"
    assert not (tmp_path / "-").exists()
    assert "wrote" not in done.stderr  # the summary line names no file when none was written


def test_distill_dash_o_writes_a_valid_playbook_to_stdout_and_no_file_named_dash(tmp_path):
    story = write_story(tmp_path / "story")  # the incident retold: its diagnostic commands distill
    done = _spec_debug(tmp_path, "distill", str(story.session_file), "-o", "-")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "-").exists()
    load_playbook_text(done.stdout, "stdout")  # what `playbooks validate` checks
    assert yaml.safe_load(done.stdout)["steps"]
    assert "wrote standard output:" in done.stderr


@pytest.mark.parametrize("named", ["./-", "FULL"])
def test_a_file_named_dash_is_written_when_named_as_dot_slash_dash_or_by_its_full_path(tmp_path, named):
    named = str(tmp_path / "-") if named == "FULL" else named
    done = _spec_debug(tmp_path, "analyze", str(SAMPLE), "--json", "-o", named)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "-").read_text())["format"] == "claude-code"
    assert done.stdout == ""
