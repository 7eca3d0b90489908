"""A failure no exception names is said in words, not by the JSON's kind.

The postmortem and distill said what an ssh, a tool or the agent's API printed behind the
JSON's identifier of its kind: "First error: connection: ssh: connect to host gpu01 port 2222:
...", a timeline row "error | tool_error: launch_server.py: error: ...", "Changed approach after
connection: ssh: ...", a pivot row "After timeout: Polling ...", and the distilled step's why
"It was the first step of a change of approach after connection: ssh: ...". They say what was
printed now ("timed out: ..." for a timeout its line does not call one), as exit_code's were
(hardening 71); the JSON keeps its kinds and the pivots' summaries."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.test_hardening65_distill_version_checks import _session

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"
QWEN = DATA / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl"  # ssh: ... No route to host [msg 8]
GEMINI = DATA / "session-2026-10-02T08-00-5d2c1e6a.json"  # a traceback, ssh's Connection refused, an API 429
NO_ROUTE = "ssh: connect to host gpu01 port 2222: No route to host"
REFUSED = "ssh: connect to host gpu01 port 2222: Connection refused"
INVALID = ("launch_server.py: error: argument --speculative-algorithm: invalid choice: 'EAGLE3' "
           "(choose from 'EAGLE', 'NEXTN')")
KINDS = ("connection:", "tool_error:", "timeout:", "agent_error:", "exit_code:")


def test_a_connection_failure_is_what_ssh_printed() -> None:
    analysis = analyze_path(QWEN)
    assert [(e.seq, e.kind, e.message) for e in analysis.errors if e.kind == "connection"] == [(8, "connection", NO_ROUTE)]
    view = postmortem_view(analysis)
    assert view["went_well"][1] == (f"Changed approach after {NO_ROUTE} [msg 8]: checking the GPUs → inspecting "
                                    "configs and checkpoints [msg 10] (main).")
    md = render_postmortem(analysis, "md")
    assert f"| main | error | {NO_ROUTE} |" in md, md
    assert f"| main | pivot | After {NO_ROUTE} [[msg 8]](#msg-8), moved from checking the gpus" in md, md
    assert f"8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl:9`: {NO_ROUTE}; result of [[msg 5]](#msg-5): exit 255" in md
    for kind in KINDS:
        assert f"after {kind}" not in md.lower() and f"| {kind}" not in md and f"`: {kind}" not in md, kind
    whys = [step["why"] for step in distill_playbook(analysis)["steps"]]
    assert whys[1].endswith(f"Its result ({NO_ROUTE}) prompted a change of approach at [msg 10]."), whys
    # the JSON as it was: the kind, and the pivot's summary that says it
    doc = json.loads(analysis_json(analysis))
    assert [p["summary"][:len(NO_ROUTE) + 18] for p in doc["pivots"] if p["trigger_seq"] == 8] == [
        f"After connection: {NO_ROUTE}"]


def test_the_agents_own_error_keeps_its_name() -> None:
    """The agent's API failing is no failure of the work (test_lead18_first_error)."""
    analysis = analyze_path(GEMINI)
    assert [e.kind for e in analysis.errors] == ["traceback", "connection", "agent_error"]
    md = render_postmortem(analysis, "md")
    assert f"| main | error | {REFUSED} |" in md, md
    assert "| main | error | agent_error: \\[API Error: got status: 429 Too Many Requests." in md, md
    assert "| connection:" not in md


def test_a_tool_error_is_what_the_tool_said(tmp_path: Path) -> None:
    """Claude Code's failed call with no exit status: the launch's argparse error."""
    path = _session(tmp_path / "s.jsonl", [("ssh gpu01 'pip show sglang'", "Name: sglang\nVersion: 0.4.1")],
                    "ssh gpu01 'pip install -U \"sglang[all]==0.4.6\"'")
    analysis = analyze_path(path)
    assert [(e.kind, e.message) for e in analysis.errors] == [("tool_error", INVALID)]
    md = render_postmortem(analysis, "md")
    assert f"- First error: {INVALID} [[msg 2]](#msg-2) (main)." in md, md
    assert f"| main | error | {INVALID} |" in md, md
    assert f"| main | pivot | After {INVALID} [[msg 2]](#msg-2), moved from launching the server" in md, md
    assert "tool_error:" not in md


def test_a_timeout_its_line_does_not_call_one_says_it_timed_out(tmp_path: Path) -> None:
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
    analysis = analyze_path(path)
    said = "RuntimeError: deadline exceeded"  # the line that said so (hardening72 failures5), not "Polling ..."
    assert [(e.kind, e.message) for e in analysis.errors] == [("timeout", said)]
    md = render_postmortem(analysis, "md")
    assert f"- First error: timed out: {said} [[msg 2]](#msg-2) (main)." in md, md
    assert f"| main | pivot | After timed out: {said} [[msg 2]](#msg-2), moved from" in md, md
    assert "timeout:" not in md
    whys = {step.get("run"): step["why"] for step in distill_playbook(analysis)["steps"]}
    assert any(why.startswith(f"Waiting for the server. Its result (timed out: {said}) prompted")
               for why in whys.values()), whys


def test_the_words_of_each_kind() -> None:
    from spec_debug.session.failures import failure_said, summary_said

    assert failure_said(None, "timeout", "timed out (exit 124): 38%|###") == "timed out (exit 124): 38%|###"
    assert failure_said(None, "timeout", "Loading weights") == "timed out: Loading weights"
    assert failure_said(None, "timeout", "") == "timed out"
    assert failure_said(None, "connection", "") == "a failed connection"
    assert failure_said("ConnectionRefusedError", "connection", "[Errno 111] Connection refused") == (
        "ConnectionRefusedError: [Errno 111] Connection refused")  # an exception's name is said
    assert failure_said(None, "cuda_oom", "CUDA out of memory.") == "CUDA out of memory."  # hardening 73: worded
    assert summary_said(f"connection: {REFUSED}") == REFUSED
    assert summary_said("exit_code: curl: (22) error: 401", 22) == "exit status 22: curl: (22) error: 401"
    assert summary_said("IndexError: index 32000") == "IndexError: index 32000"
