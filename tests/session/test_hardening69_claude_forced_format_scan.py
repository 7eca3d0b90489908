"""A transcript format forced on a folder (``spec-debug analyze ~/.claude/projects/-w
--input-format claude-code``) was applied to every file in it. A Codex rollout beside the
Claude Code sessions was read as a Claude Code session whose every record was of an unknown
type: a session of nothing counted beside the real ones (and the reverse with ``codex``). A file
named alone with a forced format its records do not fit is refused (``_refuse_misfit``); in a
folder scan it is now passed by, as a file of no format is, and a scan that the forced format
fits nothing in says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

ROLLOUT = (Path(__file__).resolve().parent.parent / "data" / "transcripts" / "codex"
           / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl")
SESSION = "aaaa6973-0000-4000-8000-000000000001"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "-w"
    folder.mkdir()
    rollout = json.loads(ROLLOUT.read_text().splitlines()[0])  # a Codex rollout's session_meta line
    (folder / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl").write_text(
        json.dumps(rollout) + "\n" + json.dumps({"timestamp": "2026-01-02T03:04:06Z", "type": "event_msg", "payload": {
            "type": "user_message", "message": "why is gpu01 slow?"}}) + "\n")
    (folder / f"{SESSION}.jsonl").write_text(json.dumps({
        "parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": SESSION,
        "version": "2.1.30", "type": "user", "uuid": "u-0", "timestamp": "2026-01-02T03:04:05Z",
        "message": {"role": "user", "content": "why is EAGLE-3 slow on gpu01?"}}) + "\n")
    return folder


@pytest.mark.parametrize(("forced", "kept"), [
    ("claude-code", SESSION), ("codex", "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111")])
def test_a_forced_format_reads_the_files_it_fits_in_a_folder(tmp_path: Path, forced: str, kept: str) -> None:
    doc = analyze_path(_folder(tmp_path), input_format=forced).to_json()
    assert [(s["id"], s["format"], s["unknown_types"]) for s in doc["sessions"]] == [(kept, forced, 0)]


def test_a_forced_format_that_fits_nothing_in_the_folder_says_so(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    with pytest.raises(UsageError) as raised:
        analyze_path(folder, input_format="openai")
    assert raised.value.message == (f"{folder}: no transcript files found (--input-format openai fits none of its 2 "
                                    "candidate file(s))")
    assert raised.value.hint == "leave --input-format out to read each file as the format it is in"


def test_a_file_of_the_forced_format_whose_start_is_damaged_is_still_read(tmp_path: Path) -> None:
    # Nothing to tell by (no record in its head parses): read as forced, as before.
    folder = tmp_path / "-w"
    folder.mkdir()
    shutil.copy(ROLLOUT, folder / "a.jsonl")
    (folder / f"{SESSION}.jsonl").write_text('{"parentUuid": null, "sessionId": "' + SESSION + '", "type": "us\n')
    doc = analyze_path(folder, input_format="claude-code").to_json()
    assert [(s["id"], s["broken_json"]) for s in doc["sessions"]] == [(SESSION, 1)]
