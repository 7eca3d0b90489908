"""Transcript shapes met in the field that the readers got wrong: a Claude Code session left
with NUL padding by a crash, OpenAI chat with custom tool calls and refusals, a saved request
whose tool schema names a "messages" property before the conversation, and Codex commands
that outlive their first output (unified exec).

Each line follows the shape its cited source shows; names and outputs are ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

SESSION = "5f0c1d2e-3333-4444-8555-666677778888"


def _events(path: Path) -> tuple[list, ReadStats]:
    (source,) = discover(path)
    stats = ReadStats()
    return list(iter_events(source, stats, AgentTree())), stats


def _cc(kind: str, n: int, message: dict) -> dict:
    return {"parentUuid": None if n == 0 else f"u{n - 1}", "isSidechain": False, "userType": "external",
            "cwd": "/work", "sessionId": SESSION, "version": "2.1.111", "type": kind, "uuid": f"u{n}",
            "timestamp": f"2026-04-17T09:00:{n:02d}.000Z", "message": message}


def _session_lines() -> list[bytes]:
    return [json.dumps(line).encode() for line in (
        _cc("user", 0, {"role": "user", "content": "why does gpu01 accept only 1.3 tokens per step?"}),
        _cc("assistant", 1, {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "Bash",
             "input": {"command": "ssh gpu01 'grep -m1 accept /var/log/sglang.log'", "description": "accept len"}}]}),
        _cc("user", 2, {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
             "content": "Exit code 2\ngrep: /var/log/sglang.log: No such file or directory"}]}),
        _cc("assistant", 3, {"id": "msg_2", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": {"command": "ssh gpu01 nvidia-smi -L"}}]}),
        _cc("user", 4, {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": False, "content": "GPU 0: NVIDIA H200"}]}),
    )]


def test_nul_padding_left_by_a_crash_loses_no_record(tmp_path):
    """A crash during an append leaves zero-filled blocks: "a valid 159-byte JSON record
    followed by ~9KB of \\x00 padding", and a final line of "~143KB of pure \\x00"
    (anthropics/claude-code issue #76059); a mid-file run of NULs with valid appends after it
    (issue #49876). The record before the padding, and one written right after it on the same
    line, are kept; the padding alone is counted as binary, not as broken JSON."""
    one, two, three, four, five = _session_lines()
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_bytes(one + b"\n" + two + b"\x00" * 9000 + b"\n" + b"\x00" * 600 + three + b"\n"
                     + b"\x00" * 700 + b"\n" + four + b"\n" + five + b"\n" + b"\x00" * 143_000)
    events, stats = _events(path)
    assert [(e.seq, e.kind, e.call_id, e.exit_code) for e in events] == [
        (0, "prompt", None, None), (1, "tool_call", "toolu_1", None), (2, "tool_result", "toolu_1", 2),
        (4, "tool_call", "toolu_2", None), (5, "tool_result", "toolu_2", None)]
    assert (stats.broken_json, stats.binary) == (0, 2)
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("ssh gpu01 'grep -m1 accept /var/log/sglang.log'", "gpu01", 2, True),
        ("ssh gpu01 nvidia-smi -L", "gpu01", 0, False)]


def test_nul_padding_in_a_file_read_by_worker_processes(tmp_path, monkeypatch):
    """The same salvage holds when a large file is cut into spans for worker processes."""
    from spec_debug.session import parallel

    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 700)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    lines = _session_lines()
    path = tmp_path / f"{SESSION}.jsonl"
    # the padding may also swallow the newline between two records: both are kept, in order
    path.write_bytes(b"\n".join(lines[:2]) + b"\x00" * 2000 + b"\n" + lines[2] + b"\x00" * 300 + lines[3] + b"\n"
                     + lines[4] + b"\n" + b"\x00" * 900)
    events, stats = _events(path)
    assert [(e.seq, e.kind, e.exit_code) for e in events] == [
        (0, "prompt", None), (1, "tool_call", None), (2, "tool_result", 2), (3, "tool_call", None),
        (4, "tool_result", None)]
    assert (stats.broken_json, stats.binary) == (0, 1)
    sequential = tmp_path / "sequential" / f"{SESSION}.jsonl"
    sequential.parent.mkdir()
    sequential.write_bytes(path.read_bytes())
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 1 << 40)
    assert [(e.seq, e.kind, e.line) for e in _events(sequential)[0]] == [(e.seq, e.kind, e.line) for e in events]


# -- OpenAI chat ------------------------------------------------------------------------------

_CHAT = [
    {"role": "system", "content": "You are an SRE agent with a shell on the bastion."},
    {"role": "user", "content": "gpu01 serves 40 tok/s with EAGLE-3, baseline is 90"},
    # A custom tool call (type "custom", free-form input): openai/openai-python
    # src/openai/types/chat/chat_completion_message_custom_tool_call.py.
    {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
        {"id": "call_x1", "type": "custom", "custom": {"name": "shell", "input": "ssh gpu01 nvidia-smi -L"}}]},
    {"role": "tool", "tool_call_id": "call_x1",
     "content": "Exit code 255\nssh: connect to host gpu01 port 22: Connection refused"},
    # A refusal: message.refusal (chat_completion_message.py) or a content part
    # {"type": "refusal", "refusal": ...} (chat_completion_content_part_refusal_param.py).
    {"role": "assistant", "content": None, "refusal": "I can't run commands on hosts I was not given."},
    {"role": "assistant", "content": [{"type": "refusal", "refusal": "I won't disable the firewall."}]},
    {"role": "assistant", "content": [{"type": "text", "text": "Through the bastion, then."}]},
]


def test_openai_custom_tool_calls_and_refusals(tmp_path):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps(_CHAT, indent=2))
    events, _ = _events(path)
    assert [(e.seq, e.kind, e.tool_name, e.call_id, e.command, e.text) for e in events if e.role == "assistant"] == [
        (2, "tool_call", "shell", "call_x1", "ssh gpu01 nvidia-smi -L", "ssh gpu01 nvidia-smi -L"),
        (4, "text", None, None, None, "I can't run commands on hosts I was not given."),
        (5, "text", None, None, None, "I won't disable the firewall."),
        (6, "text", None, None, None, "Through the bastion, then.")]
    a = analyze_path(path)
    assert [(c.seq, c.host, c.exit_code, c.is_error) for c in a.commands] == [(2, "gpu01", 255, True)]


def test_openai_agents_sdk_items_saved_as_a_list(tmp_path):
    """The OpenAI Agents SDK hands a run back as Responses API items
    (``RunResult.to_input_list()``, openai/openai-agents-python ``src/agents/result.py``): role
    messages beside ``reasoning``, ``function_call`` and ``function_call_output`` items that have
    no role (openai/openai-python ``types/responses/response_input_item_param.py``). Saved with
    ``json.dump``, on one line or indented."""
    items = [
        {"role": "user", "content": "gpu01 serves 40 tok/s with EAGLE-3; find out why"},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "I suspect the draft flags."}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "run_shell", "status": "completed",
         "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi -L"})},
        {"type": "function_call_output", "call_id": "call_1",
         "output": "Exit code 255\nssh: connect to host gpu01 port 22: Connection refused"},
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "gpu01 refuses SSH.", "annotations": []}]},
    ]
    for indent in (None, 2, "jsonl"):
        path = tmp_path / f"run-{indent}.json"
        path.write_text("\n".join(json.dumps(item) for item in items) + "\n" if indent == "jsonl"
                        else json.dumps(items, indent=indent))
        events, stats = _events(path)
        assert [(e.seq, e.kind, e.call_id, e.command, e.exit_code) for e in events] == [
            (0, "prompt", None, None, None), (1, "thinking", None, None, None),
            (2, "tool_call", "call_1", "ssh gpu01 nvidia-smi -L", None), (3, "tool_result", "call_1", None, 255),
            (4, "text", None, None, None)], indent
        assert stats.unknown_types == 0
        a = analyze_path(path)
        assert [(c.seq, c.host, c.exit_code, c.is_error) for c in a.commands] == [(2, "gpu01", 255, True)]
        assert [p.text for p in a.prompts] == ["gpu01 serves 40 tok/s with EAGLE-3; find out why"]


def test_a_saved_request_whose_tools_come_before_the_messages(tmp_path):
    """A request body saved as sent ({model, tools, messages}): a tool's JSON schema may name a
    "messages" property (and list it under "required") before the conversation itself."""
    tools = [{"type": "function", "function": {
        "name": "post_to_channel", "description": "Post messages to the on-call channel",
        "parameters": {"type": "object", "properties": {"messages": {"type": "array", "items": {"type": "string"}}},
                       "required": ["messages"]}}}]
    chat = [_CHAT[1], {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi -L"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: NVIDIA H200"}]
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-4o", "tools": tools, "tool_choice": "auto", "messages": chat}, indent=2))
    events, stats = _events(path)
    assert [(e.seq, e.kind, e.command) for e in events] == [
        (0, "prompt", None), (1, "tool_call", "ssh gpu01 nvidia-smi -L"), (2, "tool_result", None)]
    assert stats.non_object == 0


# -- Codex unified exec -----------------------------------------------------------------------

def _rollout(*items: tuple[str, dict]) -> list[str]:
    lines = [{"timestamp": "2026-02-06T00:38:00.000Z", "type": "session_meta",
              "payload": {"id": "019c3a10-0000-7000-8000-0000000000aa", "cwd": "/work", "originator": "codex_cli_rs",
                          "cli_version": "0.98.0", "source": "cli", "model_provider": "openai"}}]
    for n, (kind, payload) in enumerate(items, 1):
        lines.append({"timestamp": f"2026-02-06T00:38:{n:02d}.000Z", "type": kind, "payload": payload})
    return [json.dumps(line) for line in lines]


def _exec(call_id: str, cmd: str) -> tuple[str, dict]:
    return ("response_item", {"type": "function_call", "name": "exec_command", "call_id": call_id,
                              "arguments": json.dumps({"cmd": cmd, "yield_time_ms": 1000})})


def _poll(call_id: str, session_id: int) -> tuple[str, dict]:
    return ("response_item", {"type": "function_call", "name": "write_stdin", "call_id": call_id,
                              "arguments": json.dumps({"session_id": session_id, "chars": "",
                                                       "yield_time_ms": 30000})})


def _output(call_id: str, text: str) -> tuple[str, dict]:
    return ("response_item", {"type": "function_call_output", "call_id": call_id, "output": text})


_OOM = ("Traceback (most recent call last):\n  File \"/opt/sglang/srt/model_executor/model_runner.py\", line 412, "
        "in init_memory_pool\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")


def test_codex_command_that_outlives_its_first_output_gets_its_exit_code(tmp_path):
    """Codex's ``exec_command`` returns after ``yield_time_ms`` with "Process running with
    session ID N" while the command runs on; the model polls it with ``write_stdin`` until a
    poll says "Process exited with code N" (openai/codex codex-rs/core/src/unified_exec/; the
    same outputs in published rollouts). That exit code and output are the command's, not the
    poll's: the server launch failed, and its traceback came from it."""
    path = tmp_path / "rollout-2026-02-06T00-38-00-019c3a10.jsonl"
    path.write_text("\n".join(_rollout(
        ("response_item", {"type": "message", "role": "user",
                           "content": [{"type": "input_text", "text": "start the EAGLE-3 server on this box"}]}),
        _exec("call_launch", "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3"),
        _output("call_launch", "Chunk ID: 6e6db0\nWall time: 1.0024 seconds\nProcess running with session ID 52328\n"
                               "Original token count: 9\nOutput:\nLoading safetensors checkpoint shards: 0% 0/4\n"),
        _poll("call_p1", 52328),
        _output("call_p1", "Chunk ID: 7a1b2c\nWall time: 30.0011 seconds\nProcess running with session ID 52328\n"
                           "Original token count: 11\nOutput:\nLoading safetensors checkpoint shards: 100% 4/4\n"),
        _poll("call_p2", 52328),
        _output("call_p2", "Chunk ID: 8d9e0f\nWall time: 4.2 seconds\nProcess exited with code 1\n"
                           "Original token count: 60\nOutput:\n" + _OOM),
        ("event_msg", {"type": "turn_aborted", "turn_id": "t2", "reason": "interrupted"}),
        _exec("call_ls", "ls /m"),
        _output("call_ls", "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\n"
                           "Output:\nconfig.json\n"),
    )) + "\n")
    events, _ = _events(path)
    assert [(e.seq, e.kind, e.call_id, e.exit_code, e.is_error, e.raw_type) for e in events if e.kind == "tool_result"] == [
        (3, "tool_result", "call_launch#running", None, False, "running"),
        (5, "tool_result", "call_launch#running", None, False, "running"),  # more of its output (hardening37)
        (7, "tool_result", "call_launch", 1, True, None),
        (10, "tool_result", "call_ls", 0, False, None)]
    assert [(e.seq, e.text) for e in events if e.raw_type == "event_msg:turn_aborted"] == [(8, "turn aborted: interrupted")]
    a = analyze_path(path)
    assert [(c.seq, c.command.split()[0:3], c.exit_code, c.is_error) for c in a.commands] == [
        (2, ["python", "-m", "sglang.launch_server"], 1, True), (9, ["ls", "/m"], 0, False)]
    assert [(e.seq, e.exception, e.command_seq) for e in a.errors] == [(7, "torch.OutOfMemoryError", 2)]


def test_codex_exec_command_end_written_when_the_process_exits(tmp_path):
    """With extended history (app-server ``persistExtendedHistory``) Codex also writes the
    ``exec_command_end`` its exit watcher sends when such a process ends, under the first
    call's id (openai/codex codex-rs/core/src/unified_exec/async_watcher.rs,
    ``spawn_exit_watcher``): that is the command's result, not a duplicate of its first output."""
    path = tmp_path / "rollout-2026-02-06T00-38-00-019c3a11.jsonl"
    path.write_text("\n".join(_rollout(
        _exec("call_bench", "python -m sglang.bench_serving --backend sglang --num-prompts 200"),
        _output("call_bench", "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 7\n"
                              "Original token count: 0\nOutput:\n"),
        ("event_msg", {"type": "exec_command_end", "call_id": "call_bench", "process_id": "7",
                       "command": ["/bin/bash", "-lc", "python -m sglang.bench_serving --backend sglang"],
                       "aggregated_output": "ConnectionRefusedError: [Errno 111] Connection refused\n",
                       "exit_code": 1, "stdout": "", "stderr": "", "formatted_output": "", "status": "failed"}),
    )) + "\n")
    a = analyze_path(path)
    assert [(c.seq, c.exit_code, c.is_error) for c in a.commands] == [(1, 1, True)]


# -- Claude Code queued prompts -------------------------------------------------------------

def test_a_prompt_typed_while_claude_works_is_a_prompt(tmp_path):
    """What the person types while the agent is busy is written as an attachment line,
    ``{"type": "attachment", "attachment": {"type": "queued_command", "prompt": ...,
    "commandMode": "prompt", "origin": {"kind": "human"}}}``, never as a user line; a
    background task that ends meanwhile comes the same way with ``commandMode:
    "task-notification"`` (shapes parsed by several independent Claude Code transcript readers,
    e.g. one's test ``a_task_notification_handed_over_from_the_queue_is_not_yours``)."""
    note = ("<task-notification>\n<task-id>a4f2e9c</task-id>\n<status>failed</status>\n"
            "<summary>Agent \"bench gpu02\" failed</summary>\n</task-notification>")
    lines = [
        _cc("user", 0, {"role": "user", "content": "benchmark EAGLE-3 on gpu01 and gpu02"}),
        _cc("assistant", 1, {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_bg", "name": "Agent",
             "input": {"description": "bench gpu02", "prompt": "run the bench on gpu02", "run_in_background": True}}]}),
        _cc("user", 2, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_bg", "content":
            "Async agent launched successfully.\nagentId: a4f2e9c (use SendMessage with to: 'a4f2e9c')"}]}),
        {"type": "queue-operation", "operation": "enqueue", "timestamp": "2026-04-17T09:00:03.000Z",
         "sessionId": SESSION, "content": "use --speculative-num-steps 3, not 5"},
        {"type": "attachment", "uuid": "u4", "parentUuid": "u2", "isSidechain": False, "sessionId": SESSION,
         "timestamp": "2026-04-17T09:00:04.000Z",
         "attachment": {"type": "queued_command", "prompt": "use --speculative-num-steps 3, not 5",
                        "commandMode": "prompt", "origin": {"kind": "human"}}},
        {"type": "attachment", "uuid": "u5", "parentUuid": "u4", "isSidechain": False, "sessionId": SESSION,
         "timestamp": "2026-04-17T09:00:05.000Z",
         "attachment": {"type": "queued_command", "prompt": note, "commandMode": "task-notification",
                        "origin": {"kind": "task-notification", "producer": "session-task"}}},
    ]
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    agent = dict(_cc("user", 0, {"role": "user", "content": "run the bench on gpu02"}), isSidechain=True,
                 agentId="a4f2e9c")
    (tmp_path / SESSION / "subagents").mkdir(parents=True)
    (tmp_path / SESSION / "subagents" / "agent-a4f2e9c.jsonl").write_text(json.dumps(agent) + "\n")
    events, stats = _events(path)
    events = [e for e in events if e.agent == "main"]
    assert [(e.seq, e.kind, e.role, e.text) for e in events if e.seq >= 3] == [
        (3, "other", "system", ""), (4, "prompt", "user", "use --speculative-num-steps 3, not 5"),
        (5, "system", "user", note)]
    assert events[-1].agent_ref == "a4f2e9c" and events[-1].agent_status == "failed"
    assert stats.unknown_types == 0
    a = analyze_path(path)
    assert [(p.seq, p.text) for p in a.prompts if p.agent == "main"] == [
        (0, "benchmark EAGLE-3 on gpu01 and gpu02"), (4, "use --speculative-num-steps 3, not 5")]
    assert {ag["id"]: ag["status"] for ag in a.agents}["a4f2e9c"] == "failed"


