"""Transcript shapes the readers got wrong (hardening round 10).

Each session is written here line by line in the shape the CLI writes (sources cited in each
test); names, hosts and outputs are ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SESSION = "7c1e2d3f-0a4b-4c5d-8e6f-9a0b1c2d3e4f"
AGENT = "a3f9c2e81b7d40c55"
_ENV = {"isSidechain": False, "userType": "external", "cwd": "/root/eagle3", "sessionId": SESSION,
        "version": "2.1.90", "gitBranch": "main"}


def _write(path: Path, lines: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _line(kind: str, uuid: str, ts: str, message: dict, **extra) -> dict:
    return {**_ENV, "type": kind, "uuid": uuid, "timestamp": f"2026-03-01T{ts}.000Z", "message": message, **extra}


def _sub(kind: str, uuid: str, ts: str, message: dict, **extra) -> dict:
    return _line(kind, uuid, ts, message, isSidechain=True, agentId=AGENT, **extra)


_STOP = "[Request interrupted by user for tool use]"


def _stopped(call: str) -> dict:
    """What the CLI writes for a call stopped with Esc (CLI 2.0.71 lines as transcript readers
    test them: ``toolUseResult: "Error: [Request interrupted by user for tool use]"``)."""
    return {"toolUseResult": f"Error: {_STOP}",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": _STOP,
                                                     "is_error": True}]}}


def _spawn(uuid: str, call: str) -> dict:
    return _line("assistant", uuid, "10:00:04", {
        "id": "msg_1", "role": "assistant", "model": "claude-opus-4-6",
        "content": [{"type": "tool_use", "id": call, "name": "Agent", "input": {
            "description": "Benchmark draft", "subagent_type": "general-purpose",
            "prompt": "Run the SGLang benchmark on gpu01"}}]})


def _interrupted_session(root: Path, meta: bool = True) -> Path:
    trunk = _write(root / f"{SESSION}.jsonl", [
        _line("user", "u1", "10:00:00", {"role": "user", "content": "accept length is 1.0 on gpu01, check the draft"}),
        _spawn("a1", "toolu_spawn"),
        {**_line("user", "u2", "10:03:00", {}), **_stopped("toolu_spawn")},
        _line("user", "u3", "10:03:00", {"role": "user", "content": [{"type": "text", "text": _STOP}]}),
        _line("user", "u4", "10:03:20", {"role": "user", "content": "stop, read the server log instead"}),
    ])
    subagents = root / SESSION / "subagents"
    _write(subagents / f"agent-{AGENT}.jsonl", [
        _sub("user", "s1", "10:00:05", {"role": "user", "content": "Run the SGLang benchmark on gpu01"}),
        _sub("assistant", "s2", "10:00:09", {"id": "msg_s2", "role": "assistant", "model": "claude-haiku-4-5",
                                             "content": [{"type": "tool_use", "id": "toolu_b1", "name": "Bash", "input": {
                                                 "command": "ssh gpu01 'python3 -m sglang.bench_serving --num-prompts 200'"}}]}),
        {**_sub("user", "s3", "10:03:00", {}), **_stopped("toolu_b1")},
    ])
    if meta:
        (subagents / f"agent-{AGENT}.meta.json").write_text(json.dumps(
            {"agentType": "general-purpose", "description": "Benchmark draft", "toolUseId": "toolu_spawn"}))
    return trunk


# -- a sub-agent the person stopped ---------------------------------------------------------------


def test_a_sub_agent_stopped_by_hand_is_interrupted_not_completed(tmp_path):
    """The person pressed Esc while an Agent call ran: its result is the CLI's
    "[Request interrupted by user for tool use]", with no agentId (the meta.json names the
    call). The sub-agent read as ``completed``; now it is ``interrupted``, and the postmortem
    says it was stopped."""
    _interrupted_session(tmp_path)
    a = analyze_path(tmp_path)
    doc = a.to_json()
    (sub,) = [x for x in doc["agents"] if x["id"] == AGENT]
    assert (sub["spawned_by"], sub["status"], sub["events"]) == ("toolu_spawn", "interrupted", 3)
    assert [x["status"] for x in doc["agents"] if x["id"] == "main"] == ["completed"]
    assert f"Sub-agent {AGENT} was stopped by hand (spawned by toolu_spawn)." in render_postmortem(a, "md")


def test_a_sub_agent_file_without_meta_that_ends_in_a_stop_is_interrupted(tmp_path):
    """No meta.json (CLI 2.0.x wrote none), so no result names the sub-agent: its own file
    ending in the stop says how it ended."""
    _interrupted_session(tmp_path, meta=False)
    doc = analyze_path(tmp_path).to_json()
    assert [x["status"] for x in doc["agents"] if x["id"] == AGENT] == ["interrupted"]


# -- every format detection finds can be forced -------------------------------------------------

H8 = Path(__file__).resolve().parent / "data_h8" / "formats"
SHARED = Path(__file__).resolve().parent.parent / "data" / "transcripts"
H19 = Path(__file__).resolve().parent.parent / "data" / "transcripts_hardening19"


def _cast(path: Path) -> Path:
    """An asciinema v2 recording: a header line, then ``[time, "o", text]`` frames."""
    frames = [[0.1, "o", "root@gpu01:~# nvidia-smi -L\r\n"], [0.3, "o", "GPU 0: NVIDIA H100 80GB HBM3\r\n"],
              [0.5, "o", "root@gpu01:~# "]]
    path.write_text(json.dumps({"version": 2, "width": 80, "height": 24, "timestamp": 1764482400}) + "\n"
                    + "".join(json.dumps(f) + "\n" for f in frames))
    return path


def _traj(path: Path) -> Path:
    """A SWE-agent trajectory of one step (see test_a_swe_agent_trajectory_reads_as_its_steps)."""
    path.write_text(json.dumps({"trajectory": [{"action": "nvidia-smi -L\n", "observation": "GPU 0: NVIDIA H100",
                                                "thought": "", "response": "", "state": {}, "query": [],
                                                "execution_time": 0.1, "extra_info": {}}],
                                "history": [{"role": "user", "content": "check the GPUs", "message_type": "observation"}],
                                "info": {"exit_status": "submitted"}}, indent=2))
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def test_every_format_detection_finds_can_be_forced(tmp_path):
    """``--input-format`` took only claude-code, codex, openai and text: an OpenHands
    trajectory, a ``codex exec --json`` stream, an asciinema recording or a SpecStory file
    could not be forced when detection was wrong (``discover(path, "openhands")`` was a usage
    error). Each is now read as itself when forced, as it is when detected."""
    from spec_debug.session.sources import INPUT_FORMATS, discover
    from tests.session import test_hardening20_formats_copilot_cli as copilot_cli
    from tests.session import test_hardening20_formats_pi_sessions as pi_sessions
    from tests.session import test_hardening21_formats_droid as droid
    from tests.session import test_hardening21_formats_grok as grok
    from tests.session import test_hardening21_formats_opencode as opencode
    from tests.session import test_hardening22_formats_crush as crush
    from tests.session import test_hardening22_formats_kimi_wire as kimi

    samples = {
        "claude-code": SHARED / "claude-code" / "representative_messages.jsonl",
        "codex": next((SHARED / "codex").glob("rollout-*.jsonl")),
        "codex-exec": H8 / "codex_exec_json_0.39.jsonl",
        "openai": H8 / "chat_requests.jsonl",
        "openhands": H8 / "openhands_trajectory.json",
        "text": H8 / "typescript_multiline.log",
        "asciicast": _cast(tmp_path / "gpu01.cast"),
        "specstory": H8 / "specstory_claude_code.md",
        "swe-agent": _traj(tmp_path / "x.traj"),
        "gemini-cli": H19 / "session-2026-10-02T08-00-5d2c1e6a.jsonl",
        "qwen-code": H19 / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl",
        "pi": pi_sessions._session(_folder(tmp_path / "pi")),
        "copilot": copilot_cli._session(_folder(tmp_path / "copilot")),
        "droid": droid._stream(tmp_path / "droid.jsonl"),
        "grok": grok._session(_folder(tmp_path / "grok")),
        "opencode": opencode._storage(_folder(tmp_path / "opencode")),
        "kimi": kimi._session(tmp_path / "kimi", kimi._wire()) / "wire.jsonl",
        "crush": crush._store(tmp_path / "crush" / ".crush"),
    }
    assert set(samples) == set(INPUT_FORMATS) - {"auto"}
    flags = {"codex-exec": ("codex", "exec_events"), "asciicast": ("text", "recording"),
             "specstory": ("text", "specstory")}
    for name, path in samples.items():
        autos, forceds = discover(path, None), discover(path, name)
        assert len(autos) == len(forceds) == (2 if name == "crush" else 1), name  # the crush store: two sessions
        auto, forced = autos[0], forceds[0]
        family, flag = flags.get(name, (name, None))
        assert forced.format == auto.format == family, name
        if flag:
            assert getattr(forced, flag) and getattr(auto, flag), name
        commands = [c["command"] for c in analyze_path(path, name).to_json()["commands"]]
        assert commands == [c["command"] for c in analyze_path(path).to_json()["commands"]], name


def test_a_wrong_input_format_name_lists_the_names(tmp_path):
    """A name no format has is one usage error that lists them all; case, ``_`` and the
    tools' own names (``claude``, ``asciinema``) are taken."""
    import pytest

    from spec_debug.errors import UsageError
    from spec_debug.session.sources import discover

    path = SHARED / "claude-code" / "representative_messages.jsonl"
    with pytest.raises(UsageError) as err:
        discover(path, "aider")
    assert "unknown input format 'aider'" in str(err.value)
    assert "claude-code, codex, codex-exec, openai, openhands, swe-agent, text, asciicast, specstory" in str(err.value)
    assert [s.format for s in discover(path, "Claude_Code")] == [s.format for s in discover(path, "claude")] == [
        "claude-code"]
    assert discover(_cast(tmp_path / "x.cast"), "asciinema")[0].recording


