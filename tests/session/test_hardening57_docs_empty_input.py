"""`analyze` of nothing at all: exit 2 and say so, as an empty folder already does.

docs/analyze.md pipes a session in: `ssh gpu01 cat '~/.claude/.../SESSION.jsonl' | spec-debug
analyze -`. When ssh failed (a wrong path, a host down) analyze read an empty stream, wrote a
whole postmortem of nothing ("0 events") and exited 0; an empty file did the same."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli

CODEX = Path("/work/shared/data/transcripts/codex")


def test_empty_standard_input_is_a_usage_error(tmp_path: Path) -> None:
    # a real pipe from a command that failed and printed nothing on stdout
    pipe = subprocess.run(f"cat {tmp_path / 'missing.jsonl'} 2>/dev/null | {sys.executable} -m spec_debug analyze -",
                          shell=True, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert pipe.returncode == 2, pipe.stderr
    assert "nothing to analyze: standard input was empty" in pipe.stderr
    assert "did it fail?" in pipe.stderr
    assert pipe.stdout == ""


def test_empty_file_is_a_usage_error_and_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "SESSION.jsonl"
    empty.write_bytes(b"")
    out = tmp_path / "pm.md"
    result = run_cli("analyze", str(empty), "-o", str(out))
    assert result.code == 2
    assert f"nothing to analyze: {empty} is empty" in result.stderr
    assert not out.exists()


def test_a_real_session_still_analyzes() -> None:
    sessions = sorted(CODEX.glob("rollout-*.jsonl"))
    result = run_cli("analyze", str(sessions[0]), "--json")
    assert result.code == 0, result.stderr
    assert '"commands"' in result.stdout