def test_a_shell_log_with_nul_padding_keeps_the_command_after_it(tmp_path):
    """The same crash padding in a terminal log: the prompt and command written right after
    the NULs are the next command, and its traceback is its own (it was counted against the
    command before, whose line was dropped as binary). A binary file cat'ed to the terminal
    stays binary."""
    elf = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00\x00\x00\x10\x11\x02\x03"
    path = tmp_path / "gpu01.log"
    path.write_bytes(
        b"root@gpu01:~# nvidia-smi -L\r\nGPU 0: NVIDIA H200 (UUID: GPU-5d1e)\r\n"
        + b"\x00" * 4096 + b"root@gpu01:~# python -m sglang.launch_server --model-path /m --port 30000\r\n"
        b"Traceback (most recent call last):\r\n  File \"/m/x.py\", line 3, in <module>\r\nValueError: bad draft\r\n"
        b"root@gpu01:~# head -c 32 /usr/bin/true\r\n" + elf + b"\r\n" + b"\x00" * 2048)
    a = analyze_path(path)
    assert [(c.seq, c.command.split()[0]) for c in a.commands] == [(0, "nvidia-smi"), (1, "python"), (2, "head")]
    assert [(e.exception, e.command_seq) for e in a.errors] == [("ValueError", 1)]
    assert a.sessions[0]["lines_skipped"] == 2  # the ELF bytes and the padding at the end