def test_a_forced_format_the_records_do_not_fit_is_refused_with_the_one_they_are(tmp_path):
    """``--input-format codex`` on a Claude Code session read every line as an unknown record
    and wrote the postmortem of an empty session ("0 tool calls"). Now it is one usage error
    naming the format the records are; forcing ``text`` (read the JSON as a log) still works,
    as does forcing a format on a file detection cannot place."""
    from spec_debug.errors import UsageError
    from spec_debug.session.sources import discover

    path = SHARED / "claude-code" / "representative_messages.jsonl"
    for forced in ("codex", "openhands", "codex-exec", "swe-agent"):
        try:
            discover(path, forced)
        except UsageError as err:
            assert str(err).startswith(f"{path}: --input-format {forced} does not fit: its records are claude-code's"), err
            assert "--input-format claude-code" in str(err)
        else:
            raise AssertionError(f"{forced} was taken")
    assert discover(path, "text")[0].format == "text"
    odd = tmp_path / "notes.jsonl"
    odd.write_text(json.dumps({"note": "no known record"}) + "\n")
    assert discover(odd, "codex")[0].format == "codex"


# -- OpenHands trajectories as the server hands them out ------------------------------------------


def test_an_openhands_trajectory_saved_from_the_server_reads_as_its_events(tmp_path):
    """``GET /api/conversations/{id}/trajectory`` (what the UI's download and API clients
    save) answers ``{"trajectory": [events]}`` (All-Hands-AI/OpenHands
    ``openhands/server/routes/trajectory.py``). Such a file was refused as "not a session
    transcript"; forced, it read as one unknown record. Now it reads as the bare list does,
    compact or indented."""
    events = json.loads((H8 / "openhands_trajectory.json").read_text())
    bare = analyze_path(H8 / "openhands_trajectory.json").to_json()
    assert bare["commands"]
    for name, text in (("compact.json", json.dumps({"trajectory": events})),
                       ("indented.json", json.dumps({"trajectory": events}, indent=2))):
        path = tmp_path / name
        path.write_text(text)
        for forced in (None, "openhands"):
            doc = analyze_path(path, forced).to_json()
            assert doc["format"] == "openhands"
            assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
                (c["command"], c["exit_code"]) for c in bare["commands"]]
            assert doc["stats"]["events"] == bare["stats"]["events"] and doc["stats"]["unknown_types"] == 0


