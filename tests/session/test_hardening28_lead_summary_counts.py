"""The line `analyze` prints on stderr says "1 event in 1 session; 1 line skipped", not
"1 events in 1 session(s); 1 line(s) skipped" (the postmortem's counts were made singular and
plural a round ago; the CLI's summary was left)."""

from __future__ import annotations

import json

from spec_debug.session.commands import _read_summary


def test_one_of_each_is_singular(cli, tmp_path):
    path = tmp_path / "one.jsonl"
    good = {"type": "user", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": "why is the drafter slower?"}}
    path.write_text(json.dumps(good) + "\n{broken\n", encoding="utf-8")
    done = cli("analyze", str(path), "--format", "json", "-o", str(tmp_path / "a.json"))
    assert done.code == 0, done.stderr
    assert "1 event in 1 session; 1 line skipped (broken JSON 1," in done.stderr


def test_several_are_plural_and_files_counted():
    stats = {"events": 12, "sessions": 3, "lines_skipped": 0, "broken_json": 0, "non_object": 0, "too_long": 0,
             "binary": 0, "missing_files": 1, "damaged_files": 2}
    assert _read_summary(stats) == ("12 events in 3 sessions; 0 lines skipped (broken JSON 0, not an object 0, "
                                    "too long 0, binary 0), 1 sub-agent file missing, 2 files cut short or corrupt")
