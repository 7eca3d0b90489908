"""A patch's turn item, ``item_completed{item: FileChange{id: <call id>, changes, status, stdout, stderr}}``,
ends the ``apply_patch`` call it names (openai/codex ``codex-rs/protocol/src/items.rs`` ``FileChangeItem``,
``stdout``/``stderr`` in newer CLIs; the core suite asserts ``item.id == call_id``), and the model's copy
after it is dropped. Its text was the status alone ("failed"): the error the patch gave, ``Failed to find
expected lines in ...``, was lost from the call's result and from the session's errors. Now the item's
stdout and stderr are the text, as ``patch_apply_end``'s are; a nested failed patch of a code-mode cell
(``exec-<uuid>``) says the same."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex, codex_tool_ends
from spec_debug.session.formats.common import Cursor

PATCH = "*** Begin Patch\n*** Update File: /srv/eagle.py\n@@\n-k = 4\n+k = 2\n*** End Patch"
ERR = "Failed to find expected lines in /srv/eagle.py:\nk = 4"


def _item(status: str, stdout: str, stderr: str) -> dict:
    return {"type": "FileChange", "id": "call_P", "status": status, "stdout": stdout, "stderr": stderr,
            "changes": {"/srv/eagle.py": {"type": "update", "unified_diff": "@@\n-k = 4\n+k = 2\n"}}}


def test_the_items_output_is_the_text() -> None:
    end = codex_tool_ends.from_item(_item("failed", "", ERR))
    # was ("failed", True)
    assert end is not None and (end.call_id, end.text, end.is_error) == ("call_P", ERR, True)
    done = codex_tool_ends.from_item(_item("completed", "Success. Updated the following files:\nM /srv/eagle.py\n", ""))
    assert done is not None and (done.text, done.is_error) == (
        "Success. Updated the following files:\nM /srv/eagle.py\n", False)


def test_an_item_with_no_output_keeps_its_status() -> None:
    end = codex_tool_ends.from_item({"type": "FileChange", "id": "call_P", "status": "failed", "changes": {}})
    assert end is not None and (end.text, end.is_error) == ("failed", True)


def test_in_a_rollout(tmp_path: Path) -> None:
    lines = [{"timestamp": "2026-09-09T08:17:51.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-09-09T08:17:51.000Z", "cwd": "/srv",
                          "originator": "codex-tui", "cli_version": "0.160.0"}},
             {"timestamp": "2026-09-09T08:18:01.000Z", "type": "response_item",
              "payload": {"type": "custom_tool_call", "status": "completed", "call_id": "call_P",
                          "name": "apply_patch", "input": PATCH}},
             {"timestamp": "2026-09-09T08:18:02.000Z", "type": "event_msg",
              "payload": {"type": "item_completed", "thread_id": "t", "turn_id": "u", "item": _item("failed", "", ERR)}},
             {"timestamp": "2026-09-09T08:18:03.000Z", "type": "response_item",
              "payload": {"type": "custom_tool_call_output", "call_id": "call_P",
                          "output": "apply_patch verification failed: " + ERR}}]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    assert [(e.call_id, e.is_error, e.text) for e in events if e.kind == "tool_result"] == [("call_P", True, ERR)]


def test_a_cells_patch_says_its_error(tmp_path: Path) -> None:
    item = dict(_item("failed", "", ERR), id="exec-5d2c8f3a-9ed6-4619-afa2-5ad480f79b26")
    source = "await tools.apply_patch(" + json.dumps(PATCH) + ");\ntext(\"patched\");\n"
    lines = [{"timestamp": "2026-09-09T08:17:51.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-09-09T08:17:51.000Z", "cwd": "/srv",
                          "originator": "codex-tui", "cli_version": "0.160.0"}},
             {"timestamp": "2026-09-09T08:18:01.000Z", "type": "response_item",
              "payload": {"type": "custom_tool_call", "status": "completed", "call_id": "call_A", "name": "exec",
                          "input": source}},
             {"timestamp": "2026-09-09T08:18:02.000Z", "type": "event_msg",
              "payload": {"type": "item_completed", "thread_id": "t", "turn_id": "u", "item": item}},
             {"timestamp": "2026-09-09T08:18:03.000Z", "type": "response_item",
              "payload": {"type": "custom_tool_call_output", "call_id": "call_A", "output": [
                  {"type": "input_text", "text": "Script completed\nWall time 0.4 seconds\nOutput:\n"},
                  {"type": "input_text", "text": "patched"}]}}]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    events = list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), ReadStats()))
    assert [(e.call_id, e.is_error, e.text) for e in events if e.kind == "tool_result"] == [
        ("call_A", True, ERR + "\npatched")]