# -- progress lines that carry the sub-agent's whole history ----------------------------------------


def test_progress_lines_with_normalized_messages_count_each_message_once(tmp_path):
    """CLI 2.1.11-2.1.14 wrote, in each ``agent_progress`` line, the sub-agent's whole history
    so far under ``data.normalizedMessages`` beside the new ``data.message``
    (anthropics/claude-code issues #19040, #20129: "every progress event duplicates the entire
    conversation history"). With the sub-agent's file gone, its messages are the
    ``data.message`` of each line, once: the history copies are not read again."""
    history: list[dict] = []
    prompt = {"type": "user", "uuid": "s1", "timestamp": "2026-01-20T09:00:06.000Z",
              "message": {"role": "user", "content": "Check the draft model's aux layer ids on gpu01"}}
    call = {"type": "assistant", "uuid": "s2", "timestamp": "2026-01-20T09:00:08.000Z",
            "message": {"id": "msg_s2", "role": "assistant", "model": "claude-haiku-4-5", "content": [
                {"type": "tool_use", "id": "toolu_s2", "name": "Bash",
                 "input": {"command": "ssh gpu01 'grep -A3 aux_hidden /models/eagle3/config.json'"}}]}}
    result = {"type": "user", "uuid": "s3", "timestamp": "2026-01-20T09:00:10.000Z",
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s2",
                                                        "is_error": True, "content": "Exit code 2\ngrep: /models/eagle3/config.json: No such file or directory"}]}}
    lines = [
        _line("user", "u1", "09:00:00", {"role": "user", "content": "accept length is 1.0 on gpu01"}),
        _spawn("a1", "toolu_spawn1"),
    ]
    for i, message in enumerate((prompt, call, result)):
        history.append(message)
        lines.append({**_ENV, "version": "2.1.14", "type": "progress", "uuid": f"p{i}", "parentUuid": "a1",
                      "timestamp": message["timestamp"], "toolUseID": f"agent_msg_{i}",
                      "parentToolUseID": "toolu_spawn1",
                      "data": {"type": "agent_progress", "agentId": AGENT, "prompt": prompt["message"]["content"],
                               "message": message, "normalizedMessages": list(history)}})
    lines.append({**_line("user", "u2", "09:00:30", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_spawn1", "content": "No aux layer ids in the config."}]}),
        "toolUseResult": {"status": "completed", "agentId": AGENT}})
    path = _write(tmp_path / f"{SESSION}.jsonl", lines)
    doc = analyze_path(path).to_json()
    (sub,) = [a for a in doc["agents"] if a["id"] == AGENT]
    assert (sub["events"], sub["tool_calls"], sub["failed_calls"], sub["status"]) == (3, 1, 1, "completed")
    assert [(c["agent"], c["host"]) for c in doc["commands"]] == [(AGENT, "gpu01")]
    assert doc["stats"]["events"] == 6 and doc["sessions"][0]["missing_agent_files"] == []


# -- a session resumed into a new file ------------------------------------------------------------


def _hook_line(sid: str, uuid: str, ts: str) -> dict:
    """A SessionStart hook's line, written by the process before the conversation (the
    ``hook_progress`` shape of CLI 2.1.x; files that start with ``progress`` lines:
    anthropics/claude-code issue #39658)."""
    return {**_ENV, "sessionId": sid, "type": "progress", "uuid": uuid, "parentUuid": None,
            "timestamp": f"2026-03-01T{ts}.000Z", "toolUseID": f"hook-{uuid}", "parentToolUseID": f"hook-{uuid}",
            "data": {"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:startup",
                     "command": "~/.claude/hooks/gpu-env.sh"}}


def test_a_resumed_session_whose_new_file_opens_with_its_own_hook_line_is_counted_once(tmp_path):
    """``claude --resume A`` writes B starting with A's conversation, same uuids
    (anthropics/claude-code issues #4926, #28463). When each process first wrote a hook line
    of its own, B's first uuid was not A's, the copy went unseen, and A's failed benchmark
    and its CUDA OOM were counted twice. Now only the conversation's uuids are compared."""
    a_id, b_id = "aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002"

    def conv(sid, kind, uuid, ts, content):
        return {**_line(kind, uuid, ts, {"role": kind, "content": content}), "sessionId": sid}

    history = [
        conv(a_id, "user", "u1", "10:00:00", "why is the EAGLE-3 draft slower than the baseline on gpu01?"),
        conv(a_id, "assistant", "a1", "10:00:05", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                    "input": {"command": "ssh gpu01 'python3 /root/bench_eagle3.py'"}}]),
        conv(a_id, "user", "u2", "10:01:00", [{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                                               "content": "Exit code 1\nTraceback (most recent call last):\n"
                                               "  File \"/root/bench_eagle3.py\", line 9, in <module>\n"
                                               "torch.OutOfMemoryError: CUDA out of memory."}]),
    ]
    project = tmp_path / "-root-eagle3"
    _write(project / f"{a_id}.jsonl", [_hook_line(a_id, "h-a", "10:00:00"), *history])
    _write(project / f"{b_id}.jsonl", [
        _hook_line(b_id, "h-b", "11:00:00"), *history,
        conv(b_id, "user", "u3", "11:00:10", "retry with a smaller batch"),
        conv(b_id, "assistant", "a3", "11:00:15", [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {
            "command": "ssh gpu01 'python3 /root/bench_eagle3.py --bs 8'"}}]),
        conv(b_id, "user", "u4", "11:01:00", [{"type": "tool_result", "tool_use_id": "t2", "is_error": False,
                                               "content": "Output token throughput (tok/s): 88.1"}]),
    ])
    doc = analyze_path(project).to_json()
    assert [s["id"] for s in doc["sessions"]] == [b_id]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu01 'python3 /root/bench_eagle3.py'", 1), ("ssh gpu01 'python3 /root/bench_eagle3.py --bs 8'", 0)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]


