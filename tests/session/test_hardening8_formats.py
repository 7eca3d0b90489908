"""Transcript shapes of current tools that the readers got wrong (hardening round 8).

Each data file under ``data_h8/formats/`` follows the shape its cited source shows; names,
hosts and outputs are ours. The README there lists the source of each shape.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.formats.text_log import pane_width
from spec_debug.session.sources import discover, iter_events

DATA = Path(__file__).resolve().parent / "data_h8" / "formats"


def _events(path: Path, fmt: str | None = None) -> tuple[list, ReadStats]:
    (source,) = discover(path, fmt)
    stats = ReadStats()
    return list(iter_events(source, stats, AgentTree())), stats


def _shape(events) -> list[tuple]:
    return [(e.seq, e.kind, e.role, e.call_id, e.command, e.exit_code, e.is_error) for e in events]


# -- OpenAI Responses API request and response objects ----------------------------------------


def test_a_saved_responses_api_request_reads_as_its_conversation():
    """``client.responses.create(model=..., instructions=..., input=[...])`` saved as its request
    body: the conversation is under ``input`` (openai/openai-python
    ``types/responses/response_create_params.py``). Before: read as Claude Code, one "other"
    event and nothing else (no prompt, no command, no error)."""
    events, stats = _events(DATA / "responses_request.json")
    assert _shape(events) == [
        (0, "system", "developer", None, None, None, False),
        (1, "prompt", "user", None, None, None, False),
        (2, "thinking", "assistant", None, None, None, False),
        (3, "tool_call", "assistant", "call_k2Xb", "ssh gpu01 'tail -n 3 /var/log/sglang/server.log'", None, False),
        (4, "tool_result", "tool", "call_k2Xb", None, 1, True),
        (5, "text", "assistant", None, None, None, False),
    ]
    assert stats.unknown_types == 0 and stats.lines_skipped == 0
    a = analyze_path(DATA / "responses_request.json")
    assert a.sessions[0]["format"] == "openai"
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("ssh gpu01 'tail -n 3 /var/log/sglang/server.log'", "gpu01", 1)]
    assert [p.text for p in a.prompts] == ["EAGLE-3 made serving slower on gpu01; find out why"]


def test_a_saved_responses_api_response_reads_as_its_output_items():
    """``response.model_dump_json(indent=2)``: ``{"object": "response", "output": [...]}``
    (openai/openai-python ``types/responses/response.py``). Before: read as Claude Code, nothing
    of the call."""
    events, stats = _events(DATA / "responses_response.json")
    assert [(e.seq, e.kind, e.call_id, e.command) for e in events] == [
        (0, "system", None, None), (1, "thinking", None, None),
        (2, "tool_call", "call_Q7rT", "ssh gpu01 'grep -m2 \"accept len\" /var/log/sglang.log'")]
    assert events[1].text == "The accept length is low; compare the draft's hidden-state layers."
    assert stats.unknown_types == 0


def test_responses_exchanges_one_a_line_and_one_longer_than_the_sniff_window(tmp_path):
    """A log of requests and responses, one JSON object a line; and a request whose first item
    (a pasted server log) is longer than the 256 KiB the format is sniffed from. Before: the
    first read as Claude Code, the second as a plain-text log of one line."""
    request = json.loads((DATA / "responses_request.json").read_text())
    response = json.loads((DATA / "responses_response.json").read_text())
    log = tmp_path / "exchanges.jsonl"
    log.write_text(json.dumps(request) + "\n" + json.dumps(response) + "\n")
    events, _ = _events(log)
    assert [(e.seq, e.kind, e.call_id) for e in events if e.call_id] == [
        (3, "tool_call", "call_k2Xb"), (4, "tool_result", "call_k2Xb"), (8, "tool_call", "call_Q7rT")]
    request["input"].insert(1, {"type": "function_call_output", "call_id": "call_log",
                                "output": "[2025-08-18 10:00:00] Decode batch, #running-req: 1\n" * 6000})
    for indent in (None, 2):
        big = tmp_path / f"big-{indent}.json"
        big.write_text(json.dumps(request, indent=indent))
        assert big.stat().st_size > 256 * 1024
        events, _ = _events(big)
        assert [(e.kind, e.call_id) for e in events if e.call_id] == [
            ("tool_result", "call_log"), ("tool_call", "call_k2Xb"), ("tool_result", "call_k2Xb")], indent


# -- OpenAI chat: a log of the requests an agent loop sent -------------------------------------


def test_a_log_of_requests_that_each_resend_the_history_reads_each_message_once():
    """An agent loop that logs each chat-completions request body it sends, one a line: the API is
    stateless, so every request carries the whole history again. Before: the first command
    appeared twice and the prompt three times (a command run once, read three times, is a loop)."""
    path = DATA / "chat_requests.jsonl"
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id) for e in events] == [
        (0, 0, "system", None), (1, 0, "prompt", None),
        (2, 0, "tool_call", "call_Vx1"), (3, 0, "tool_result", "call_Vx1"),
        (4, 0, "text", None), (4, 1, "tool_call", "call_Vx2"), (5, 0, "tool_result", "call_Vx2")]
    a = analyze_path(path)
    assert [(c.seq, c.command, c.exit_code) for c in a.commands] == [
        (2, "ssh gpu01 'curl -s localhost:30000/get_server_info'", 7),
        (4, "ssh gpu01 'journalctl -u sglang -n 2 --no-pager'", None)]
    assert len(a.prompts) == 1


def test_fine_tuning_lines_that_share_a_system_prompt_stay_whole(tmp_path):
    """Fine-tuning data: one conversation a line, each with the same system message (OpenAI
    fine-tuning guide, chat format). No line's conversation is the head of the next, so none is
    cut."""
    system = {"role": "system", "content": "You are a GPU fleet assistant."}
    lines = [{"messages": [system, {"role": "user", "content": f"is gpu0{n} up?"},
                           {"role": "assistant", "content": f"gpu0{n} is up."}]} for n in (1, 2)]
    path = tmp_path / "train.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    events, _ = _events(path)
    assert [(e.seq, e.kind, e.text) for e in events] == [
        (0, "system", "You are a GPU fleet assistant."), (1, "prompt", "is gpu01 up?"), (2, "text", "gpu01 is up."),
        (3, "system", "You are a GPU fleet assistant."), (4, "prompt", "is gpu02 up?"), (5, "text", "gpu02 is up.")]


# -- shell logs: commands typed over several lines ----------------------------------------------

_LAUNCH = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct  --speculative-algorithm EAGLE3"
           " --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5"
           " --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 --cuda-graph-max-bs 2"
           " --dtype float16")
"""SGLang's EAGLE-3 example launch (sgl-project/sglang docs/advanced_features/speculative_decoding),
as one line once bash has removed its backslash-newlines."""


def test_a_launch_command_continued_with_backslashes_is_one_command():
    """A ``script(1)`` typescript of the SGLang EAGLE-3 launch pasted as the docs print it, over
    four lines: bash echoes each continuation after its PS2 prompt ``> `` (bash(1), PROMPTING),
    and a here-document the same way. Before: the command stopped at the first backslash (no
    EAGLE-3 flag in it) and the flags, the here-document and its delimiter were read as output."""
    path = DATA / "typescript_multiline.log"
    events, _ = _events(path)
    calls = [(e.seq, e.command, e.host) for e in events if e.kind == "tool_call"]
    assert calls == [
        (1, _LAUNCH, "gpu-3"),
        (2, "cat > /tmp/probe.py <<'EOF'\nimport torch\nprint(torch.cuda.mem_get_info())\nEOF", "gpu-3"),
        (3, "python3 /tmp/probe.py", "gpu-3"), (4, "exit", "gpu-3")]
    results = {e.call_id: e.text for e in events if e.kind == "tool_result"}
    assert results["text-call-1"].startswith("[2025-08-18 10:02:19] server_args=ServerArgs(")
    assert "text-call-2" not in results  # the here-document printed nothing
    assert results["text-call-3"] == "(1048576, 85029158912)"
    a = analyze_path(path)
    assert [(c.seq, c.command) for c in a.commands][:1] == [(1, _LAUNCH)]
    assert [(e.kind, e.seq) for e in a.errors] == [("cuda_oom", 1)]


def test_continuation_prompts_of_zsh_and_commands_split_in_a_code_block(tmp_path):
    """zsh's PS2 names what is still open (``quote>``, ``heredoc>``: zshmisc(1)); a Markdown
    ``console`` block shows ``$ `` and ``> ``, a ``bash`` block the bare lines. A line without
    PS2 after an unfinished command is output (``echo it's`` waits for a quote bash never got)."""
    log = tmp_path / "laptop.log"
    log.write_text('me@laptop ~ % ssh gpu01 "nvidia-smi \\\nquote> -L"\nGPU 0: NVIDIA H200\n'
                   "me@laptop ~ % cat <<EOF > /tmp/x\nheredoc> a\nheredoc> EOF\n"
                   "me@laptop ~ % echo it's\nfinished early\n")
    events, _ = _events(log)
    assert [(e.kind, e.command or e.text) for e in events] == [
        ("tool_call", 'ssh gpu01 "nvidia-smi -L"'), ("tool_result", "GPU 0: NVIDIA H200"),
        ("tool_call", "cat <<EOF > /tmp/x\na\nEOF"),
        ("tool_call", "echo it's"), ("tool_result", "finished early")]
    notes = tmp_path / "notes.md"
    notes.write_text("```bash\npython -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
                     "  --speculative-algorithm EAGLE3\n```\n\n```console\n$ python3 -m sglang.bench_serving --backend "
                     "sglang \\\n>   --num-prompts 100\nOutput token throughput (tok/s): 1234.5\n```\n")
    events, _ = _events(notes)
    assert [(e.kind, e.command or e.text) for e in events] == [
        ("tool_call", ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                       "--speculative-algorithm EAGLE3")),
        ("tool_call", "python3 -m sglang.bench_serving --backend sglang --num-prompts 100"),
        ("tool_result", "Output token throughput (tok/s): 1234.5")]


