"""Times written as epoch numbers are instants, not dropped: mini-swe-agent stamps each reply and
each command's output with ``extra.timestamp: time.time()`` (SWE-agent/mini-swe-agent
``src/minisweagent/models/litellm_model.py``, ``query`` and ``format_actions_output``), a
Responses API response carries ``created_at`` in whole seconds (openai/openai-python
``types/responses/response.py``), a JavaScript harness logs ``Date.now()`` milliseconds. Before,
such a session had no first or last time, and in a folder beside a Claude Code session the
timeline was left in file order."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.instants import instant, stamp
from spec_debug.session.postmortem import postmortem_view

SID = "7b1e2c4d-5f60-4a71-8b92-a3b4c5d6e7f8"
T0 = 1732900000.0  # 2024-11-29T17:06:40Z


def _claude_line(uuid: str, parent: str | None, ts: str, kind: str, content) -> str:
    # the envelope Claude Code writes (TRANSCRIPTS.md 1a; daaain/claude-code-log models.py)
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SID, "timestamp": ts,
                       "isSidechain": False, "cwd": "/work", "version": "2.1.30",
                       "message": {"role": kind, "content": content}})


def _mini_swe_agent_trajectory() -> dict:
    """A mini-swe-agent 1.1 trajectory as its tool-call model saves it: the system and task
    messages carry no time, the reply and the observation carry ``extra.timestamp``."""
    output = ("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
              "ModuleNotFoundError: No module named 'sglang'\n")
    return {"info": {"exit_status": "Submitted", "mini_version": "2.0.0"}, "trajectory_format": "mini-swe-agent-1.1",
            "messages": [
                {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
                {"role": "user", "content": "<pr_description>\nThe EAGLE-3 draft on gpu02 never loads.\n</pr_description>"},
                {"role": "assistant", "content": "",
                 "tool_calls": [{"id": "call_a1", "type": "function",
                                 "function": {"name": "bash", "arguments": json.dumps({"command": "python -c 'import sglang'"})}}],
                 "extra": {"actions": [{"command": "python -c 'import sglang'", "tool_call_id": "call_a1"}],
                           "response": {"id": "chatcmpl-1", "created": int(T0)}, "cost": 0.01,
                           "timestamp": T0 + 0.123456}},
                {"role": "tool", "tool_call_id": "call_a1",
                 "content": f"<returncode>1</returncode>\n<output>\n{output}</output>",
                 "extra": {"raw_output": output, "returncode": 1, "timestamp": T0 + 2.5}},
            ]}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "incident"
    folder.mkdir()
    (folder / f"{SID}.jsonl").write_text("\n".join([
        _claude_line("u1", None, "2024-11-29T17:00:00.000Z", "user", "gpu01 serves 40 tok/s with EAGLE-3; find out why"),
        _claude_line("a1", "u1", "2024-11-29T17:20:00.000Z", "assistant", [
            {"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi"}}]),
        _claude_line("u2", "a1", "2024-11-29T17:20:03.000Z", "user", [
            {"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
             "content": "Exit code 255\nssh: connect to host gpu01 port 22: Connection refused"}]),
    ]) + "\n", encoding="utf-8")
    (folder / "gpu02.traj.json").write_text(json.dumps(_mini_swe_agent_trajectory(), indent=2), encoding="utf-8")
    return folder


def test_mini_swe_agent_times_place_its_rows_in_a_folder_timeline(tmp_path: Path) -> None:
    a = analyze_path(_folder(tmp_path))
    mini = next(s for s in a.sessions if s["format"] != "claude-code")
    assert (mini["first_timestamp"], mini["last_timestamp"]) == ("2024-11-29T17:06:40.123Z", "2024-11-29T17:06:42.500Z")
    rows = postmortem_view(a)["timeline"]
    errors = [row["text"] for row in rows if row["kind"] == "error"]
    # 17:06 (gpu02, mini-swe-agent) happened between 17:00 and 17:20 (gpu01, Claude Code)
    assert [("sglang" in e, "gpu01" in e) for e in errors] == [(True, False), (False, True)], rows
    assert all(row["timestamp"] for row in rows), rows
    at = [instant(row["timestamp"]) for row in rows]
    assert at == sorted(at)
    # the untimed task prompt takes the time of the reply that answered it
    prompt = next(row for row in rows if row["kind"] == "prompt" and "gpu02" in row["text"])
    assert prompt["timestamp"] == "2024-11-29T17:06:40.123Z"


def test_a_harness_log_in_milliseconds_and_numeric_strings(tmp_path: Path) -> None:
    """A Node harness's chat log (``timestamp: Date.now()``), later lines rewritten by a tool that
    kept the number as a string: one session, first and last time right, in UTC."""
    log = tmp_path / "chat.jsonl"
    ms = int(T0 * 1000)
    log.write_text("\n".join(json.dumps(m) for m in [
        {"role": "user", "content": "why is accept len 1.0 on gpu03?", "timestamp": ms},
        {"role": "assistant", "content": None, "timestamp": ms + 4000,
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "bash", "arguments": "{\"command\": \"ssh gpu03 tail -n 50 /tmp/sglang.log\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "timestamp": str(ms + 9000),
         "content": "Decode batch, #running-req: 1, #token: 301, token usage: 0.00, accept len: 1.00, "
                    "accept rate: 0.25, cuda graph: True, gen throughput (token/s): 41.02, #queue-req: 0"},
        {"role": "assistant", "content": "The draft is rejected every step.", "timestamp": f"{T0 + 12.25}"},
    ]) + "\n", encoding="utf-8")
    a = analyze_path(log)
    (session,) = a.sessions
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2024-11-29T17:06:40.000Z", "2024-11-29T17:06:52.250Z")
    (command,) = a.commands
    assert command.timestamp == "2024-11-29T17:06:44.000Z"
    reading = next(m for m in a.metrics if m.name == "throughput")
    assert reading.timestamp == "2024-11-29T17:06:49.000Z"


def test_a_responses_api_response_saved_whole_takes_its_created_at(tmp_path: Path) -> None:
    """``{"object": "response", "created_at": 1741476542, "output": [...]}``: the items of the
    response have no time of their own, the response does."""
    path = tmp_path / "response.json"
    path.write_text(json.dumps({
        "id": "resp_67ccd2bed1ec8190", "object": "response", "created_at": 1741476542, "status": "completed",
        "model": "gpt-4.1-2025-04-14",
        "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "shell",
                    "arguments": "{\"command\": [\"bash\", \"-lc\", \"nvidia-smi\"]}", "status": "completed"}],
    }), encoding="utf-8")
    a = analyze_path(path)
    (command,) = a.commands
    assert command.command == "nvidia-smi"
    assert command.timestamp == "2025-03-08T23:29:02.000Z"


def test_stamp_reads_each_epoch_unit_and_leaves_what_is_no_time() -> None:
    iso = "2024-11-29T17:06:40.000Z"
    for value in (1732900000, 1732900000.0, "1732900000", 1732900000000, 1732900000000000, 1732900000000000000):
        assert stamp(value) == iso, value
    assert stamp(1732900000.5) == "2024-11-29T17:06:40.500Z"
    assert stamp("2025-06-14T10:03:00Z") == "2025-06-14T10:03:00Z"  # ISO as written
    # a default zero, an offset from the start, a bool, a compact date: no epoch time
    assert [stamp(v) for v in (0, 12.5, True, None, float("nan"))] == [None] * 5
    assert stamp("20250614") == "20250614" and instant("20250614") == instant("2025-06-14")
    assert instant("1732900000.5") == 1732900000.5
