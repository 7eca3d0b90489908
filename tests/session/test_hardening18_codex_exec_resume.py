"""``codex exec --json`` numbers the items of each run from ``item_0`` (openai/codex
``codex-rs/exec/src/event_processor_with_jsonl_output.rs``), and ``codex exec --json resume
--last`` (openai/codex ``docs/exec.md``, "Resuming non-interactive sessions") prints a new
``thread.started`` and starts again at ``item_0``. With both runs in one log (``>>``), the
resumed run's commands were read as the first run's: its ``item_1`` was never called, and a
command the first run left unfinished (the process killed) took the resumed run's exit code.

Data: ``data_hardening18_codex/codex_exec_json_resumed.jsonl``, the sample output of
openai/codex ``docs/exec.md`` twice (SOURCE.md there)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening18_codex"
RESUMED = DATA / "codex_exec_json_resumed.jsonl"


def test_each_run_of_a_resumed_exec_log_keeps_its_commands() -> None:
    a = analyze_path(RESUMED)
    assert [(c.command, c.exit_code) for c in a.commands] == [("ls", 0), ("ls", 0)]
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (2, 0)


def test_a_command_a_killed_run_left_unfinished_does_not_take_the_next_runs_result(tmp_path: Path) -> None:
    lines = RESUMED.read_text(encoding="utf-8").splitlines()
    run = len(lines) // 2
    # the first run killed right after its command started (no item.completed, no turn.completed)
    log = tmp_path / "exec.jsonl"
    log.write_text("\n".join(lines[:4] + lines[run:]) + "\n", encoding="utf-8")
    a = analyze_path(log)
    assert [(c.command, c.exit_code) for c in a.commands] == [("ls", None), ("ls", 0)]
