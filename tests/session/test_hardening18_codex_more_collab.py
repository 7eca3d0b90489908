"""``codex exec --json`` reports a sub-agent it starts as a ``collab_tool_call`` item.

``{"type": "collab_tool_call", "tool": "spawn_agent", "sender_thread_id", "receiver_thread_ids",
"prompt", "agents_states", "status"}`` (openai/codex ``codex-rs/exec/src/exec_events.rs``
``CollabToolCallItem``; ``tool`` is ``spawn_agent``, ``send_input``, ``wait`` or ``close_agent``):
the completed ``spawn_agent`` names the new thread in ``receiver_thread_ids``, the id the
sub-agent's own rollout carries. Before, the items were kept as ``other`` lines: the run made
one tool call instead of three, and a sub-agent rollout read with the log was spawned by no call.

Data: ``data_hardening18_codex_more/codex_exec_collab_0.155.1.jsonl`` (SOURCE.md there)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex_exec, codex_threads
from spec_debug.session.formats.common import Cursor
from spec_debug.session.sources import SessionSource

LOG = Path(__file__).parent / "data_hardening18_codex_more" / "codex_exec_collab_0.155.1.jsonl"
PARENT = "01a0bb3b-6da3-79d1-a85d-9ea76187d710"
CHILD = "01a0bb3b-9c37-79f3-82e2-02c7a1a20ea9"


def _events(path: Path) -> tuple[list, ReadStats]:
    stats = ReadStats()
    return list(codex_exec.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), stats)), stats


def test_the_collab_items_are_the_calls_that_start_and_wait_for_the_sub_agent() -> None:
    events, stats = _events(LOG)
    calls = [e for e in events if e.kind == "tool_call"]
    assert [(c.tool_name, c.call_id) for c in calls] == [("shell", "item_2"), ("spawn_agent", "item_4"),
                                                         ("wait", "item_5")]
    spawn = calls[1]
    assert spawn.spawn is not None and spawn.spawn.description == "Reply with the single word PONG."
    results = {e.call_id: e for e in events if e.kind == "tool_result"}
    assert results["item_4"].agent_ref == CHILD  # the thread the spawn started
    assert results["item_5"].agent_ref is None  # a wait names it too, but started nothing
    assert "LUNA-RESEARCHER PONG" in results["item_5"].text
    assert stats.unknown_types == 0


def test_the_run_counts_the_sub_agent_calls() -> None:
    a = analyze_path(LOG)
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (3, 0)  # was 1: the collab items were no calls


def _child_rollout(tmp_path: Path) -> Path:
    def line(ts: str, kind: str, payload: dict) -> dict:
        return {"timestamp": f"2026-09-19T10:{ts}.000Z", "type": kind, "payload": payload}

    lines = [
        line("00:01", "session_meta", {"id": CHILD, "cwd": "/tmp/project", "cli_version": "0.155.1", "source": {
            "subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1, "agent_nickname": "Luna",
                                          "agent_role": "researcher"}}}}),
        line("00:02", "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Reply with the single word PONG."}]}),
        line("00:03", "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "LUNA-RESEARCHER PONG"}]}),
    ]
    path = tmp_path / f"rollout-2026-09-19T10-00-01-{CHILD}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_the_sub_agent_rollout_is_linked_to_the_spawn_item(tmp_path: Path) -> None:
    child_path = _child_rollout(tmp_path)
    assert codex_threads.thread_of(LOG).id == PARENT  # thread.started names the run's thread
    child = SessionSource(id=CHILD, path=child_path, format="codex", thread=codex_threads.thread_of(child_path))
    assert child.thread.parent == PARENT
    source = SessionSource(id="run", path=LOG, format="codex", exec_events=True,
                           thread=codex_threads.thread_of(LOG), children=[child])
    tree = AgentTree()
    events = list(codex_threads.read_session(source, Cursor(session="run", agent=MAIN_AGENT, file=str(LOG)),
                                             ReadStats(), tree))
    info = tree.agents[CHILD]
    assert (info.parent, info.spawned_by, info.agent_type) == (MAIN_AGENT, "item_4", "researcher")
    assert any(e.agent == CHILD and e.text == "LUNA-RESEARCHER PONG" for e in events)


def test_a_folder_with_the_exec_log_and_its_sub_agent_rollout_links_them(tmp_path: Path) -> None:
    """The same, through `spec-debug analyze FOLDER`: the exec log and the child's rollout side by
    side are one session, the child an agent spawned by the log's spawn_agent item."""
    from spec_debug.session import analyze_path

    folder = tmp_path / "run"
    folder.mkdir()
    _child_rollout(folder)
    (folder / LOG.name).write_bytes(LOG.read_bytes())
    analysis = analyze_path(folder)
    assert len(analysis.sessions) == 1
    child = next(a for a in analysis.agents if a["id"] == CHILD)
    assert (child["parent"], child["spawned_by"], child["type"]) == (MAIN_AGENT, "item_4", "researcher")