def test_the_thinking_of_a_model_served_by_vllm_or_ollama_is_kept(tmp_path):
    """An agent loop run against a local reasoning model (vLLM/SGLang with a reasoning parser,
    Ollama with ``think``) saves each assistant message as the server sent it: the thinking in
    ``reasoning_content`` (vLLM docs, "Reasoning Outputs"), ``reasoning`` (newer vLLM) or
    ``thinking`` (Ollama ``docs/api.md``), beside ``content``. Before: it was dropped."""
    call = {"id": "call_1", "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi -L"})}}
    messages = [
        {"role": "user", "content": "why is gpu01 slow?"},
        {"role": "assistant", "content": None, "reasoning_content": "I suspect a GPU fell off the bus.",
         "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "GPU 0: NVIDIA H200"},
        {"role": "assistant", "content": "All GPUs are present.", "reasoning": "The GPU is there."},
        {"role": "assistant", "content": "Check the draft next.", "thinking": "Now the draft."},
    ]
    path = tmp_path / "local-model.json"
    path.write_text(json.dumps(messages, indent=2))
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind, e.text or e.command) for e in events] == [
        (0, 0, "prompt", "why is gpu01 slow?"),
        (1, 0, "thinking", "I suspect a GPU fell off the bus."), (1, 1, "tool_call", "ssh gpu01 nvidia-smi -L"),
        (2, 0, "tool_result", "GPU 0: NVIDIA H200"),
        (3, 0, "thinking", "The GPU is there."), (3, 1, "text", "All GPUs are present."),
        (4, 0, "thinking", "Now the draft."), (4, 1, "text", "Check the draft next.")]


