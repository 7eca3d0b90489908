"""A compressed session in a scanned folder whose start does not decompress (a copy cut inside its
first block: an rsync of ~/.codex stopped half way, Codex zstd-compresses idle rollouts) is kept as
a session of no events with its damage reported, as when it is named. Before, the scan passed it by
without a word: the report counted one session less and no damaged file."""

from __future__ import annotations

import gzip
import json

from spec_debug.session import analyze_path


def test_a_cut_compressed_session_in_a_scan_is_reported_damaged(tmp_path):
    line = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2026-06-15T10:00:00.000Z",
            "message": {"role": "user", "content": "check the drafter"}}
    (tmp_path / "good.jsonl").write_text(json.dumps(line) + "\n")
    (tmp_path / "cut.jsonl.gz").write_bytes(gzip.compress((json.dumps(line) + "\n").encode() * 50)[:20])
    doc = analyze_path(tmp_path).to_json()
    sessions = {s["id"]: s for s in doc["sessions"]}
    assert set(sessions) == {"good", "cut"}
    assert sessions["cut"]["events"] == 0 and sessions["cut"]["damaged_files"] == 1
    assert "cut.jsonl.gz: the gzip stream is cut short or corrupt" in sessions["cut"]["damaged"][0]
    assert doc["stats"]["damaged_files"] == 1
