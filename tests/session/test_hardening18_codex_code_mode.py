"""Codex "code mode" (codex-cli 0.15x): the model's one tool is ``exec``, a JavaScript cell that
calls ``tools.exec_command({cmd: ...})``; the rollout keeps the cell and what it printed. Read
as any other custom tool, a code-mode session showed no command at all: no host, no server
launch, no exit code. And Codex's "aborted by user" results (Esc while a call ran) were neither
interrupts nor anything else.

Data: ``data_hardening18/`` (SOURCE.md there)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.codex_code_mode import cell_calls, cell_output

DATA = Path(__file__).parent / "data_hardening18"


def test_the_commands_of_a_real_code_mode_rollout_are_read_from_its_cells() -> None:
    a = analyze_path(DATA / "codex_0.157_code_mode.jsonl")
    commands = [c.command for c in a.commands]
    assert len(commands) == 3
    assert commands[0].startswith("pwd && rg --files -g 'AGENTS.md'")
    # the second cell runs an MCP tool and a command through Promise.allSettled
    assert commands[1].startswith("cat calc.py README.md; for p in /AGENTS.md")
    assert '[ -f "$p" ]' in commands[1]  # the JavaScript escapes are undone
    assert commands[2].startswith("python -B - <<'PY'\nfrom calc import add, multiply")
    # each command printed its record, {"chunk_id", "exit_code": 0, "output"}: the status is known
    assert [c.exit_code for c in a.commands] == [0, 0, 0]
    assert a.stats["errors"] == 0


def test_a_cell_that_only_patches_is_an_edit_of_the_patched_file() -> None:
    source = json.loads((DATA / "codex_0.157_code_mode.jsonl").read_text().splitlines()[4])["payload"]["input"]
    cell = cell_calls(source)
    assert cell.patch_files == ["/home/ubuntu/.bromure/worktrees/cx-demo/qa-cx-task1-multiply-261005-1154/calc.py"]
    assert len(cell.commands) == 1


def test_the_output_a_cell_printed_is_unwrapped_from_its_json_record() -> None:
    line = json.loads((DATA / "codex_0.157_code_mode.jsonl").read_text().splitlines()[5])
    out = cell_output(line["payload"]["output"])
    assert out is not None and out.exit_code == 0 and not out.failed
    assert "/bin/bash: line 1: python: command not found\n[wt/qa-cx-task1-multiply" in out.text
    assert "chunk_id" not in out.text and "Script completed" not in out.text


def test_a_command_that_exits_non_zero_inside_a_cell_is_a_failed_call() -> None:
    a = analyze_path(DATA / "codex_code_mode_failures.jsonl")
    (cmd,) = a.commands
    assert (cmd.command, cmd.exit_code, cmd.is_error) == ("false", 1, True)
    (main,) = a.agents
    assert main["failed_calls"] == 1


def test_a_cell_that_runs_on_is_ended_by_the_wait_that_polls_it() -> None:
    a = analyze_path(DATA / "codex_code_mode_running.jsonl")
    (main,) = a.agents
    # the cell and its two waits: the partial "Script running" outputs close nothing
    assert main["failed_calls"] == 0
    assert a.stats["errors"] == 0


def test_a_script_that_threw_is_a_failure_with_its_error(tmp_path: Path) -> None:
    """The header and "Script error:" block are openai/codex codex-rs/core/tests/suite/code_mode.rs's."""
    path = tmp_path / "rollout.jsonl"
    lines = [
        {"timestamp": "2026-10-05T16:00:00.000Z", "type": "response_item", "payload": {
            "type": "custom_tool_call", "status": "completed", "call_id": "c1", "name": "exec",
            "input": "text(await tools.exec_command({cmd:\"ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'\"}));"}},
        {"timestamp": "2026-10-05T16:00:01.000Z", "type": "response_item", "payload": {
            "type": "custom_tool_call_output", "call_id": "c1", "output": [
                {"type": "input_text", "text": "Script failed\nWall time 0.0 seconds\nOutput:\n"},
                {"type": "input_text", "text": "Script error:\nexec_command failed: Too many open files (os error 24)"}]}},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    a = analyze_path(path)
    (cmd,) = a.commands
    assert (cmd.host, cmd.inner, cmd.is_error) == ("gpu01", "nvidia-smi --query-gpu=memory.used --format=csv", True)
    assert any("Too many open files" in e.message for e in a.errors)


def test_only_literal_commands_are_read_from_a_cell() -> None:
    cell = cell_calls('const f = ".env"; text((await tools.exec_command({ cmd: "cat " + f })).output);'
                      "await tools.exec_command({cmd:'echo \\'hi\\' \\u00e9', \"max_output_tokens\":10});"
                      "await tools.exec_command({cmd:`ssh ${host} uptime`});")
    # "cat " + f is built at run time, and so is the template with ${host}
    assert cell.commands == ["echo 'hi' \u00e9"]


def _rollout(path: Path, *payloads: dict) -> Path:
    lines = [{"timestamp": "2026-03-02T08:00:00.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2-0000-7000-8000-0000000000aa", "cwd": "/home/me/work",
                          "originator": "codex_cli_rs", "cli_version": "0.98.0", "source": "cli"}}]
    for n, payload in enumerate(payloads, 1):
        lines.append({"timestamp": f"2026-03-02T08:00:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def test_a_command_the_person_stopped_with_esc_is_an_interrupt_not_a_success(tmp_path: Path) -> None:
    """``Wall time: 9.5 seconds\\naborted by user`` is what openai/codex issue #35735 quotes from
    a rollout; ``aborted by user after 1.0s`` is the same abort of a non-shell tool
    (codex-rs/core/src/tools/parallel.rs, ``abort_message``)."""
    launch = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama3-8b "
              "--speculative-algorithm EAGLE3 --speculative-num-steps 1 --port 30000'")
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "function_call", "name": "exec_command", "call_id": "call_launch",
         "arguments": json.dumps({"cmd": launch, "yield_time_ms": 10000})},
        {"type": "function_call_output", "call_id": "call_launch", "output": "Wall time: 9.5 seconds\naborted by user"},
        {"type": "custom_tool_call", "status": "completed", "call_id": "call_cell", "name": "exec",
         "input": "text(await tools.exec_command({cmd:\"ssh gpu01 'tail -f /tmp/sglang.log'\"}));"},
        {"type": "custom_tool_call_output", "call_id": "call_cell", "output": "aborted by user after 5.0s"},
    )
    a = analyze_path(path)
    assert a.stats["interrupts"] == 2
    assert a.stats["errors"] == 0
    assert [(c.host, c.is_error) for c in a.commands] == [("gpu01", False), ("gpu01", False)]


