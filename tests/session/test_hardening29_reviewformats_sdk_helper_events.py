"""An Anthropic stream dumped from the SDK's helper (``with client.messages.stream(...) as stream:
for event in stream: print(event.to_json(indent=None))``): anthropic-sdk-python's ``MessageStream``
yields each raw event and, after a delta, an event of its own that repeats it with the snapshot so
far (``lib/streaming/_messages.py``, ``build_events``: ``text``, ``thinking``, ``signature``,
``input_json``, ``citation``; ``content_block_stop`` and ``message_stop`` with the block and the
message). Round 29 read the raw events and counted every repeat as an unknown record (8 here, an
"other" event each): a file of the helper's events looked half unread."""

from __future__ import annotations

import copy
import json

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import responses_stream
from spec_debug.session.formats.common import Cursor

from test_hardening29_formats_vendor_streams import MESSAGE, SSH


def _helper_events(raw: list[dict]) -> list[dict]:
    """What ``MessageStream`` yields for the raw events (``build_events``)."""
    out, blocks = [], {}
    for event in raw:
        kind = event["type"]
        if kind == "content_block_start":
            blocks[event["index"]] = copy.deepcopy(event["content_block"])
            out.append(event)
        elif kind == "content_block_delta":
            out.append(event)
            block, delta = blocks[event["index"]], event["delta"]
            if delta["type"] == "text_delta":
                block["text"] += delta["text"]
                out.append({"type": "text", "text": delta["text"], "snapshot": block["text"]})
            elif delta["type"] == "thinking_delta":
                block["thinking"] += delta["thinking"]
                out.append({"type": "thinking", "thinking": delta["thinking"], "snapshot": block["thinking"]})
            elif delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]
                out.append({"type": "signature", "signature": delta["signature"]})
            elif delta["type"] == "input_json_delta":
                out.append({"type": "input_json", "partial_json": delta["partial_json"], "snapshot": {}})
        elif kind == "content_block_stop":
            out.append({**event, "content_block": blocks[event["index"]]})
        elif kind == "message_stop":
            out.append({"type": "message_stop", "message": {**MESSAGE[0]["message"], "content": list(blocks.values())}})
        else:
            out.append(event)
    return out


def test_the_sdk_helpers_own_events_are_no_unknown_records(tmp_path):
    path = tmp_path / "helper_events.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in _helper_events(MESSAGE)))
    doc = analyze_path(path).to_json()
    (session,) = doc["sessions"]
    assert (session["format"], session["unknown_types"]) == ("openai", 0)  # was 8
    assert [c["command"] for c in doc["commands"]] == [SSH]
    events = list(responses_stream.read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats()))
    assert [(e.kind, e.text if e.kind != "tool_call" else e.command) for e in events] == [
        ("thinking", "The drafter may not be loaded."),
        ("text", "Checking the server log on gpu-node-3."),
        ("tool_call", SSH),
    ]
