"""Newer OpenCode compacts with one request (its "prepend" mode, the default): a single user message
that writes the history out, ``Here is the conversation so far:`` then ``<conversation>`` and a line a
message, ``[User]: <prompt>``, ``[Assistant tool call]: bash({...})``, ``[Tool result]: ...``, then the
instructions for the summary (sst/opencode ``packages/core/src/session/compaction.ts``, ``buildPrompt``
and ``serialize``; ``packages/opencode/src/session/compaction.ts``). That call resends no first prompt
of the run: through a logging proxy it and the calls after it (which go on from its summary) were a
session apart from the calls before, and its message, the whole history, a prompt of the person's."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

from tests.session.test_hardening70_proxied_compactions import _run, _write


def _replayed(tag: str, host: str) -> list[tuple[list, dict]]:
    """_run's calls, its compaction call writing the history out instead of resending it."""
    calls = _run(tag, host)
    messages, summary = calls[2]
    ask = messages[0]["content"][0]["text"]
    history = "\n\n".join([
        f"[User]: {ask}",
        f"[Assistant tool call]: bash({json.dumps({'command': f'ssh {host} nvidia-smi'})})\n"
        "[Tool result]: NVIDIA-SMI 550.54",
        f"[Assistant tool call]: bash({json.dumps({'command': f'ssh {host} tail -n 40 sglang.log'})})\n"
        "[Tool result]: accept len 1.01"])
    replay = (f"Here is the conversation so far:\n\n<conversation>\n{history}\n</conversation>\n\n"
              "Create a new anchored summary from the conversation history in the <conversation> tags above so "
              "another coding agent can continue the work.")
    return [*calls[:2], ([{"role": "user", "content": replay}], summary), *calls[3:]]


def test_a_run_that_compacted_by_writing_its_history_out_is_one_session(tmp_path) -> None:
    _write(logs := tmp_path / "logs", _replayed("a", "gpu07"))
    doc = analyze_path(logs).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [p["text"] for p in doc["prompts"]] == ["the EAGLE-3 draft on gpu07 accepts almost nothing, find out why"]
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu07 'nvidia-smi'", "ssh gpu07 'tail -n 40 sglang.log'", "ssh gpu07 'grep -c accept sglang.log'"]


def test_two_runs_that_compacted_so_are_two_sessions(tmp_path) -> None:
    first, second = _replayed("a", "gpu07"), _replayed("b", "gpu12")
    _write(logs := tmp_path / "logs", [first[0], second[0], first[1], second[1], first[2], second[2],
                                       first[3], second[3], first[4], second[4]])
    doc = analyze_path(logs).to_json()
    by_session: dict[str, list[str]] = {}
    for command in doc["commands"]:
        by_session.setdefault(command["session"], []).append(command["command"])
    assert len(doc["sessions"]) == 2
    assert sorted(by_session.values()) == [
        ["ssh gpu07 'nvidia-smi'", "ssh gpu07 'tail -n 40 sglang.log'", "ssh gpu07 'grep -c accept sglang.log'"],
        ["ssh gpu12 'nvidia-smi'", "ssh gpu12 'tail -n 40 sglang.log'", "ssh gpu12 'grep -c accept sglang.log'"]]


def test_the_summary_is_read_once(tmp_path) -> None:
    """Each request after the compaction sends the summary again, after the question: a history the
    call that wrote it does not head (its request held the history written out), read from there."""
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    calls = _replayed("a", "gpu07")
    _write(logs := tmp_path / "logs", calls)
    [source] = discover(logs)
    summary = calls[2][1]["content"]
    texts = [ev.text for ev in iter_events(source, ReadStats(), AgentTree()) if ev.kind == "text"]
    assert texts.count(summary) == 1
