"""A format that only its own files fit (grok, opencode, pi, copilot, ...), forced on a folder scan:
the folder's files of other formats are passed by, not read as empty sessions of the forced
format (``--input-format grok ~/sessions`` gave one empty "grok" session per Claude Code file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover
from tests.session import test_hardening21_formats_grok as grok

SHARED = Path(__file__).resolve().parents[1] / "data" / "transcripts"


def _folder_with_grok_and_claude(root: Path) -> Path:
    grok._session(root)
    shutil.copy(SHARED / "claude-code" / "representative_messages.jsonl", root / "claude.jsonl")
    return root


def test_a_forced_grok_scan_reads_the_grok_session_alone(tmp_path):
    folder = _folder_with_grok_and_claude(tmp_path / "mixed")
    sources = discover(folder, "grok")
    assert [s.format for s in sources] == ["grok"]
    assert {s.format for s in discover(folder)} == {"grok", "claude-code"}
    doc = analyze_path(folder, "grok").to_json()
    assert [s["format"] for s in doc["sessions"]] == ["grok"] and doc["commands"]


def test_a_forced_scan_that_fits_no_file_is_one_usage_error(tmp_path):
    folder = tmp_path / "claude-only"
    folder.mkdir()
    shutil.copy(SHARED / "claude-code" / "representative_messages.jsonl", folder / "a.jsonl")
    with pytest.raises(UsageError, match="no transcript files found"):
        discover(folder, "opencode")