def test_codex_exec_json_output_of_a_ci_run(tmp_path):
    """``codex exec --json > run.jsonl``, the way CI runs Codex: thread/turn/item events, not a
    rollout (openai/codex codex-rs/exec/src/exec_events.rs; the commands print as
    ``/bin/bash -lc "..."``). It was taken for a Claude Code file and gave nothing but unknown
    lines."""
    stream = [
        {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "**Checking the server log**"}},
        {"type": "item.started", "item": {"id": "item_1", "type": "command_execution",
                                          "command": "/bin/bash -lc \"ssh gpu01 'tail -n 3 /var/log/sglang.log'\"",
                                          "aggregated_output": "", "exit_code": None, "status": "in_progress"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "command_execution",
                                            "command": "/bin/bash -lc \"ssh gpu01 'tail -n 3 /var/log/sglang.log'\"",
                                            "aggregated_output": "ssh: connect to host gpu01 port 22: Connection refused\n",
                                            "exit_code": 255, "status": "failed"}},
        {"type": "item.completed", "item": {"id": "item_2", "type": "mcp_tool_call", "server": "ssh", "tool": "exec",
                                            "arguments": {"host": "ubuntu@gpu02:2222", "command": "nvidia-smi -L"},
                                            "result": {"content": [{"type": "text", "text": "GPU 0: NVIDIA H200"}],
                                                       "structured_content": None},
                                            "error": None, "status": "completed"}},
        {"type": "item.completed", "item": {"id": "item_3", "type": "file_change", "status": "completed",
                                            "changes": [{"path": "/work/serve.sh", "kind": "update"}]}},
        {"type": "item.started", "item": {"id": "item_4", "type": "todo_list",
                                          "items": [{"text": "move the server to gpu02", "completed": False}]}},
        {"type": "item.completed", "item": {"id": "item_5", "type": "agent_message", "text": "Moved to gpu02."}},
        {"type": "turn.completed", "usage": {"input_tokens": 24763, "cached_input_tokens": 24448, "output_tokens": 122}},
        {"type": "turn.failed", "error": {"message": "stream disconnected before completion"}},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in stream) + "\n")
    events, stats = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id, e.command, e.exit_code, e.is_error) for e in events
            if e.kind in ("tool_call", "tool_result", "text", "thinking")] == [
        (2, 0, "thinking", None, None, None, False),
        (3, 0, "tool_call", "item_1", "ssh gpu01 'tail -n 3 /var/log/sglang.log'", None, False),
        (4, 1, "tool_result", "item_1", None, 255, True),
        (5, 0, "tool_call", "item_2", "nvidia-smi -L", None, False),
        (5, 1, "tool_result", "item_2", None, None, False),
        (6, 0, "tool_call", "item_3", None, None, False),
        (6, 1, "tool_result", "item_3", None, None, False),
        (8, 0, "text", None, None, None, False)]
    assert [e.text for e in events if e.raw_type == "turn.failed"] == ["stream disconnected before completion"]
    assert stats.unknown_types == 0
    a = analyze_path(path)
    assert a.format == "codex"
    assert [(c.seq, c.host, c.port, c.exit_code, c.is_error) for c in a.commands] == [
        (3, "gpu01", None, 255, True), (5, "gpu02", None, None, False)]


