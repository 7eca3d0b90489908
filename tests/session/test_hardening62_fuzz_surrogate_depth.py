"""A transcript line nested a few hundred levels deep that holds a lone surrogate (an emoji cut
in half) is read, not a RecursionError.

orjson refuses a lone surrogate, so such a line is decoded by the stdlib (which reads ~990
levels) and then walked by reader.without_lone_surrogates to replace the surrogate; that walk
recursed two Python frames a level and raised RecursionError from about 500 levels, which
ended `spec-debug analyze`. Found by fuzzing the sample transcripts with nested values.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.session.analysis import analyze_path
from spec_debug.session.reader import without_lone_surrogates
from tests.session.test_hardening62_fuzz_deep_nesting import _claude

SID = "c3d4e5f6-0000-4000-8000-00000000d002"


def _call(i: int, command: str) -> list[str]:
    return _claude(i, command, SID)


@pytest.mark.parametrize("depth", [500, 800])
def test_deep_line_with_a_lone_surrogate_is_read(tmp_path, depth):
    nested = "[" * depth + '"cut emoji \\ud83d"' + "]" * depth
    deep = json.dumps({"type": "user", "session_id": SID, "uuid": "00000000-0000-4000-8000-000000000099",
                       "message": {"role": "user", "content": "__NESTED__"}}).replace('"__NESTED__"', nested)
    lines = _call(0, "nvidia-smi") + [deep] + _call(1, "ls /models")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    analysis = analyze_path(path)
    assert analysis.stats["broken_json"] == 0  # the line is JSON: read, its surrogate replaced
    assert [c.command for c in analysis.commands] == ["nvidia-smi", "ls /models"]


def test_surrogates_replaced_at_every_depth_keys_and_order_kept():
    value = {"a\ud800": ["x\udc00", {"k": "\ud83d"}, 1, None, [["deep\udfff"]]], "b": "ok", "c": True}
    assert without_lone_surrogates(value) == {
        "a\ufffd": ["x\ufffd", {"k": "\ufffd"}, 1, None, [["deep\ufffd"]]], "b": "ok", "c": True}
    assert list(without_lone_surrogates(value)) == ["a\ufffd", "b", "c"]
    nested: list = ["\ud800"]
    for _ in range(3000):
        nested = [nested]
    fixed = without_lone_surrogates(nested)
    for _ in range(3000):
        fixed = fixed[0]
    assert fixed == ["\ufffd"]
