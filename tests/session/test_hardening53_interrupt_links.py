"""postmortem: "A command was stopped by hand N times" names the commands, as its other lines do.

Every other line of "What went wrong" links its message ([msg N]); the count of commands the person
stopped (Esc in Claude Code: "[Request interrupted by user for tool use]") did not, as the analysis
kept only the count: the reader had to search the timeline for them. Each session's entry now keeps
its first few (``interrupted_seqs``, the calls' seqs) and the line links them, "…" for the rest.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer

_STOPPED = "[Request interrupted by user for tool use]"


def _writer(session: str) -> _Writer:
    w = _Writer(session, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Watch the SGLang server log on gpu01.")
    return w


def _stop(w: _Writer, n: int) -> int:
    tool_id = f"toolu_tail{n}"
    call = w.assistant({"type": "tool_use", "id": tool_id, "name": "Bash",
                        "input": {"command": f"ssh root@gpu01 'tail -f /root/sglang_server_{n}.log'"}})
    env = w._env("user")
    env["message"] = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tool_id, "content": _STOPPED, "is_error": True}]}
    w._add(env)
    return call


def _save(folder, w: _Writer):
    path = folder / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return path


def test_the_stopped_commands_are_linked(tmp_path):
    w = _writer("53530000-0000-4000-8000-0000000000e1")
    calls = [_stop(w, n) for n in range(4)]
    a = analyze_path(_save(tmp_path, w))
    assert a.stats["interrupts"] == 4 and a.sessions[0]["interrupted_seqs"] == calls[:3]
    line = f"A command was stopped by hand 4 times [msg {calls[0]}] [msg {calls[1]}] [msg {calls[2]}] … while it ran."
    assert line in postmortem_view(a)["went_wrong"]
    assert f"](#msg-{calls[0]})" in render_postmortem(a, "md")


def test_one_stopped_command_is_linked(tmp_path):
    w = _writer("53530000-0000-4000-8000-0000000000e2")
    call = _stop(w, 0)
    a = analyze_path(_save(tmp_path, w))
    assert f"A command was stopped by hand 1 time [msg {call}] while it ran." in postmortem_view(a)["went_wrong"]


def test_a_folder_of_sessions_links_each_in_its_own_numbering(tmp_path):
    first, second = _writer("53530000-0000-4000-8000-0000000000e3"), _writer("53530000-0000-4000-8000-0000000000e4")
    second.clock = first.clock.replace(hour=9)
    one, two = _stop(first, 0), _stop(second, 1)
    _save(tmp_path, first), _save(tmp_path, second)
    md = render_postmortem(analyze_path(tmp_path), "md")
    assert "stopped by hand 2 times" in md
    line = next(x for x in md.splitlines() if "stopped by hand" in x)
    assert f"[msg 1:{one}]" in line and f"[msg 2:{two}]" in line
