"""A ChatGPT data export is many sessions, one per conversation.

``conversations.json`` (Settings → Data controls → Export) is a JSON array of every conversation
of the account, each ``{title, create_time, update_time, mapping, current_node, id,
conversation_id, …}`` (mitkury/chatgpt-export-parser ``docs/chatgpt-data-export-format.md``).
It was read as ONE session: the prompts, errors and metrics of unrelated conversations, weeks
apart, made one timeline, one seq count and one postmortem."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.agents import AgentTree
from spec_debug.session.sources import discover, iter_events

DAY = 86400.0
T0 = 1732900000.0  # 2024-11-29T17:06:40Z


def _node(node_id: str, parent: str | None, role: str | None, text: str | None = None, at: float | None = None) -> dict:
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role, "name": None, "metadata": {}}, "create_time": at,
                   "update_time": None, "content": {"content_type": "text", "parts": [text or ""]},
                   "status": "finished_successfully", "end_turn": True, "weight": 1.0, "recipient": "all",
                   "metadata": {"is_visually_hidden_from_conversation": True} if role == "system" else {}}
    return {"id": node_id, "message": message, "parent": parent, "children": []}


def _conversation(conv_id: str, title: str, start: float, turns: list[tuple[str, str]]) -> dict:
    nodes = [_node("root", None, None), _node("sys", "root", "system", "", None)]
    parent = "sys"
    for n, (role, text) in enumerate(turns):
        node_id = f"{conv_id[:8]}-{n}"
        nodes.append(_node(node_id, parent, role, text, start + 10 * (n + 1)))
        parent = node_id
    return {"title": title, "create_time": start, "update_time": start + 100,
            "mapping": {node["id"]: node for node in nodes}, "moderation_results": [], "current_node": parent,
            "plugin_ids": None, "conversation_id": conv_id, "id": conv_id, "default_model_slug": "gpt-4o",
            "is_archived": False}


EAGLE = "6745f0a0-1c2d-8000-9000-00000000a001"
TRIP = "6745f0a0-1c2d-8000-9000-00000000a002"
NCCL = "6745f0a0-1c2d-8000-9000-00000000a003"


def _export(tmp_path: Path, name: str = "conversations.json") -> Path:
    convs = [
        _conversation(EAGLE, "EAGLE-3 accept length 1.0", T0, [
            ("user", "SGLang with EAGLE-3 logs accept len: 1.00, gen throughput (token/s): 41.02. Why?"),
            ("assistant", "Every drafted token is rejected; check the draft's d2t vocab mapping."),
        ]),
        _conversation(TRIP, "Weekend in Lisbon", T0 + 20 * DAY, [
            ("user", "Plan two days in Lisbon"),
            ("assistant", "Day 1: Alfama and the castle."),
        ]),
        _conversation(NCCL, "NCCL timeout on 8xH100", T0 + 40 * DAY, [
            ("user", "torch.distributed.DistBackendError: NCCL error in ProcessGroupNCCL.cpp:1970, unhandled "
                     "system error"),
            ("assistant", "Check NCCL_SOCKET_IFNAME."),
            ("user", "That fixed it"),
        ]),
    ]
    path = tmp_path / name
    path.write_text(json.dumps(convs), encoding="utf-8")
    return path


def test_each_conversation_is_a_session_with_its_id_and_title(tmp_path: Path) -> None:
    sources = discover(_export(tmp_path))
    assert [(s.id, s.title) for s in sources] == [
        (EAGLE, "EAGLE-3 accept length 1.0"), (TRIP, "Weekend in Lisbon"), (NCCL, "NCCL timeout on 8xH100")]
    # seq counts each conversation's own messages from 0
    events = list(iter_events(sources[2], ReadStats(), AgentTree()))
    assert [(e.seq, e.role) for e in events] == [(0, "user"), (1, "assistant"), (2, "user")]
    assert {e.session for e in events} == {NCCL}


def test_the_analysis_keeps_conversations_apart(tmp_path: Path) -> None:
    a = analyze_path(_export(tmp_path))
    assert [s["id"] for s in a.sessions] == [EAGLE, TRIP, NCCL]
    assert [(s["first_timestamp"][:10], s["last_timestamp"][:10]) for s in a.sessions] == [
        ("2024-11-29", "2024-11-29"), ("2024-12-19", "2024-12-19"), ("2025-01-08", "2025-01-08")]
    by_session = {s: [p.text[:20] for p in a.prompts if p.session == s] for s in (EAGLE, TRIP, NCCL)}
    assert by_session == {EAGLE: ["SGLang with EAGLE-3 "], TRIP: ["Plan two days in Lis"],
                          NCCL: ["torch.distributed.Di", "That fixed it"]}
    assert a.stats["sessions"] == 3 and sum(s["lines"] for s in a.sessions) == 3


def test_two_copies_of_an_export_in_a_folder_keep_ids_apart(tmp_path: Path) -> None:
    (tmp_path / "may").mkdir()
    (tmp_path / "june").mkdir()
    _export(tmp_path / "may")
    _export(tmp_path / "june")
    ids = [s.id for s in discover(tmp_path)]
    assert len(ids) == 6 and len(set(ids)) == 6
    assert f"june/conversations#{EAGLE}" in ids