# -- Claude Code ----------------------------------------------------------------------------------

SESSION = "7a1e0c55-8d2b-4c4e-9f3a-2b6d1e0f4a11"


def _cc(kind: str, n: int, message: dict, **extra) -> str:
    return json.dumps({"parentUuid": None if n == 0 else f"u{n - 1}", "isSidechain": False, "userType": "external",
                       "cwd": "/work/serving", "sessionId": SESSION, "version": "2.1.45", "gitBranch": "main",
                       "type": kind, "uuid": f"u{n}", "timestamp": f"2026-03-18T11:45:{n:02d}.000Z", "message": message,
                       **extra})


def test_the_ide_note_before_a_prompt_is_not_the_prompt(tmp_path):
    """The VS Code extension sends the file on screen and the selected lines as text blocks of
    their own before the one the person typed (the shape many transcript readers filter:
    ``<ide_opened_file>The user opened the file … in the IDE. This may or may not be related to
    the current task.</ide_opened_file>``). Before: the first prompt, and the phase it opens,
    read as the editor's note."""
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        _cc("user", 0, {"role": "user", "content": [
            {"type": "text", "text": "<ide_opened_file>The user opened the file /work/serving/launch.sh in the IDE. "
                                     "This may or may not be related to the current task.</ide_opened_file>"},
            {"type": "text", "text": "<ide_selection>The user selected the lines 3 to 3 from /work/serving/launch.sh:\n"
                                     "  --speculative-num-steps 5 \\\n\nThis may or may not be related to the current "
                                     "task.</ide_selection>"},
            {"type": "text", "text": "Why does gpu01 accept only 1.3 tokens per step with this launch?"}]}),
        _cc("assistant", 1, {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                             "content": [{"type": "text", "text": "I will read the server log."}]}),
    ]) + "\n")
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind) for e in events] == [(0, 0, "system"), (0, 1, "system"), (0, 2, "prompt"),
                                                          (1, 0, "text")]
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == ["Why does gpu01 accept only 1.3 tokens per step with this launch?"]


def test_an_api_error_the_cli_wrote_in_the_models_place_is_not_the_agent_speaking(tmp_path):
    """When a request fails for good, Claude Code writes an assistant line of its own:
    ``isApiErrorMessage: true``, model ``<synthetic>``, ``error`` and ``apiErrorStatus``. Before:
    read as the agent's words, it became the reason quoted for the command after it."""
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        _cc("user", 0, {"role": "user", "content": "Is the EAGLE-3 draft loaded on gpu01?"}),
        _cc("assistant", 1, {"id": "f7e1", "type": "message", "role": "assistant", "model": "<synthetic>",
                             "stop_reason": "stop_sequence", "content": [{"type": "text", "text": (
                                 "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try "
                                 "again in a moment.")}]},
            isApiErrorMessage=True, error="server_error", apiErrorStatus=529),
        _cc("user", 2, {"role": "user", "content": "continue"}),
        _cc("assistant", 3, {"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                             "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                          "input": {"command": "ssh gpu01 'grep -c EAGLE3 /var/log/sglang.log'"}}]}),
        _cc("user", 4, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                     "content": "2", "is_error": False}]}),
    ]) + "\n")
    events, _ = _events(path)
    assert [(e.seq, e.kind, e.role) for e in events] == [
        (0, "prompt", "user"), (1, "system", "assistant"), (2, "prompt", "user"), (3, "tool_call", "assistant"),
        (4, "tool_result", "tool")]
    (command,) = analyze_path(path).commands
    assert "API Error" not in (command.why or "")


# -- Codex -------------------------------------------------------------------------------------