# -- Claude Code headless stream-json -------------------------------------------------------

def _sj(kind: str, content, parent: str | None, **extra) -> dict:
    role = "assistant" if kind == "assistant" else "user"
    return {"type": kind, "message": {"role": role, "content": content}, "parent_tool_use_id": parent,
            "session_id": SESSION, **extra}


def test_claude_stream_json_sub_agent_lines_belong_to_the_sub_agent(tmp_path):
    """``claude -p --output-format stream-json`` (a CI run, the Agent SDK) writes a sub-agent's
    messages inline in the parent's stream, marked only by ``parent_tool_use_id`` = the id of
    the Agent/Task call that started it; newer CLIs announce it with ``system/task_started
    {task_id, tool_use_id}``, ``task_id`` being the ``agentId`` its result names (the shapes
    several independent stream readers parse, e.g. "A sub-agent's inner tool call arrives as an
    ordinary assistant line and was shown as the character's own activity"). The run ends with
    a ``result`` line. Before, the sub-agent's failing command counted as the trunk's."""
    stream = [
        {"type": "system", "subtype": "init", "cwd": "/work", "session_id": SESSION, "model": "claude-sonnet-4-5",
         "tools": ["Bash", "Agent"], "uuid": "i0"},
        _sj("assistant", [{"type": "tool_use", "id": "toolu_audit", "name": "Agent",
                           "input": {"description": "audit gpu02", "prompt": "check the draft on gpu02",
                                     "subagent_type": "general-purpose"}}], None),
        {"type": "system", "subtype": "task_started", "task_id": "a42ed3cc731261c2c", "tool_use_id": "toolu_audit",
         "description": "audit gpu02", "subagent_type": "general-purpose", "session_id": SESSION},
        _sj("user", [{"type": "text", "text": "check the draft on gpu02"}], "toolu_audit"),
        _sj("assistant", [{"type": "tool_use", "id": "toolu_sub_bash", "name": "Bash",
                           "input": {"command": "ssh gpu02 'ls /models/eagle3'"}}], "toolu_audit"),
        _sj("user", [{"type": "tool_result", "tool_use_id": "toolu_sub_bash", "is_error": True,
                      "content": "Exit code 2\nls: cannot access '/models/eagle3': No such file or directory"}],
            "toolu_audit"),
        # an older CLI: no task_started, the inline agent is known by its call
        _sj("assistant", [{"type": "tool_use", "id": "toolu_old", "name": "Task",
                           "input": {"description": "bench", "prompt": "bench gpu03"}}], None),
        _sj("assistant", [{"type": "tool_use", "id": "toolu_sub2", "name": "Bash",
                           "input": {"command": "ssh gpu03 nvidia-smi -L"}}], "toolu_old"),
        _sj("user", [{"type": "tool_result", "tool_use_id": "toolu_sub2", "content": "GPU 0: NVIDIA H200"}], "toolu_old"),
        _sj("user", [{"type": "tool_result", "tool_use_id": "toolu_audit", "content": [
            {"type": "text", "text": "The draft is missing on gpu02."},
            {"type": "text", "text": "agentId: a42ed3cc731261c2c (use SendMessage with to: 'a42ed3cc731261c2c')"}]}],
            None),
        _sj("user", [{"type": "tool_result", "tool_use_id": "toolu_old", "content": [
            {"type": "text", "text": "gpu03 is fine.\nagentId: b77 (use SendMessage with to: 'b77')"}]}], None),
        _sj("assistant", [{"type": "text", "text": "gpu02 lacks the draft checkpoint."}], None),
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 41230, "num_turns": 6,
         "result": "gpu02 lacks the draft checkpoint.", "session_id": SESSION, "total_cost_usd": 0.21},
    ]
    path = tmp_path / "ci-run.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in stream) + "\n")
    events, stats = _events(path)
    assert [(e.seq, e.agent, e.kind) for e in events if e.kind in ("tool_call", "tool_result")] == [
        (1, "main", "tool_call"), (4, "a42ed3cc731261c2c", "tool_call"), (5, "a42ed3cc731261c2c", "tool_result"),
        (6, "main", "tool_call"), (7, "sidechain-toolu_old", "tool_call"), (8, "sidechain-toolu_old", "tool_result"),
        (9, "main", "tool_result"), (10, "main", "tool_result")]
    assert [(e.raw_type, e.text) for e in events if e.seq == 12] == [("result:success", "gpu02 lacks the draft checkpoint.")]
    assert stats.unknown_types == 0
    a = analyze_path(path)
    agents = {ag["id"]: (ag["parent"], ag["spawned_by"], ag["status"]) for ag in a.agents}
    assert agents == {"main": (None, None, "completed"),
                      "a42ed3cc731261c2c": ("main", "toolu_audit", "failed"),
                      "sidechain-toolu_old": ("main", "toolu_old", "completed")}
    assert a.sessions[0]["missing_files"] == 0
    assert [(c.agent, c.host, c.exit_code) for c in a.commands] == [
        ("a42ed3cc731261c2c", "gpu02", 2), ("sidechain-toolu_old", "gpu03", 0)]


