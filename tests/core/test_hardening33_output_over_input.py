"""-o naming the file the command reads replaced it: `report RUN -o RUN/run.json --format md`
wrote Markdown over the run record (then `report` said "run.json is not valid JSON"), and
`analyze s.jsonl -o s.jsonl` / `distill s.jsonl -o s.jsonl` wrote over the transcript. Each is
refused with one line before anything is written; the input is left byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

SESSION = Path(__file__).resolve().parents[1] / "data" / "transcripts" / "claude-code" / "representative_messages.jsonl"


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    result = run_cli("demo", "--out", str(out))
    assert result.code in (0, 1), result.stderr
    (folder,) = [p for p in out.iterdir() if (p / "run.json").is_file()]
    return folder


@pytest.mark.parametrize("named", ["folder", "record", "bare_id"])
def test_report_over_its_own_run_record_is_refused(run_folder: Path, tmp_path: Path, named: str) -> None:
    copy = tmp_path / "runs" / run_folder.name
    shutil.copytree(run_folder, copy)
    before = (copy / "run.json").read_bytes()
    given = {"folder": str(copy), "record": str(copy / "run.json"), "bare_id": copy.name}[named]
    result = run_cli("report", given, "-o", str(copy / "run.json"), "--format", "md", cwd=tmp_path)
    assert result.code == 2, result.stderr
    assert "the run record being read" in result.stderr and "Traceback" not in result.stderr
    assert (copy / "run.json").read_bytes() == before
    json.loads(before)  # still the record
    # writing beside it still works
    ok = run_cli("report", given, "-o", str(copy / "again.md"), cwd=tmp_path)
    assert ok.code == 0, ok.stderr
    assert (copy / "again.md").read_text().strip()


@pytest.mark.parametrize("command", ["analyze", "distill"])
def test_analyze_and_distill_over_the_transcript_are_refused(tmp_path: Path, command: str) -> None:
    session = tmp_path / "s.jsonl"
    shutil.copy(SESSION, session)
    before = session.read_bytes()
    result = run_cli(command, str(session), "-o", str(session))
    assert result.code == 2, result.stderr
    assert "the transcript being read" in result.stderr and "Traceback" not in result.stderr
    assert session.read_bytes() == before
    # through another name for the same file (a symlink), too
    link = tmp_path / "link.jsonl"
    link.symlink_to(session)
    assert run_cli(command, str(session), "-o", str(link)).code == 2
    assert session.read_bytes() == before
