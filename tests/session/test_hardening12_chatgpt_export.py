"""ChatGPT's data export (Settings → Data controls → Export): ``conversations.json`` is a list of
conversations, each a tree of messages under ``mapping`` whose shown branch ends at
``current_node``; times are ``create_time`` epoch seconds (the schema as
mitkury/chatgpt-export-parser ``docs/chatgpt-data-export-format.md`` documents it). The CLI took
``--input-format chatgpt`` but read each conversation as one message of no role, and without
the flag the file was read as plain text: no prompt, no reply, no time."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.openai_chat import chatgpt_messages

T0 = 1732900000.0  # 2024-11-29T17:06:40Z
NO_D2T = ("Traceback (most recent call last):\n  File \"<exec>\", line 3, in <module>\n"
          "KeyError: 'd2t'")


def _node(node_id, parent, children, role=None, parts=None, at=None, *, content_type="text", text=None,
          recipient="all", hidden=False):
    message = None
    if role is not None:
        content = {"content_type": content_type}
        if parts is not None:
            content["parts"] = parts
        if text is not None:
            content["text"] = text
        message = {"id": node_id, "author": {"role": role, "name": "python" if role == "tool" else None, "metadata": {}},
                   "create_time": at, "update_time": None, "content": content, "status": "finished_successfully",
                   "end_turn": None, "weight": 1.0, "recipient": recipient,
                   "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {}}
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def _conversation() -> dict:
    nodes = [
        _node("root", None, ["sys"]),
        _node("sys", "root", ["u1"], "system", [""], None, hidden=True),
        _node("u1", "sys", ["a1-old", "a1"], "user",
              ["My SGLang server with EAGLE-3 logs `accept len: 1.00` and gen throughput (token/s): 41.02. Why?"], T0 + 1),
        # a regenerated answer: the first one stays in the tree, off the shown branch
        _node("a1-old", "u1", [], "assistant", ["Restart the server."], T0 + 20),
        _node("a1", "u1", ["a2"], "assistant", ["Every drafted token is rejected; check the draft's vocab mapping."], T0 + 30),
        _node("a2", "a1", ["t1"], "assistant", None, T0 + 40, content_type="code", recipient="python",
              text="import torch\nsd = torch.load('/mnt/data/draft.pt')\nprint(sd['d2t'].shape)"),
        _node("t1", "a2", ["u2"], "tool", None, T0 + 42, content_type="execution_output", text=NO_D2T),
        _node("u2", "t1", [], "user", ["After adding d2t: accept len: 3.10, gen throughput (token/s): 118.40"], T0 + 600),
    ]
    return {"title": "EAGLE-3 accept length 1.0", "create_time": T0, "update_time": T0 + 600,
            "mapping": {n["id"]: n for n in nodes}, "moderation_results": [], "current_node": "u2",
            "plugin_ids": None, "conversation_id": "6745f0a0-1c2d-8000-9000-00000000a001",
            "id": "6745f0a0-1c2d-8000-9000-00000000a001", "default_model_slug": "gpt-4o", "is_archived": False}


def test_the_shown_branch_in_order_with_its_times() -> None:
    messages = chatgpt_messages(_conversation())
    assert [m["role"] for m in messages] == ["user", "assistant", "assistant", "tool", "user"]
    assert "Restart the server." not in json.dumps(messages)  # the regenerated-away answer
    assert messages[2]["tool_calls"][0]["function"]["name"] == "python"


def test_an_export_is_detected_and_read(tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([_conversation()]), encoding="utf-8")
    a = analyze_path(path)
    (session,) = a.sessions
    assert session["format"] == "openai"
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2024-11-29T17:06:41.000Z", "2024-11-29T17:16:40.000Z")
    assert [p.text[:30] for p in a.prompts] == ["My SGLang server with EAGLE-3 ", "After adding d2t: accept len: "]
    assert [e.exception for e in a.errors] == ["KeyError"]
    accept = [m.value for m in a.metrics if m.name == "accept_length"]
    assert accept[0] == 1.0 and accept[-1] == 3.1


def test_the_flag_the_cli_takes_for_it_reads_it_too(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps([_conversation()], indent=2), encoding="utf-8")
    a = analyze_path(path, "openai")  # what --input-format chatgpt names (format_names.py)
    assert len(a.prompts) == 2 and a.sessions[0]["unknown_types"] == 0
