"""A cut compressed transcript: `analyze` keeps what was before the damage and says, in its
summary line and in the JSON totals, that a file was cut short."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys


def test_a_cut_gzip_session_is_counted_in_the_totals_and_the_summary_line(tmp_path):
    lines = "".join(json.dumps({"type": "user", "uuid": str(i), "timestamp": "2026-01-01T00:00:00Z",
                                "message": {"role": "user", "content": f"check gpu{i % 4:02d}"}}) + "\n"
                    for i in range(2000))
    packed = gzip.compress(lines.encode())
    cut = tmp_path / "session.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])  # a copy interrupted half-way
    out = tmp_path / "a.json"
    done = subprocess.run([sys.executable, "-m", "spec_debug", "analyze", str(cut), "--format", "json", "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text())
    assert doc["stats"]["damaged_files"] == 1
    assert 0 < doc["stats"]["events"] < 2000
    assert doc["sessions"][0]["damaged"][0].startswith("session.jsonl.gz: the gzip stream is cut short")
    assert "1 file cut short or corrupt" in done.stderr
    assert "Traceback" not in done.stderr