def test_codex_exec_json_of_cli_0_43_and_older_reads_as_a_session():
    """``codex exec --json`` (a CI run) printed the protocol's events before the ``thread.started``
    / ``item.completed`` stream: a settings line, ``{"prompt"}``, then ``{"id", "msg": {"type"}}``
    lines (openai/codex ``codex-rs/protocol/src/protocol.rs`` of that time). Before: read as
    Claude Code, fourteen "unknown" lines and nothing else."""
    path = DATA / "codex_exec_json_0.39.jsonl"
    events, stats = _events(path)
    assert [(e.seq, e.kind, e.call_id, e.command, e.exit_code, e.is_error, e.path) for e in events
            if e.kind not in ("other",)] == [
        (0, "system", None, None, None, False, None),
        (1, "prompt", None, None, None, False, None),
        (3, "thinking", None, None, None, False, None),
        (4, "tool_call", "call_I1o1QnQDtlLjGMg4Vd9HXJLd", "ssh gpu01 'tail -n 2 /var/log/sglang.log'", None, False,
         None),
        (6, "tool_result", "call_I1o1QnQDtlLjGMg4Vd9HXJLd", None, 1, True, None),
        (7, "tool_call", "call_pYTCaUNBxnWcv9cAmQBzCGX6",
         "ssh gpu01 \"grep -m1 'accept len' /var/log/sglang/server.log\"", None, False, None),
        (8, "tool_result", "call_pYTCaUNBxnWcv9cAmQBzCGX6", None, 0, False, None),
        (9, "tool_call", "call_zr84aWQuwJR3aWgJLkfv56Gl", None, None, False, "/home/ci/serving/launch.sh"),
        (10, "tool_result", "call_zr84aWQuwJR3aWgJLkfv56Gl", None, None, False, None),
        (11, "text", None, None, None, False, None)]
    assert stats.unknown_types == 0
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "codex"
    assert [(c.seq, c.host, c.exit_code) for c in a.commands] == [(4, "gpu01", 1), (7, "gpu01", 0)]
    assert [p.text for p in a.prompts] == [("The nightly EAGLE-3 benchmark on gpu01 regressed from 180 to 95 tok/s; "
                                            "find out why")]
    assert any(m.name == "accept_length" and m.value == 1.02 for m in a.metrics)


def test_mcp_calls_in_old_codex_exec_json_keep_their_result(tmp_path):
    """The same old stream's MCP calls: ``mcp_tool_call_begin{invocation{server, tool,
    arguments}}`` and ``mcp_tool_call_end{result: {"Ok": CallToolResult} | {"Err": message}}``
    (a Rust ``Result`` as serde writes it)."""
    invocation = {"server": "ssh", "tool": "exec", "arguments": {"host": "gpu01", "command": "nvidia-smi -L"}}
    lines = [{"prompt": "is gpu01 healthy?"},
             {"id": "1", "msg": {"type": "mcp_tool_call_begin", "call_id": "call_m1", "invocation": invocation}},
             {"id": "1", "msg": {"type": "mcp_tool_call_end", "call_id": "call_m1", "invocation": invocation,
                                 "duration": {"secs": 1, "nanos": 0},
                                 "result": {"Ok": {"content": [{"type": "text", "text": "GPU 0: NVIDIA H200"}],
                                                   "isError": False}}}},
             {"id": "1", "msg": {"type": "mcp_tool_call_begin", "call_id": "call_m2", "invocation": invocation}},
             {"id": "1", "msg": {"type": "mcp_tool_call_end", "call_id": "call_m2", "invocation": invocation,
                                 "result": {"Err": "tool call failed: connection reset by peer"}}}]
    path = tmp_path / "codex-exec.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    events, stats = _events(path)
    assert [(e.kind, e.tool_name, e.call_id, e.command, e.host, e.is_error, e.text) for e in events] == [
        ("prompt", None, None, None, None, False, "is gpu01 healthy?"),
        ("tool_call", "ssh.exec", "call_m1", "nvidia-smi -L", "gpu01", False, "nvidia-smi -L"),
        ("tool_result", None, "call_m1", None, None, False, "GPU 0: NVIDIA H200"),
        ("tool_call", "ssh.exec", "call_m2", "nvidia-smi -L", "gpu01", False, "nvidia-smi -L"),
        ("tool_result", None, "call_m2", None, None, True, "tool call failed: connection reset by peer")]
    assert stats.unknown_types == 0


def test_codex_user_shell_commands_ide_requests_and_interrupt_notes():
    """What Codex writes as user messages that the person did not type as a prompt: a command run
    with ``!`` (``<user_shell_command>``, openai/codex ``codex-rs/core/src/context/
    user_shell_command.rs``), the IDE's state before ``## My request for Codex:``, and
    ``<turn_aborted>`` after an interrupt. Before: all three were prompts (three phases; the
    first "prompt" a block of XML), and the command the person ran was no command."""
    path = DATA / "rollout-2026-01-16T16-00-00-019bc7a1-0000-7000-8000-00000000000a.jsonl"
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id, e.command, e.exit_code) for e in events if e.seq] == [
        (1, 0, "tool_call", "user-shell-1-0", "nvidia-smi --query-gpu=memory.used --format=csv", None),
        (1, 1, "tool_result", "user-shell-1-0", None, 0),
        (2, 0, "system", None, None, None), (2, 1, "prompt", None, None, None),
        (3, 0, "system", None, None, None)]
    assert events[2].text == "memory.used [MiB]\n79012 MiB\n"
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == ["why is gpu01 full?"]
    assert [(c.command, c.exit_code) for c in a.commands] == [("nvidia-smi --query-gpu=memory.used --format=csv", 0)]


