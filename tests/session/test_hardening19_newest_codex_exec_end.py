"""Newest Codex CLIs persist the ``exec_command_end`` of every command the agent starts, and for
a command that outlived its first output it comes before the ``write_stdin`` poll that saw the
process exit (openai/codex ``codex-rs/core/src/rollout/policy.rs``, ``unified_exec/
async_watcher.rs``). The rollout: tests/data/transcripts_newest/README.md."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.analysis import analyze_path

ROLLOUT = (Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"
           / "rollout-2026-11-03T09-00-00-019c3a10-0000-7000-8000-000000000001.jsonl")


def test_a_server_that_died_while_polled_is_one_failure_with_one_error():
    doc = analyze_path(ROLLOUT).to_json()
    assert [(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (2, "gpu01", 1, True, 6),     # its exec_command_end, written before the poll returned
        (8, "gpu01", 0, False, 11)]   # the poll first, then exec_command_end: the poll's copy
    # the poll that saw the launch die repeats its OOM: not a second failed call nor error
    assert [(e["seq"], e["kind"], e["command_seq"]) for e in doc["errors"]] == [(6, "cuda_oom", 2)]
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (4, 1, 1)
    assert [(m["name"], m["value"]) for m in doc["metrics"]] == [("throughput", 1234.56), ("accept_length", 3.12)]
    assert doc["stats"]["unknown_types"] == 0


USER_SHELL = ROLLOUT.with_name("rollout-2026-11-03T10-00-00-019c3a10-0000-7000-8000-000000000002.jsonl")


def test_a_command_the_person_ran_with_bang_is_one_command_with_one_error():
    # The extended history writes the exec_command_end of a `!` command (source user_shell), and
    # the model is handed the same run as a <user_shell_command> message.
    doc = analyze_path(USER_SHELL).to_json()
    assert [(c["seq"], c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (3, "nvidia-smi --query-gpu=memory.used --format=csv", 9, True)]
    assert [(e["seq"], e["kind"], e["command_seq"]) for e in doc["errors"]] == [(3, "cuda_error", 3)]
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (1, 1, 1)


def test_what_a_sub_agent_told_its_parent_is_kept_in_words():
    # agent_message response items (multi-agent runs of the newest CLIs): the report, not a blank
    from spec_debug.session.events import ReadStats
    from spec_debug.session.formats import codex
    from spec_debug.session.formats.common import Cursor

    stats = ReadStats()
    said = [(e.kind, e.text) for e in codex.read(USER_SHELL, Cursor("s", "main", str(USER_SHELL)), stats)
            if e.raw_type == "agent_message"]
    assert said == [
        ("system", "message from /root/driver_check: Message Type: MESSAGE\nPayload:\n"
                   "dmesg shows NVRM: Xid 79, GPU has fallen off the bus"),
        ("system", "message from /root: ")]  # encrypted: who spoke, not what
    assert stats.unknown_types == 0


def test_codex_exec_json_plan_mode_lines_are_known_and_its_question_is_kept():
    # `codex exec --json` of newer CLIs: item.plan.delta and request_user_input lines
    from spec_debug.session.events import ReadStats
    from spec_debug.session.formats import codex_exec
    from spec_debug.session.formats.common import Cursor

    path = ROLLOUT.with_name("codex-exec-plan-mode.jsonl")
    stats = ReadStats()
    events = list(codex_exec.read(path, Cursor("s", "main", str(path)), stats))
    assert stats.unknown_types == 0
    assert [e.text for e in events if e.raw_type == "request_user_input"] == ["Is the server SGLang or vLLM?"]
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["exit_code"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi", "gpu01", 18)]
