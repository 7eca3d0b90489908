"""What went wrong counts a failure no exception names in words, as the rest of the postmortem says it.

After hardening 71 and 72 the timeline, the Detection and the pivots said "exit status 2: ls:
cannot access ...", "ssh: connect to host gpu01 port 2222: ..." and "timed out: ...", but What
went wrong still counted them by the JSON's kind: "1× exit_code [msg 6] — ls: ...", "1×
connection [msg 5] — ssh: ...", "1× tool_error [msg 2] — ...", "1× timeout [msg 2] — ...".
They are counted in words now ("1 failed command", "2 failed connections", "1 failed tool
call", "1 command that timed out"), their first error said as the timeline says it (the exit
status in words); an exception's line ("1× IndexError") and the agent's own API error ("1×
agent_error", no failure of the work) stay as they were."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer
from tests.session.test_hardening65_distill_version_checks import _session

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"
LS = "ls: cannot access '/models/eagle3-draft/config.jsn': No such file or directory"
INVALID = ("launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
           "(choose from 'EAGLE', 'NEXTN')")
KINDS = ("exit_code", "connection", "tool_error", "timeout")


def _wrong(analysis) -> list[str]:
    wrong = postmortem_view(analysis)["went_wrong"]
    for line in wrong:
        for kind in KINDS:
            assert f"× {kind}" not in line, wrong
    return wrong


def test_a_failed_command_is_counted_with_its_exit_status() -> None:
    analysis = analyze_path(DATA / "checkpoint-eagle3-accept.json")
    assert _wrong(analysis) == ["1× IndexError [msg 4]", f"1 failed command [msg 6] — exit status 2: {LS}"]
    md = render_postmortem(analysis, "md")
    assert f"- 1 failed command [[msg 6]](#msg-6) — exit status 2: {LS}\n" in md, md
    assert f"| main | error | exit status 2: {LS} |" in md  # the timeline says it so


def test_a_failed_connection_and_the_agents_error() -> None:
    analysis = analyze_path(DATA / "session-2026-10-02T08-00-5d2c1e6a.jsonl")
    assert _wrong(analysis) == [
        "1× AttributeError [msg 2]",
        "1 failed connection [msg 5] — ssh: connect to host gpu01 port 2222: Connection refused",
        "1× agent_error [msg 11] — [API Error: got status: 429 Too Many Requests. Please wait and try again later.]"]


def test_two_failed_connections(tmp_path: Path) -> None:
    w = _Writer("72720000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Why is gpu01 unreachable?")
    w.bash("ssh gpu01 nvidia-smi", "ssh: connect to host gpu01 port 22: No route to host", exit_code=255)
    w.bash("ssh gpu02 nvidia-smi", "ssh: connect to host gpu02 port 22: Connection timed out", exit_code=255)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    (line,) = [x for x in _wrong(analyze_path(path)) if "connection" in x]
    assert line.startswith("2 failed connections [msg ") and line.endswith(
        " — the first: ssh: connect to host gpu01 port 22: No route to host"), line


def test_a_failed_tool_call(tmp_path: Path) -> None:
    path = _session(tmp_path / "s.jsonl", [("ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1")],
                    "ssh gpu01 'pip install -U \"sglang[all]==0.4.6\"'")
    assert _wrong(analyze_path(path)) == [f"1 failed tool call [msg 2] — {INVALID}"]


def test_a_command_that_timed_out(tmp_path: Path) -> None:
    def call(i: str, command: str) -> dict:
        return {"id": i, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}
    messages = [
        {"role": "user", "content": "EAGLE3 will not start on gpu01."},
        {"role": "assistant", "content": "Waiting for the server.",
         "tool_calls": [call("a", "ssh gpu01 'python3 wait_ready.py --url http://127.0.0.1:30000/health'")]},
        {"role": "tool", "tool_call_id": "a",
         "content": "Polling http://127.0.0.1:30000/health every 5s\nRuntimeError: deadline exceeded\n[exit code: 1]"},
        {"role": "assistant", "content": "Let me look at the server log.",
         "tool_calls": [call("b", "ssh gpu01 'tail -n 20 /tmp/sglang.log'")]},
        {"role": "tool", "tool_call_id": "b", "content": "server started"},
    ]
    path = tmp_path / "wait.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    assert _wrong(analyze_path(path)) == [
        "1 command that timed out [msg 2] — timed out: RuntimeError: deadline exceeded"]