# -- SpecStory Markdown --------------------------------------------------------------------------


def test_a_specstory_session_has_prompts_commands_and_a_sub_agent():
    """SpecStory (``.specstory/history/*.md``) saves Claude Code, Codex and Cursor sessions as
    Markdown: ``_**User (time)**_`` / ``_**Agent (model time)**_`` lines, ``<think>`` and
    ``<tool-use data-tool-type="shell">`` blocks (specstoryai/getspecstory
    ``specstory-cli/pkg/markdown/markdown.go``). Before: read as a generic Markdown log: no
    prompt at all, the whole head one "text", and of four commands only the one in a ``bash``
    block, with the rest of the file as its output."""
    path = DATA / "specstory_claude_code.md"
    events, _ = _events(path)
    assert [(e.seq, e.block, e.agent, e.kind, e.call_id, e.exit_code, e.timestamp) for e in events] == [
        (0, 0, "main", "prompt", None, None, "2026-07-13T13:40:49Z"),
        (1, 0, "main", "thinking", None, None, "2026-07-13T13:40:56Z"),
        (2, 0, "main", "text", None, None, "2026-07-13T13:40:58Z"),
        (3, 0, "main", "tool_call", "specstory-call-1", None, "2026-07-13T13:41:01Z"),
        (3, 1, "main", "tool_result", "specstory-call-1", 2, "2026-07-13T13:41:01Z"),
        (4, 0, "main", "tool_call", "specstory-call-2", None, "2026-07-13T13:41:20Z"),
        (4, 1, "main", "tool_result", "specstory-call-2", None, "2026-07-13T13:41:20Z"),
        (5, 0, "main", "tool_call", "specstory-call-3", None, "2026-07-13T13:41:25Z"),
        (6, 0, "main", "prompt", None, None, "2026-07-13T13:42:00Z"),
        (7, 0, "sidechain", "tool_call", "specstory-call-4", None, "2026-07-13T13:42:05Z"),
        (7, 1, "sidechain", "tool_result", "specstory-call-4", None, "2026-07-13T13:42:05Z")]
    assert events[3].command == "ssh gpu01 'grep -m1 \"accept len\" /var/log/sglang.log'"
    assert events[5].command.startswith("ssh gpu01 'python3 -m sglang.launch_server --model ")
    assert (events[7].tool_name, events[7].path) == ("Read", "./launch.sh")
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == ["gpu01 serves 40 tok/s with EAGLE-3; find out why",
                                           "try with --mem-fraction-static 0.7"]
    assert [(c.seq, c.agent, c.host, c.exit_code) for c in a.commands] == [
        (3, "main", "gpu01", 2), (4, "main", "gpu01", None), (7, "sidechain", "gpu01", None)]
    assert [(e.kind, e.seq) for e in a.errors] == [("exit_code", 3), ("cuda_oom", 4)]


def test_an_older_specstory_file_keeps_commands_run_apart_from_examples():
    """An older SpecStory file (the Cursor extension): ``_**User**_`` / ``_**Assistant**_``, and a
    terminal command as a ``bash`` block followed by its output in a plain block. Example
    commands in an answer (a ``bash`` block followed by prose) were not run. Before: the one
    JSON line of the command's output made the file "Claude Code": 28 broken lines, one event."""
    events, _ = _events(DATA / "specstory_cursor_legacy.md")
    assert [(e.seq, e.block, e.kind, e.command, e.line) for e in events] == [
        (0, 0, "prompt", None, 7), (1, 0, "text", None, 13), (2, 0, "prompt", None, 26),
        (3, 0, "tool_call", "minsky tasks list --json", 32), (3, 1, "tool_result", None, 32),
        (3, 2, "text", None, 45)]
    assert events[4].text == '[\n  {"id": "#001", "status": "DONE"}\n]\n'


def test_a_specstory_folder_is_its_sessions_without_its_note(tmp_path):
    """``spec-debug analyze .specstory``: SpecStory keeps a note about the folder beside
    ``history/`` (``.specstory/.what-is-this.md``); it is no session."""
    folder = tmp_path / ".specstory"
    (folder / "history").mkdir(parents=True)
    (folder / ".what-is-this.md").write_text("# SpecStory Artifacts Directory\n\nThis directory is automatically "
                                             "created and maintained by the SpecStory extension.\n")
    shutil.copy(DATA / "specstory_claude_code.md", folder / "history" / "2026-07-13_13-40-49Z-eagle.md")
    sources = discover(folder)
    assert [(s.id, s.format, s.specstory) for s in sources] == [("2026-07-13_13-40-49Z-eagle", "text", True)]


