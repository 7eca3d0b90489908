"""`spec-debug analyze -`: a transcript piped in (`ssh gpu01 cat session.jsonl | ...`)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.session.incident_story import write_story

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts"
CLAUDE = DATA / "claude-code" / "representative_messages.jsonl"
CODEX = next((DATA / "codex").glob("rollout-*.jsonl"))


def _spec_debug(*args: str, stdin: bytes | None = None, tmp: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "TMPDIR": str(tmp)}
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], input=stdin, capture_output=True,
                          timeout=120, env=env)


def _as_file(path: Path, tmp: Path) -> dict:
    result = _spec_debug("analyze", str(path), "--json", tmp=tmp)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _without_names(doc: dict) -> object:
    """The analysis with the session's id and file name blanked (piped: "stdin" and "-")."""
    names = {doc["sessions"][0]["id"]: "ID", doc["sessions"][0]["file"]: "FILE"}

    def walk(value: object) -> object:
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value

    return walk(doc)


def test_a_piped_session_analyzes_as_the_file_does_and_leaves_nothing_behind(tmp_path):
    for source in (CLAUDE, CODEX):
        result = _spec_debug("analyze", "-", "--json", stdin=source.read_bytes(), tmp=tmp_path)
        assert result.returncode == 0, result.stderr
        piped = json.loads(result.stdout)
        assert piped["sessions"][0]["file"] == "-"
        assert piped["stats"]["events"] > 0
        assert _without_names(piped) == _without_names(_as_file(source, tmp_path))
    assert list(tmp_path.iterdir()) == []  # the spooled copy is removed


def test_a_compressed_stream_and_dev_stdin_as_a_pipe(tmp_path):
    expected = _as_file(CLAUDE, tmp_path)["stats"]["events"]
    zipped = _spec_debug("analyze", "-", "--json", stdin=gzip.compress(CLAUDE.read_bytes()), tmp=tmp_path)
    assert zipped.returncode == 0, zipped.stderr
    assert json.loads(zipped.stdout)["stats"]["events"] == expected
    named = _spec_debug("analyze", "/dev/stdin", "--json", stdin=CLAUDE.read_bytes(), tmp=tmp_path)
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["sessions"][0]["file"] == "-"


def test_distill_reads_a_pipe_too(tmp_path):
    story = write_story(tmp_path / "story")
    out = tmp_path / "out" / "playbook.yaml"
    out.parent.mkdir()
    result = _spec_debug("distill", "-", "-o", str(out), stdin=story.session_file.read_bytes(), tmp=tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "sglang_server.log" in out.read_text()
    check = _spec_debug("playbooks", "validate", str(out), tmp=tmp_path / "out")
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_terminal_on_stdin_is_a_usage_error_not_a_hang(tmp_path):
    import pty

    primary, secondary = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", "-"], stdin=secondary,
                              capture_output=True, text=True, timeout=60, env={**os.environ, "TMPDIR": str(tmp_path)})
    finally:
        os.close(secondary)
        os.close(primary)
    assert proc.returncode == 2
    assert "no transcript on standard input (it is a terminal)" in proc.stderr
    assert "cat session.jsonl | spec-debug analyze -" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_every_detected_format_can_be_forced_from_the_command_line(tmp_path):
    # The option used to be a fixed choice of five names: --input-format openhands was refused
    # by the CLI although the reader exists.
    trajectory = Path(__file__).parent / "data_h8" / "formats" / "openhands_trajectory.json"
    auto = _as_file(trajectory, tmp_path)
    forced = _spec_debug("analyze", str(trajectory), "--input-format", "OpenHands", "--json", tmp=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert json.loads(forced.stdout)["stats"]["events"] == auto["stats"]["events"] > 0
    wrong = _spec_debug("analyze", str(trajectory), "--input-format", "bard", tmp=tmp_path)
    assert wrong.returncode == 2
    assert b"unknown input format 'bard'" in wrong.stderr and b"openhands" in wrong.stderr
    assert b"Traceback" not in wrong.stderr
    # a known format that is not this file's: refused, not an empty session
    misfit = _spec_debug("analyze", str(trajectory), "--input-format", "gemini", tmp=tmp_path)
    assert misfit.returncode == 2
    assert b"not a Gemini CLI session (it reads as openhands)" in misfit.stderr


def test_a_full_temporary_folder_is_one_clear_error(tmp_path):
    # /tmp is often a small tmpfs; a large transcript piped in fills it.
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tiny)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root in a namespace that allows it)")
    try:
        big = CLAUDE.read_bytes() * 40  # ~1 MB
        result = _spec_debug("analyze", "-", stdin=big, tmp=tiny)
        assert result.returncode == 2
        assert b"cannot save standard input to " in result.stderr and b"No space left on device" in result.stderr
        assert b"TMPDIR" in result.stderr and b"Traceback" not in result.stderr
        assert list(tiny.iterdir()) == []  # the partial copy is removed
    finally:
        subprocess.run(["umount", str(tiny)], capture_output=True)