def test_types_that_are_not_strings_are_skipped_not_fatal(tmp_path):
    """A damaged line whose ``type`` is a list or an object is counted, never a TypeError."""
    exec_path = tmp_path / "run.jsonl"
    exec_path.write_text("\n".join(json.dumps(line) for line in (
        {"type": "thread.started", "thread_id": "t"},
        {"type": ["item.completed"], "item": {}},
        {"type": "item.completed", "item": {"id": "i", "type": {"command_execution": True}}},
        {"type": "item.completed", "item": {"id": "j", "type": "command_execution", "command": "ls", "exit_code": 0,
                                            "status": "completed", "aggregated_output": "a"}},
    )) + "\n")
    events, stats = _events(exec_path)
    assert [(e.kind, e.command) for e in events if e.kind == "tool_call"] == [("tool_call", "ls")]
    assert stats.unknown_types == 2
    items_path = tmp_path / "items.json"
    items_path.write_text(json.dumps([{"role": "user", "content": "hi"}, {"type": {"x": 1}, "call_id": "c"},
                                      {"type": "function_call", "call_id": "c", "name": "bash",
                                       "arguments": json.dumps({"command": "uptime"})}], indent=2))
    events, stats = _events(items_path)
    assert [(e.kind, e.command) for e in events] == [("prompt", None), ("other", None), ("tool_call", "uptime")]