def test_a_shell_prompt_with_the_git_branch_is_a_prompt(tmp_path):
    """Git's prompt helper adds the branch and its state to PS1, ``me@gpu01:~/sglang (main *)$``
    (git ``contrib/completion/git-prompt.sh``, ``__git_ps1 " (%s)"``), common where SGLang is
    built from a checkout. Before: no prompt was seen, and the log was one text with no command."""
    path = tmp_path / "gpu01.log"
    path.write_text("(sglang) me@gpu01:~/sglang (main)$ nvidia-smi -L\nGPU 0: NVIDIA H200\n"
                    "(sglang) me@gpu01:~/sglang (main *)$ git status --short\n"
                    " M python/sglang/srt/speculative/eagle_worker.py\n"
                    "me@gpu01:~/sglang (feature/eagle3|MERGING)$ git log -1 --format=%h\n3f2a1b9\n")
    events, _ = _events(path)
    assert [(e.kind, e.command or e.text, e.host) for e in events] == [
        ("tool_call", "nvidia-smi -L", "gpu01"), ("tool_result", "GPU 0: NVIDIA H200", None),
        ("tool_call", "git status --short", "gpu01"),
        ("tool_result", " M python/sglang/srt/speculative/eagle_worker.py", None),
        ("tool_call", "git log -1 --format=%h", "gpu01"), ("tool_result", "3f2a1b9", None)]


def test_a_prompt_history_named_by_mistake_is_refused_with_where_the_sessions_are(tmp_path):
    """``~/.claude/history.jsonl`` (``{display, pastedContents, timestamp, project}``) and
    ``~/.codex/history.jsonl`` (``{session_id, ts, text}``) hold the prompts typed, not the
    sessions. Before: read as an empty Claude Code session, a postmortem of nothing and exit 0."""
    claude = tmp_path / "history.jsonl"
    claude.write_text(json.dumps({"display": "why is gpu01 slow with EAGLE-3?", "pastedContents": {},
                                  "timestamp": 1755500000000, "project": "/work/serving"}) + "\n")
    with pytest.raises(UsageError, match="not a session transcript") as caught:
        discover(claude)
    assert "~/.claude/projects/" in caught.value.hint
    codex = tmp_path / "codex-history.jsonl"
    codex.write_text(json.dumps({"session_id": "019bc7a1-0000-7000-8000-00000000000a", "ts": 1755500000,
                                 "text": "why is gpu01 slow?"}) + "\n")
    with pytest.raises(UsageError, match="not a session transcript") as caught:
        discover(codex)
    assert "~/.codex/sessions/" in caught.value.hint
    # A record of a kind no reader knows yet, with a type, is still read (kept as "other").
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps({"type": "permission-mode", "permissionMode": "auto"}) + "\n")
    assert [s.format for s in discover(newer)] == ["claude-code"]


def test_a_tmux_capture_cut_at_the_pane_edge_reads_as_whole_lines():
    """``tmux capture-pane -p`` without ``-J`` writes the pane's rows: the launch command and
    each long log line come cut at 100 columns, trailing spaces trimmed (tmux(1)). Before: the
    command stopped at ``--spec`` (no EAGLE-3 flag, no draft), and "accept len: 1." / "02, cuda
    graph" read as an accept length of 1.0."""
    path = DATA / "tmux_capture_pane.txt"
    events, _ = _events(path)
    calls = [(e.seq, e.command, e.host) for e in events if e.kind == "tool_call"]
    assert calls == [
        (0, ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
             "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
             "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 --cuda-graph-max-bs 2"),
         "gpu-3"),
        (1, "nvidia-smi --query-gpu=memory.used --format=csv", "gpu-3")]
    output = events[1].text.split("\n")
    assert output[2] == ("[2025-08-18 10:03:02] Decode batch, #running-req: 1, #token: 1024, token usage: 0.01, "
                         "accept len: 1.02, cuda graph: True, gen throughput (token/s): 95.31, #queue-req: 0")
    assert output[1].endswith("avail mem=61.52 GB, mem usage=15.06 GB.")  # cut on a space: put back
    a = analyze_path(path)
    assert sorted((m.name, m.value) for m in a.metrics) == [("accept_length", 1.02), ("throughput", 95.31)]


def test_logs_that_are_no_pane_capture_keep_their_lines(tmp_path):
    """nvidia-smi's table (rows of one width) and SGLang decode lines of one width one after the
    other look like cut rows; so does prose an editor filled at a column. None is joined."""
    smi = ("+-----------------------------------------------------------------------------------------+\n"
           "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n"
           "|   0  NVIDIA H100 80GB HBM3          On  |   00000000:18:00.0 Off |                    0 |\n"
           "| N/A   34C    P0            118W /  700W |   79012MiB /  81559MiB |      0%      Default |\n"
           "+-----------------------------------------+------------------------+----------------------+\n")
    decode = ("[2025-08-18 10:03:1{}] Decode batch, #running-req: 12, #token: 10240, token usage: 0.11, accept len: "
              "3.02, cuda graph: True, gen throughput (token/s): 185.31, #queue-req: 0\n")
    log = tmp_path / "gpu-3.log"
    log.write_text("root@gpu-3:~# nvidia-smi\n" + smi + "root@gpu-3:~# tail -n 4 /var/log/sglang.log\n"
                   + "".join(decode.format(n) for n in range(4)) + "root@gpu-3:~# echo done\ndone\n")
    events, _ = _events(log)
    assert [e.command for e in events if e.kind == "tool_call"] == [
        "nvidia-smi", "tail -n 4 /var/log/sglang.log", "echo done"]
    assert [len(e.text.split("\n")) for e in events if e.kind == "tool_result"] == [5, 4, 1]
    notes = tmp_path / "notes.md"
    note = ("the draft model was loaded with the wrong hidden state layers so the accept length fell to one "
            "and throughput halved until the aux layer ids matched the training config again ")
    notes.write_text(textwrap.fill(note * 12, width=72) + "\n")
    assert pane_width(notes) is None


