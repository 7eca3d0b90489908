"""analyze: listing the folder of a file an error says is missing is the retry, not a new approach.

The agent ran the vocab-map regeneration with a wrong frequency-file path ("FileNotFoundError:
[Errno 2] No such file or directory: '/data/eagle3/freq_sharegpt.pt'"), listed /data/eagle3/ and
ran it again with the right name. The listing was "a change of approach" that went well, a
phase of its own, and distill's first step of it.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

REGEN = "ssh gpu01 '~/venv/bin/python /tmp/regen_vocab_map.py --token-freq /data/eagle3/freq_sharegpt.pt'"
MISSING = ("Traceback (most recent call last):\n  File \"/tmp/regen_vocab_map.py\", line 44, in main\n"
           "FileNotFoundError: [Errno 2] No such file or directory: '/data/eagle3/freq_sharegpt.pt'")


def _pivots(tmp_path, failed: str, output: str, then: str):
    w = _Writer("48480000-0000-4000-8000-0000000000cb", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Regenerate the vocab map on gpu01.")
    w.bash(failed, output, exit_code=1)
    w.bash(then, "token_freq_llama31.pt")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return [(p.seq, p.trigger_seq) for p in analyze_path(path).pivots]


@pytest.mark.parametrize(("failed", "output"), [
    (REGEN, MISSING),
    ("ssh gpu01 'cat /data/eagle3/config.json'", "cat: /data/eagle3/config.json: No such file or directory"),
])
def test_looking_in_the_missing_files_folder_is_no_pivot(tmp_path, failed, output):
    assert _pivots(tmp_path, failed, output, "ssh gpu01 'ls -la /data/eagle3/'") == []
    assert _pivots(tmp_path, failed, output, "ssh gpu01 'find /data/eagle3 -name \"*.pt\"'") == []


def test_looking_elsewhere_still_is(tmp_path):
    assert _pivots(tmp_path, REGEN, MISSING, "ssh gpu01 'ls -la /models/'") == [(3, 2)]
