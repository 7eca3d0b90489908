"""Assistants thread messages are listed newest first by default (order=desc), and read oldest first
(openai_chat._thread_in_order). Which way a run of them goes was told by its first message against its
last, and a run turned round as a whole: two threads dumped one after the other (a loop over the
thread ids as they were made), each newest first, the second newer than the first, looked oldest
first and were read as written, every answer before its question; the second the older, its
messages came first. Now most neighbouring messages tell the direction (for messages of one second),
and the times the order."""

from __future__ import annotations

import json

from spec_debug.session.events import ReadStats
from spec_debug.session.formats import openai_chat
from spec_debug.session.formats.common import Cursor


def _message(n: int, thread: str, role: str, text: str, at: int) -> dict:
    return {"id": f"msg_{n}", "object": "thread.message", "created_at": at, "thread_id": thread, "role": role,
            "content": [{"type": "text", "text": {"value": text, "annotations": []}}]}


def test_two_threads_each_listed_newest_first_are_read_oldest_first(tmp_path):
    first = [_message(1, "thread_a", "user", "Why is EAGLE-3 acceptance 1.0 on gpu01?", 1_772_000_000),
             _message(2, "thread_a", "assistant", "The draft model path is wrong.", 1_772_000_004)]
    second = [_message(3, "thread_b", "user", "And why is gpu02 slower than gpu01?", 1_772_086_400),
              _message(4, "thread_b", "assistant", "gpu02 runs with --speculative-num-steps 1.", 1_772_086_405)]
    path = tmp_path / "threads.jsonl"
    for written in (first[::-1] + second[::-1], second[::-1] + first[::-1]):
        path.write_text("".join(json.dumps(m) + "\n" for m in written))
        events = openai_chat.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats(), array=False)
        said = [(e.role, e.text[:9]) for e in events if e.kind in ("prompt", "text")]
        assert said == [("user", "Why is EA"), ("assistant", "The draft"),
                        ("user", "And why i"), ("assistant", "gpu02 run")]