def test_llama_ipython_role_is_a_tool_result(tmp_path):
    """Llama 3.1 names a tool's output ``ipython`` (Meta's Llama 3.1 prompt format: "semantically
    the tool role"); an agent loop run on the Llama model the drafter serves keeps that role.
    Before: an "other" event counted unknown, the command's failure invisible."""
    messages = [
        {"role": "user", "content": "check the draft on gpu01"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "bash", "arguments": {"command": "ssh gpu01 ls /models/eagle3"}}}]},
        {"role": "ipython", "content": "Exit code 2\nls: cannot access '/models/eagle3': No such file or directory"}]
    path = tmp_path / "llama-agent.json"
    path.write_text(json.dumps(messages))
    events, stats = _events(path)
    assert [(e.kind, e.call_id, e.exit_code, e.is_error) for e in events] == [
        ("prompt", None, None, False), ("tool_call", "c1", None, False), ("tool_result", "c1", 2, True)]
    assert stats.unknown_types == 0


def test_codex_edits_through_the_shell_tool_are_edits_of_their_file(tmp_path):
    """Codex's instructions tell the model to edit with the shell tool, ``{"command":
    ["apply_patch", "*** Begin Patch…"]}`` (openai/codex ``codex-rs/core/prompt.md``), or
    ``apply_patch <<'EOF'`` in ``bash -lc``; later CLIs made it a tool of its own, and its
    ``arguments`` may be ``{"input": patch}``. Before: the first two were shell commands run on
    no host, ``apply_patch '*** Begin Patch…'``, with no file; the last had no file either."""
    patch = ("*** Begin Patch\n*** Update File: launch.sh\n@@\n"
             "-  --speculative-draft-model-path /models/eagle3-old \\\n"
             "+  --speculative-draft-model-path /models/eagle3 \\\n*** End Patch")
    heredoc = f"apply_patch <<'EOF'\n{patch}\nEOF"
    calls = [("shell", {"command": ["apply_patch", patch]}), ("shell", {"command": ["bash", "-lc", heredoc]}),
             ("apply_patch", {"input": patch}), ("shell", {"command": ["bash", "-lc", "rg -n apply_patch launch.sh"]})]
    lines = [{"timestamp": "2025-09-10T10:00:00.000Z", "type": "session_meta",
              "payload": {"id": "0199a213-81c0-7800-8aa1-bbab2a035a53", "cwd": "/work", "originator": "codex_cli_rs",
                          "cli_version": "0.36.0"}}]
    for n, (name, args) in enumerate(calls, 1):
        lines.append({"timestamp": f"2025-09-10T10:00:0{n}.000Z", "type": "response_item",
                      "payload": {"type": "function_call", "name": name, "arguments": json.dumps(args),
                                  "call_id": f"c{n}"}})
    path = tmp_path / "rollout-2025-09-10T10-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    events, _ = _events(path)
    assert [(e.tool_name, e.command, e.path) for e in events if e.kind == "tool_call"] == [
        ("apply_patch", None, "launch.sh"), ("apply_patch", None, "launch.sh"), ("apply_patch", None, "launch.sh"),
        ("shell", "rg -n apply_patch launch.sh", None)]
    assert events[1].text == patch
    assert [c.command for c in analyze_path(path).commands] == ["rg -n apply_patch launch.sh"]


def test_a_mini_swe_agent_trajectory_has_commands_and_exit_codes(tmp_path):
    """mini-swe-agent saves ``{info, messages, trajectory_format}``: each reply runs the one
    ``bash`` block it ends with, and the output comes back as a *user* message
    ``<returncode>N</returncode><output>…</output>`` (format 1.1 adds ``extra.actions`` and
    ``extra.returncode``/``raw_output``). Before: every output was a prompt (a phase each), and
    no command was seen."""
    path = DATA / "mini_swe_agent.traj.json"
    events, _ = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id, e.command, e.exit_code) for e in events if e.seq >= 2] == [
        (2, 0, "text", None, None, None),
        (2, 1, "tool_call", "call-2-shown", "ssh gpu01 'grep -m1 \"accept len\" /var/log/sglang.log'", None),
        (3, 0, "tool_result", "call-2-shown", None, 2),
        (4, 0, "text", None, None, None),
        (4, 1, "tool_call", "call-4-shown", "ssh gpu01 ls /var/log/sglang/", None),
        (5, 0, "tool_result", "call-4-shown", None, 0)]
    assert events[4].text == "grep: /var/log/sglang.log: No such file or directory"
    a = analyze_path(path)
    assert len(a.prompts) == 1
    assert [(c.seq, c.host, c.exit_code) for c in a.commands] == [(2, "gpu01", 2), (4, "gpu01", 0)]
    # format 1.1: the commands parsed, the return code and raw output beside the text
    traj = json.loads(path.read_text())
    traj["trajectory_format"] = "mini-swe-agent-1.1"
    traj["messages"][2]["extra"] = {"actions": [{"command": "ssh gpu01 ls /var/log"}], "timestamp": 10.0}
    traj["messages"][3]["extra"] = {"returncode": 0, "raw_output": "sglang\n", "timestamp": 11.0}
    newer = tmp_path / "run.traj.json"
    newer.write_text(json.dumps(traj))
    events, _ = _events(newer)
    assert [(e.seq, e.kind, e.call_id, e.command, e.exit_code, e.text) for e in events if e.seq in (2, 3)] == [
        (2, "text", None, None, None, events[2].text), (2, "tool_call", "call-2-0", "ssh gpu01 ls /var/log", None,
                                                        "ssh gpu01 ls /var/log"),
        (3, "tool_result", "call-2-0", None, 0, "sglang\n")]