# -- Codex rollouts of the newest CLIs --------------------------------------------------------------


def test_newer_codex_rollout_lines_are_read_not_called_unknown(tmp_path):
    """Newer Codex CLIs write more line types than the five of 2025 (``RolloutItemWire`` in
    openai/codex ``codex-rs/protocol``: ``inter_agent_communication``, ``world_state``,
    ``security_risk_score``, ``token_usage_record``, ...) and an ``ordinal`` on each line. Each
    was an unknown line type (the postmortem said the reader did not understand 4 lines), and
    the report a sub-agent sent its parent was lost. Now the report is a message of the
    session and the bookkeeping lines are known; the failed command counts once."""
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    ts = iter(f"2026-09-01T08:00:{s:02d}.000Z" for s in range(60))
    command = "ssh gpu01 'python3 -m sglang.launch_server --speculative-algorithm EAGLE3'"
    traceback = ("Traceback (most recent call last):\n  File \"/opt/sglang/srt/models/llama_eagle3.py\", line 120, "
                 "in load_weights\nKeyError: 'midlayer.hidden_norm.weight'\n")
    items = [
        ("session_meta", {"id": "019a0000-0000-7000-8000-0000000000aa", "timestamp": "2026-09-01T08:00:00.000Z",
                          "cwd": "/root/eagle3", "originator": "codex_cli_rs", "cli_version": "0.150.0",
                          "source": "cli", "model_provider": "openai"}),
        ("turn_context", {"turn_id": "t1", "cwd": "/root/eagle3", "model": "gpt-5.5-codex", "approval_policy":
                          "on-request", "sandbox_policy": {"type": "workspace-write"}}),
        ("world_state", {"state": {"cwd": "/root/eagle3", "shell": "bash"}}),
        ("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "the EAGLE-3 server on gpu01 will not start, find out why"}]}),
        ("response_item", {"type": "function_call", "name": "exec_command", "call_id": "call_1",
                           "arguments": json.dumps({"cmd": command, "yield_time_ms": 10000})}),
        ("event_msg", {"type": "exec_command_end", "call_id": "call_1", "turn_id": "t1",
                       "command": ["bash", "-lc", command], "cwd": "/root/eagle3", "stdout": "", "stderr": traceback,
                       "aggregated_output": traceback, "exit_code": 1, "duration": {"secs": 41, "nanos": 0},
                       "formatted_output": traceback, "status": "failed"}),
        ("response_item", {"type": "function_call_output", "call_id": "call_1",
                           "output": "Process exited with code 1\nOutput:\n" + traceback}),
        ("security_risk_score", {"score": 0.1}),
        ("inter_agent_communication", {"author": "/root/checkpoint_checker", "recipient": "/root",
                                       "other_recipients": [], "trigger_turn": True,
                                       "content": "The draft checkpoint names its norm midlayer.norm, not hidden_norm."}),
        ("token_usage_record", {"input_tokens": 5120, "output_tokens": 240}),
    ]
    lines = [{"timestamp": next(ts), "ordinal": i, "type": kind, "payload": payload}
             for i, (kind, payload) in enumerate(items)]
    path = _write(tmp_path / "rollout-2026-09-01T08-00-00-019a0000-0000-7000-8000-0000000000aa.jsonl", lines)
    (source,) = discover(path)
    assert source.format == "codex"
    events = list(iter_events(source, ReadStats(), AgentTree()))
    assert [(e.kind, e.text) for e in events if e.raw_type == "inter_agent_communication"] == [
        ("system", "message from /root/checkpoint_checker: The draft checkpoint names its norm midlayer.norm, "
                   "not hidden_norm.")]
    doc = analyze_path(path).to_json()
    assert doc["stats"]["unknown_types"] == 0
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [(command, 1)]
    assert [(e["exception"], e["message"]) for e in doc["errors"]] == [("KeyError", "'midlayer.hidden_norm.weight'")]


# -- OpenAI chat logs with the legacy function_call beside tool_calls --------------------------------


def test_a_legacy_function_call_beside_empty_tool_calls_is_the_call(tmp_path):
    """Servers and loggers write both call fields, the unused one empty: vLLM answers
    ``"function_call": null, "tool_calls": []`` (the responses quoted in vLLM issues), and a
    log that defaults the fields writes ``"tool_calls": []`` beside a legacy
    ``function_call``. The empty list hid the legacy call (its command and its exit status
    were lost); an empty ``function_call: {}`` was read as a call named "?". Now the call
    field that holds a call is read, and an empty one is no call."""
    messages = [
        {"role": "user", "content": "throughput on gpu01 dropped to 40 tok/s with the EAGLE-3 draft"},
        {"role": "assistant", "content": "Let me look at the GPUs.", "tool_calls": None, "function_call": {}},
        {"role": "assistant", "content": None, "refusal": None, "tool_calls": [],
         "function_call": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi"})}},
        {"role": "function", "name": "bash", "content": "Exit code 9\nNVIDIA-SMI has failed because it couldn't "
                                                         "communicate with the NVIDIA driver."},
        {"role": "assistant", "content": "The driver is gone; the server fell back to CPU.", "function_call": None,
         "tool_calls": []},
    ]
    path = tmp_path / "agent_log.json"
    path.write_text(json.dumps({"messages": messages}))
    doc = analyze_path(path).to_json()
    assert doc["stats"]["tool_calls"] == 1
    assert [(c["seq"], c["command"], c["host"], c["exit_code"]) for c in doc["commands"]] == [
        (2, "ssh gpu01 nvidia-smi", "gpu01", 9)]


# -- distill: a command line that timed itself ------------------------------------------------------


def test_a_command_that_timed_itself_keeps_its_limit_wherever_timeout_stands(tmp_path):
    """``timeout`` counted only at the very start of the line. ``sudo timeout 60 nvidia-smi
    dmon`` and ``cd /root/logs && timeout 120 tail -f server.log | grep ...`` (a minute of GPU
    samples, two of log taken during a benchmark) then got the 30 s limit of a command that
    follows its output, and their capture was cut short; ``timeout 5 nvidia-smi -L; python3
    bench.py`` gave the benchmark 5 s. Now each bounded command counts, and a line with an
    unbounded one has no limit of its own."""
    from datetime import datetime, timezone

    from spec_debug.session.distill import distill_playbook
    from tests.session.incident_story import _Writer

    gpu = "10.1.230.174"
    w = _Writer("8a1b0000-0000-4000-8000-00000000cd10", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt(f"EAGLE-3 on {gpu} is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    dmon = "sudo timeout 60 nvidia-smi dmon -s u"
    tail = "cd /root/logs && timeout 120 tail -f server.log | grep --line-buffered 'accept len'"
    bench = "timeout 5 nvidia-smi -L; python3 -m sglang.bench_serving --backend sglang --num-prompts 64"
    w.bash(f"ssh root@{gpu} '{dmon}'", "# gpu    sm   mem\n# Idx     %     %\n    0    31     12\n")
    w.bash(f'ssh root@{gpu} "{tail}"', "Decode batch, #running-req: 8, accept len: 1.02, gen throughput (token/s): 54.8")
    w.bash(f"ssh root@{gpu} '{bench}'", "GPU 0: NVIDIA H100 80GB HBM3\nOutput token throughput (tok/s):  54.8\n")
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    limits = {s["run"]: s.get("timeout") for s in distill_playbook(analyze_path(path))["steps"]}
    assert limits == {tail.replace("/root/logs", "{{ logs }}"): 120, bench: None}
    # The dmon capture led to no finding, so distill keeps no step of it; its limit is the same.
    from spec_debug.session.timeout_limit import timeout_limit

    assert [timeout_limit(c) for c in (dmon, tail, bench)] == [60, 120, None]


# -- a compaction summary without isCompactSummary ----------------------------------------------------


def test_a_compaction_summary_without_its_flag_is_not_the_first_prompt(tmp_path):
    """CLIs before ``isCompactSummary``, and sessions resumed from a compacted one, open with the
    CLI's "This session is being continued from a previous conversation that ran out of
    context..." as a plain user line (the ``--resume`` picker shows it as the session's text:
    fgrehm/clotilde README; transcript readers match the phrase). It was the first prompt and
    the postmortem's title; now it is the summary it is, and the person's prompt leads."""
    from spec_debug.session.postmortem import render_postmortem

    summary = ("This session is being continued from a previous conversation that ran out of context. The "
               "conversation is summarized below:\nAnalysis:\nThe user asked why the EAGLE-3 accept length is 1.0 "
               "on gpu01; the draft config was checked.")
    path = _write(tmp_path / f"{SESSION}.jsonl", [
        {**_line("user", "u1", "10:00:00", {"role": "user", "content": summary}), "version": "1.0.30"},
        {**_line("assistant", "a1", "10:00:05", {"role": "assistant", "content": [
            {"type": "text", "text": "Continuing with the draft config check."}]}), "version": "1.0.30"},
        {**_line("user", "u2", "10:01:00", {"role": "user", "content": [
            {"type": "text", "text": "check the aux layer ids on gpu01 now"}]}), "version": "1.0.30"},
    ])
    a = analyze_path(path)
    assert [(p.seq, p.text) for p in a.prompts] == [(2, "check the aux layer ids on gpu01 now")]
    assert render_postmortem(a, "md").startswith("# Postmortem: check the aux layer ids on gpu01 now\n")


def test_a_stopped_sub_agent_reads_the_same_with_workers(monkeypatch, tmp_path):
    """The parallel read (spec_debug.session.parallel) gives the same analysis, interrupted
    status included, with the files cut into spans of a line or two."""
    from test_session_parallel import _both

    _interrupted_session(tmp_path, meta=False)
    one, many = _both(monkeypatch, tmp_path, span_bytes=500)
    assert [a["status"] for a in json.loads(one)["agents"] if a["id"] == AGENT] == ["interrupted"]
    assert many == one


def test_a_codex_sub_agent_whose_turn_was_stopped_by_hand_is_interrupted(tmp_path):
    """A Codex sub-agent thread whose rollout ends in ``event_msg`` ``turn_aborted`` with reason
    ``interrupted`` (Esc: openai/codex ``codex-rs/protocol`` ``TurnAbortedEvent``) read as
    ``completed``. Now it is ``interrupted``; one that went on after the stop is not."""
    from test_session_real_layouts import CHILD, CHILD_ROLLOUT, PARENT, PARENT_ROLLOUT, _exec, _rl

    day = tmp_path / "sessions" / "2026" / "05" / "12"
    day.mkdir(parents=True)
    (day / f"rollout-2026-05-12T08-00-00-{PARENT}.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in PARENT_ROLLOUT))
    child = day / f"rollout-2026-05-12T08-00-05-{CHILD}.jsonl"
    stopped = [*CHILD_ROLLOUT[:-1], _exec("00:08", "call_bench2", "ssh gpu01 'python3 -m sglang.bench_serving'"),
               _rl("00:30", "event_msg", {"type": "turn_aborted", "turn_id": "t2", "reason": "interrupted"})]
    child.write_text("".join(json.dumps(x) + "\n" for x in stopped))
    doc = analyze_path(tmp_path / "sessions").to_json()
    assert [(a["id"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
        ("main", None, "completed"), (CHILD, "call_spawn", "interrupted")]
    child.write_text("".join(json.dumps(x) + "\n" for x in CHILD_ROLLOUT))
    assert [a["status"] for a in analyze_path(tmp_path / "sessions").to_json()["agents"]] == ["completed", "failed"]


# -- OpenHands V1 (software-agent-sdk) conversation folders ------------------------------------------


def _oh_conversation(root: Path) -> Path:
    """``~/.openhands/conversations/<id>/``: ``base_state.json`` and ``events/event-<index>-<event
    id>.json``, one event a file (OpenHands/software-agent-sdk ``persistence_const.py``), in the
    shapes the SDK serialises (``event/llm_convertible/*.py``; ``TerminalObservation`` with
    ``exit_code`` and ``metadata``, as published OpenHands session dumps show them)."""
    import uuid

    conv = root / "5f0c2a9e3d1b4c7a8e6f1a2b3c4d5e6f"
    (conv / "events").mkdir(parents=True)
    (conv / "base_state.json").write_text(json.dumps({"id": "5f0c2a9e-3d1b-4c7a-8e6f-1a2b3c4d5e6f",
                                                       "agent": {"kind": "Agent"}, "execution_status": "finished"}))
    launch = "ssh gpu01 'python3 -m sglang.launch_server --model /models/llama3-8b --speculative-algorithm EAGLE3'"
    traceback = ("Traceback (most recent call last):\n  File \"/opt/sglang/srt/models/llama_eagle3.py\", line 120, in "
                 "load_weights\nKeyError: 'midlayer.hidden_norm.weight'")

    def text(value):
        return [{"cache_prompt": False, "type": "text", "text": value}]

    def observation(out, code, command, is_error=False):
        return {"content": text(out), "is_error": is_error, "command": command, "exit_code": code, "timeout": False,
                "metadata": {"exit_code": -1 if code is None else code, "pid": -1, "username": "root",
                             "hostname": "a1b2c3", "working_dir": "/workspace", "prefix": "",
                             "suffix": f"\n[The command completed with exit code {code}.]"},
                "kind": "TerminalObservation"}

    events = [
        {"kind": "SystemPromptEvent", "source": "agent", "system_prompt": text("You are OpenHands agent...")},
        {"kind": "MessageEvent", "source": "user", "llm_message": {"role": "user", "content": text(
            "the EAGLE-3 server on gpu01 will not start, find out why")}},
        {"kind": "ActionEvent", "source": "agent", "thought": text("Let me start the server and read its error."),
         "action": {"command": launch, "is_input": False, "timeout": 600, "reset": False, "kind": "TerminalAction"},
         "tool_name": "terminal", "tool_call_id": "toolu_01", "llm_response_id": "resp_1",
         "tool_call": {"id": "toolu_01", "name": "terminal", "arguments": json.dumps({"command": launch})}},
        {"kind": "ObservationEvent", "source": "environment", "tool_name": "terminal", "tool_call_id": "toolu_01",
         "action_id": "a", "observation": observation(traceback, 1, launch)},
        {"kind": "ActionEvent", "source": "agent", "thought": [], "tool_name": "file_editor",
         "tool_call_id": "toolu_02", "llm_response_id": "resp_2", "tool_call": {"id": "toolu_02", "name": "file_editor"},
         "action": {"command": "view", "path": "/models/eagle3/config.json", "kind": "FileEditorAction"}},
        {"kind": "ObservationEvent", "source": "environment", "tool_name": "file_editor", "tool_call_id": "toolu_02",
         "action_id": "b", "observation": {"content": text('{"architectures": ["LlamaForCausalLMEagle3"]}'),
                                           "is_error": False, "kind": "FileEditorObservation"}},
        {"kind": "ConversationStateUpdateEvent", "source": "environment", "key": "execution_status", "value": "idle"},
    ]
    for index, event in zip((0, 1, 2, 3, 4, 99999, 100000), events):
        event_id = str(uuid.UUID(int=index + 1))
        event = {"id": event_id, "timestamp": f"2026-09-01T08:00:{min(index, 59):02d}.{index:06d}", **event}
        (conv / "events" / f"event-{index:05d}-{event_id}.json").write_text(json.dumps(event))
    return conv


def test_an_openhands_sdk_conversation_folder_is_one_session(tmp_path):
    """OpenHands V1 keeps a conversation as a folder of one-event JSON files. Each file was read
    as a session of its own (an event's ``{id, timestamp}`` passed for a Codex rollout header):
    seven one-event "Codex" sessions, no command, no error. Now the folder is one OpenHands
    session, its events in index order (``event-100000`` after ``event-99999``), whether PATH
    is the conversation, its ``events/`` or the CLI's conversations folder."""
    conv = _oh_conversation(tmp_path / "conversations")
    launch = "ssh gpu01 'python3 -m sglang.launch_server --model /models/llama3-8b --speculative-algorithm EAGLE3'"
    for path in (conv, conv / "events", tmp_path / "conversations"):
        doc = analyze_path(path).to_json()
        assert (doc["format"], [s["id"] for s in doc["sessions"]]) == ("openhands", [conv.name]), path
        assert doc["stats"]["unknown_types"] == 0
        assert [p["text"] for p in doc["prompts"]] == ["the EAGLE-3 server on gpu01 will not start, find out why"]
        assert [(c["command"], c["host"], c["exit_code"]) for c in doc["commands"]] == [(launch, "gpu01", 1)]
        assert [(e["exception"], e["message"]) for e in doc["errors"]] == [("KeyError", "'midlayer.hidden_norm.weight'")]
    from spec_debug.session.agents import AgentTree
    from spec_debug.session.events import ReadStats
    from spec_debug.session.sources import discover, iter_events

    (source,) = discover(conv)
    events = list(iter_events(source, ReadStats(), AgentTree()))
    assert [(e.kind, e.tool_name, e.path) for e in events if e.kind == "tool_call"] == [
        ("tool_call", "terminal", None), ("tool_call", "Read", "/models/eagle3/config.json")]
    assert events[-1].raw_type == "ConversationStateUpdateEvent"


# -- distill: commands that change the host, which a playbook must not repeat ------------------------

CHANGES_H10 = {
    # stale download locks cleared (findutils: -delete and -exec run on every match)
    "find ~/.cache/huggingface -name '*.lock' -delete": "find -delete",
    "find /models/eagle3 -name '*.incomplete' -exec rm {} +": "find -exec rm",
    # the fix a session ends with: a corrected config copied over the served one
    "cp /tmp/config.fixed.json /models/eagle3/config.json": "cp to /models/eagle3/config.json",
    "rsync -av gpu02:/models/eagle3/ /models/eagle3/": "rsync to /models/eagle3/",
    "curl -fsSLo /models/eagle3/model.safetensors https://huggingface.co/x/resolve/main/model.safetensors":
        "curl writes /models/eagle3/model.safetensors",
    "wget https://huggingface.co/x/resolve/main/config.json": "wget downloads a file",
    "tar -xzf eagle3-draft.tgz -C /models": "tar",
    "touch /root/sglang/.reload": "touch",
}
READS_H10 = [
    "find /models -name config.json -exec grep -l draft_vocab_size {} \\;",
    "cp /models/eagle3/config.json /tmp/cfg.json", "curl -s http://localhost:30000/get_server_info",
    "curl -s -o /dev/null -w '%{http_code}' http://localhost:30000/health", "wget -qO- http://localhost:30000/metrics",
    "tar -tzf eagle3-draft.tgz", "tar czf /tmp/logs.tgz /root/sglang/logs", "mkdir -p /tmp/bench", "unzip -l draft.zip",
]


def test_copies_downloads_and_find_actions_change_the_host():
    """``find ... -delete``, ``cp`` over a served config, ``curl -o``/``wget`` downloads and
    ``tar -x`` read as commands that only read, so ``distill`` kept them as playbook steps an
    on-call would rerun against a production host. Now they are changes (left out), and the
    same programs used to read stay readers."""
    from spec_debug.session.distill import changes_host

    assert {command: changes_host(command) for command in CHANGES_H10} == CHANGES_H10
    assert [command for command in READS_H10 if changes_host(command)] == []


def test_samplers_without_a_count_get_the_time_limit_of_a_command_that_follows_its_output():
    """``vmstat 1``, ``iostat -xz 1``, ``sar -n DEV 1``, ``dstat``, ``free -s 1``, ``gpustat -i
    1`` and ``nvitop`` report until stopped (sysstat and procps manuals: an interval and no
    count); as playbook steps without a time limit the run waited on them forever. With a
    count they end, and stay unlimited."""
    from spec_debug.session.follow import follows_output

    forever = ["vmstat 1", "iostat -xz 1", "mpstat -P ALL 1", "sar -n DEV 1", "pidstat -u 1", "dstat", "free -s 1",
               "gpustat -i 1", "nvitop"]
    ending = ["vmstat 1 5", "iostat -x 1 3", "sar -u 1 3", "dstat -cdngy 1 10", "free -h", "free -s 1 -c 3",
              "gpustat", "nvitop -1", "vmstat", "iostat"]
    assert [c for c in forever if not follows_output(c)] == []
    assert [c for c in ending if follows_output(c)] == []
    assert follows_output("vmstat 1") == "vmstat with an interval and no count"


def test_a_sub_agent_whose_file_is_gone_is_told_as_a_missing_transcript(tmp_path):
    """The postmortem said "Sub-agent a3f9c2e81b7d40c55 missing (spawned by toolu_spawn)." as
    if the agent had vanished; it is its transcript that is not there (the session folder was
    copied without ``subagents/``), so its work is unknown."""
    from spec_debug.session.postmortem import render_postmortem

    _write(tmp_path / f"{SESSION}.jsonl", [
        _line("user", "u1", "10:00:00", {"role": "user", "content": "accept length is 1.0 on gpu01, check the draft"}),
        _spawn("a1", "toolu_spawn"),
        {**_line("user", "u2", "10:03:00", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_spawn", "content": "The draft has no eagle_config."}]}),
         "toolUseResult": {"status": "completed", "agentId": AGENT}},
    ])
    a = analyze_path(tmp_path)
    assert [x["status"] for x in a.to_json()["agents"] if x["id"] == AGENT] == ["missing"]
    md = render_postmortem(a, "md")
    assert (f"- Sub-agent {AGENT} (spawned by toolu_spawn): its transcript is missing, so what it did is not in "
            "this analysis.\n") in md


# -- a session file that holds its history more than once ---------------------------------------------


def test_a_history_rewritten_at_every_turn_counts_each_command_once(tmp_path):
    """Claude Code 1.0.x driven with ``--input-format stream-json`` wrote the whole history
    again into the session file at every turn (anthropics/claude-code issue #5034, CLI 1.0.67:
    "each subsequent message ... causes the previous conversation history to be duplicated").
    The failing benchmark of turn 1 was counted three times, an error each time, and read as
    "The same failing command ran 3 times". Now each call and result is read once."""
    bench = "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --num-prompts 64'"
    oom = ("Exit code 1\nTraceback (most recent call last):\n  File \"/root/bench.py\", line 9, in <module>\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")

    def turn(n: int, command: str, output: str, failed: bool) -> list[dict]:
        ts = f"10:0{n}"
        return [
            {**_line("user", f"u{n}", f"{ts}:00", {"role": "user", "content": f"turn {n}: check gpu01"}),
             "version": "1.0.67"},
            {**_line("assistant", f"a{n}", f"{ts}:05", {"id": f"msg_{n}", "role": "assistant", "content": [
                {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}]}),
             "version": "1.0.67"},
            {**_line("user", f"r{n}", f"{ts}:30", {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": output, "is_error": failed}]}),
             "version": "1.0.67"},
        ]

    turns = [turn(1, bench, oom, True), turn(2, "ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3", False),
             turn(3, "ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'", "memory.used [MiB]\n79000 MiB",
                  False)]
    lines: list[dict] = []
    for i in range(len(turns)):  # at each turn, the history so far again, then the new turn
        lines += [line for t in turns[:i] for line in t] + turns[i]
    doc = analyze_path(_write(tmp_path / f"{SESSION}.jsonl", lines)).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        (bench, 1), ("ssh gpu01 nvidia-smi -L", 0), ("ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'", 0)]
    assert [e["exception"] for e in doc["errors"]] == ["torch.OutOfMemoryError"]
    assert doc["loops"] == [] and doc["stats"]["tool_calls"] == 3


def test_an_openhands_v0_file_store_conversation_is_one_session(tmp_path):
    """The V0 app keeps a conversation as ``sessions/<sid>/metadata.json`` and ``events/<id>.json``,
    one V0 event a file (All-Hands-AI/OpenHands ``openhands/storage/locations.py``), with pages
    of them cached in ``event_cache/``. Each event file was a one-event session and each cached
    page a session of its own (every command twice). Now the conversation is one session, its
    events by id (``10.json`` after ``9.json``), the cache left out."""
    events = json.loads((H8 / "openhands_trajectory.json").read_text())
    conv = tmp_path / "sessions" / "9f1c2d3e4b5a69788796a5b4c3d2e1f0"
    (conv / "events").mkdir(parents=True)
    (conv / "event_cache").mkdir()
    (conv / "metadata.json").write_text(json.dumps({"conversation_id": conv.name, "title": "EAGLE-3 slow"}))
    # ids spaced out (the store skips the hidden ones), so that 12.json comes after 9.json
    events = [{**e, "id": e["id"] * 3, **({"cause": e["cause"] * 3} if isinstance(e.get("cause"), int) else {})}
              for e in events]
    assert max(e["id"] for e in events) >= 10
    for event in events:
        (conv / "events" / f"{event['id']}.json").write_text(json.dumps(event))
    (conv / "event_cache" / f"0-{len(events)}.json").write_text(json.dumps(events))
    bare = analyze_path(H8 / "openhands_trajectory.json").to_json()
    for path in (conv, tmp_path / "sessions"):
        doc = analyze_path(path).to_json()
        assert (doc["format"], [s["id"] for s in doc["sessions"]]) == ("openhands", [conv.name])
        assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
            (c["command"], c["exit_code"]) for c in bare["commands"]]
        assert doc["stats"]["events"] == bare["stats"]["events"]


# -- SWE-agent trajectories ---------------------------------------------------------------------------


def test_a_swe_agent_trajectory_reads_as_its_steps(tmp_path):
    """A SWE-agent run folder (``<instance>/<instance>.traj``, written with ``indent=2``, beside
    ``<instance>.{trace,debug,info}.log``: SWE-agent/SWE-agent ``sweagent/agent/agents.py``,
    ``sweagent/run/run_batch.py``) was refused as "not a session transcript", or read as three
    text logs. Now the trajectory is the session: the task, each step's thought, command and
    output, and how the run ended; its logs are not sessions of their own."""
    traceback = ("Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 7, in <module>\n"
                 "    model.load_state_dict(state)\nRuntimeError: Error(s) in loading state_dict for Eagle3Draft:\n"
                 "\tsize mismatch for fc.weight: copying a param with shape torch.Size([4096, 12288]) from checkpoint, "
                 "the shape in current model is torch.Size([4096, 8192]).")
    steps = [
        {"action": "python reproduce.py\n", "observation": traceback, "response": "Let me reproduce it first.",
         "thought": "Let me reproduce it first.", "execution_time": 3.1, "state": {"working_dir": "/repo"},
         "query": [{"role": "system", "content": "SETTING"}], "extra_info": {}},
        {"action": "grep -n aux_hidden_state_layer_ids /repo/eagle3/config.py\n", "observation": "12:    "
         "aux_hidden_state_layer_ids = [2, 16]", "response": "", "thought": "The fc takes three layers, the config "
         "lists two.", "execution_time": 0.2, "state": {}, "query": [], "extra_info": {}},
        {"action": "submit\n", "observation": "", "response": "", "thought": "", "execution_time": 0.1, "state": {},
         "query": [], "extra_info": {}},
    ]
    history = [{"role": "system", "content": "SETTING: You are an autonomous programmer", "agent": "main",
                "message_type": "system_prompt"},
               {"role": "user", "content": [{"type": "text", "text": "<uploaded_files>/repo</uploaded_files>\nThe "
                                             "EAGLE-3 draft does not load: size mismatch for fc.weight"}],
                "agent": "main", "message_type": "observation"}]
    run = tmp_path / "eagle3__draft-17"
    run.mkdir()
    traj = run / "eagle3__draft-17.traj"
    traj.write_text(json.dumps({"trajectory": steps, "history": history,
                                "info": {"exit_status": "submitted", "model_stats": {"instance_cost": 0.42}}},
                               indent=2))
    for level in ("trace", "debug", "info"):
        (run / f"eagle3__draft-17.{level}.log").write_text("2026-09-01 08:00:00,000 INFO 🤖 MODEL INPUT\n")
    for path in (traj, tmp_path):
        doc = analyze_path(path).to_json()
        assert (doc["format"], [s["id"] for s in doc["sessions"]]) == ("swe-agent", ["eagle3__draft-17"]), path
        assert [p["text"].endswith("does not load: size mismatch for fc.weight") for p in doc["prompts"]] == [True]
        assert [c["command"] for c in doc["commands"]] == [
            "python reproduce.py", "grep -n aux_hidden_state_layer_ids /repo/eagle3/config.py", "submit"]
        assert [(e["seq"], e["exception"]) for e in doc["errors"]] == [(1, "RuntimeError")]
    assert analyze_path(traj, "swe-agent").format == "swe-agent"


def test_kimi_and_crush_forced_on_another_file_are_refused_in_one_line(tmp_path):
    """``--input-format crush`` on a text log read it as a database: an empty session ("file is
    not a database" among the damaged), not a refusal; a Crush store forced as another format, or
    a wire log forced as openai, is refused naming the format that fits."""
    import pytest

    from spec_debug.errors import UsageError
    from spec_debug.session.sources import discover
    from tests.session import test_hardening22_formats_crush as crush
    from tests.session import test_hardening22_formats_kimi_wire as kimi

    log = H8 / "typescript_multiline.log"
    with pytest.raises(UsageError, match="--input-format crush does not fit: it is no SQLite database"):
        discover(log, "crush")
    with pytest.raises(UsageError, match="not a Kimi CLI wire log session"):
        discover(log, "kimi-cli")
    store = crush._store(tmp_path / ".crush")
    with pytest.raises(UsageError, match=r"a Crush session store, not text") as err:
        discover(store, "text")
    assert "--input-format crush" in err.value.hint
    wire = kimi._session(tmp_path, kimi._wire()) / "wire.jsonl"
    with pytest.raises(UsageError, match="a Kimi CLI wire log session, not openai"):
        discover(wire, "openai")