def test_a_command_whose_output_says_aborted_later_is_no_interrupt(tmp_path: Path) -> None:
    path = _rollout(
        tmp_path / "rollout.jsonl",
        {"type": "function_call", "name": "exec_command", "call_id": "c1",
         "arguments": json.dumps({"cmd": "grep -n 'aborted by user' notes.md"})},
        {"type": "function_call_output", "call_id": "c1",
         "output": "Chunk ID: 1a\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n3: run aborted by user\n"},
    )
    a = analyze_path(path)
    assert a.stats["interrupts"] == 0


def test_the_wait_that_ends_a_running_cell_gives_its_command_the_exit_code(tmp_path: Path) -> None:
    """The shape of ``codex_code_mode_running.jsonl`` with a benchmark in the cell."""
    lines = (DATA / "codex_code_mode_running.jsonl").read_text().splitlines()
    cell = json.loads(lines[0])
    cell["payload"]["input"] = ('text(await tools.exec_command({cmd:"ssh gpu01 \'python3 -m sglang.bench_serving '
                                '--backend sglang --num-prompts 80\'",yield_time_ms:30000}));')
    last = json.loads(lines[5])
    last["payload"]["output"][1]["text"] = json.dumps(
        {"chunk_id": "9f", "wall_time_seconds": 40.2, "exit_code": 1, "original_token_count": 9,
         "output": "ConnectionRefusedError: [Errno 111] Connection refused\n"})
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join([json.dumps(cell), *lines[1:5], json.dumps(last)]) + "\n")
    a = analyze_path(path)
    (cmd,) = a.commands
    assert (cmd.host, cmd.category, cmd.exit_code, cmd.is_error) == ("gpu01", "benchmark", 1, True)
    assert [e.kind for e in a.errors] == ["connection"]