def test_newer_claude_code_bookkeeping_lines_are_not_unknown(tmp_path):
    """CLI 2.1.x writes ``frame-link`` lines when an Artifact is published (daaain/claude-code-log
    ``test/test_data/artifact_tool.jsonl``, version 2.1.198) and ``permission-mode`` lines. Before:
    each counted as a line of unknown type in the summary."""
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join([
        _cc("user", 0, {"role": "user", "content": "publish the benchmark report"}),
        json.dumps({"type": "frame-link", "sessionId": SESSION, "path": "/work/serving/report.html",
                    "frameUrl": "https://claude.ai/code/artifact/11111111-2222-3333-4444-555555555555",
                    "timestamp": "2026-03-18T11:45:02.500Z"}),
        json.dumps({"type": "permission-mode", "permissionMode": "auto", "sessionId": SESSION}),
    ]) + "\n")
    events, stats = _events(path)
    assert [(e.kind, e.raw_type) for e in events] == [("prompt", None), ("other", "frame-link"),
                                                      ("other", "permission-mode")]
    assert stats.unknown_types == 0


def test_openhands_exit_code_trailers_in_tool_messages(tmp_path):
    """OpenHands saves the chat it had with the model (its completions logs) with each command's
    output followed by ``[The command completed with exit code 1.]`` (``[Command finished with
    exit code 1]`` in older releases). Before: the exit code was lost and the failed command read
    as one that ran."""
    call = {"id": "toolu_01", "type": "function", "function": {
        "name": "execute_bash", "arguments": json.dumps({"command": "ssh gpu01 nvidia-smi -L"})}}
    messages = [
        {"role": "user", "content": "is gpu01 up?"},
        {"role": "assistant", "content": "Checking.", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "toolu_01", "name": "execute_bash",
         "content": ("ssh: connect to host gpu01 port 22: Connection refused\n"
                     "[The command completed with exit code 255.]\n"
                     "[Current working directory: /workspace]\n[Python interpreter: /usr/bin/python]")},
        {"role": "assistant", "content": None, "tool_calls": [{**call, "id": "toolu_02"}]},
        {"role": "tool", "tool_call_id": "toolu_02", "name": "execute_bash",
         "content": "GPU 0: NVIDIA H200\n[Command finished with exit code 0]"}]
    path = tmp_path / "completion.json"
    path.write_text(json.dumps({"messages": messages}))
    events, _ = _events(path)
    assert [(e.call_id, e.exit_code, e.is_error) for e in events if e.kind == "tool_result"] == [
        ("toolu_01", 255, True), ("toolu_02", 0, False)]


# -- OpenHands ------------------------------------------------------------------------------------


def test_an_openhands_trajectory_reads_as_its_actions_and_observations(tmp_path):
    """An OpenHands (V0) trajectory: a JSON list of events, actions and the observations that name
    them by ``cause``, a command's exit code in ``extras.metadata.exit_code`` (``extras.exit_code``
    in older streams) (All-Hands-AI/OpenHands ``tests/runtime/trajs/basic.json``; TRANSCRIPTS.md
    section 1c). Before: read as Claude Code, no event but "other"."""
    path = DATA / "openhands_trajectory.json"
    events, stats = _events(path)
    assert [(e.seq, e.block, e.kind, e.call_id, e.command, e.path, e.exit_code) for e in events] == [
        (0, 0, "prompt", None, None, None, None), (1, 0, "other", None, None, None, None),
        (2, 0, "text", None, None, None, None),
        (2, 1, "tool_call", "3", "ssh gpu01 'grep -m1 \"accept len\" /var/log/sglang.log'", None, None),
        (3, 0, "tool_result", "3", None, None, 2),
        (4, 0, "tool_call", "5", None, "/workspace/launch.sh", None), (5, 0, "tool_result", "5", None, None, None),
        (6, 0, "text", None, None, None, None)]
    assert stats.unknown_types == 0
    a = analyze_path(path)
    assert a.sessions[0]["format"] == "openhands"
    assert [(c.seq, c.host, c.exit_code, c.is_error) for c in a.commands] == [(2, "gpu01", 2, True)]
    events_json = json.loads(path.read_text())
    events_json[3]["extras"] = {"command": events_json[3]["extras"]["command"], "exit_code": 2}
    older = tmp_path / "trajectory.json"
    older.write_text(json.dumps(events_json))
    assert [e.exit_code for e in _events(older)[0] if e.kind == "tool_result"] == [2, None]
    del events_json[2]["id"]  # a damaged event: kept, without a call id
    older.write_text(json.dumps(events_json))
    assert [(e.kind, e.call_id) for e in _events(older)[0] if e.kind == "tool_call"] == [("tool_call", None),
                                                                                         ("tool_call", "5")]
