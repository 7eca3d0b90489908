"""A screen capture of zsh with powerlevel10k's lean style (its wizard's first choice): each prompt
is two rows after a blank line, the folder and git on the first with the right segments at the
right edge (the last command's status when it failed by a signal or in a pipeline, ``✘ INT``,
``✘ 0|1``; its time; ``root@gpu01`` over ssh), then the bare ``❯`` the command is typed after
(romkatv/powerlevel10k ``config/p10k-lean.zsh``: LEFT/RIGHT_PROMPT_ELEMENTS, PROMPT_ADD_NEWLINE,
STATUS_*, CONTEXT_TEMPLATE '%n@%m').

Before: the first row was read as the last line of the output before it, the status it shows was
not read (a pipeline whose grep found nothing, a server the OOM killer took, were no failures),
nor the host, and the capture's last, empty ``❯`` row was output too. The rows are laid out as
tmux capture-pane -p prints a 100-column pane (the right prompt one column short of the edge)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor

WIDTH = 100


def _top(left: str, right: str = "") -> str:
    return left + " " * (WIDTH - 1 - len(left) - len(right)) + right if right else left


def _outputs(rows: list[str]) -> list[str]:
    events = text_log.read_lines(((n, row, None) for n, row in enumerate(rows, 1)), Cursor("s", "main", "pane.log"))
    return [e.text for e in events if e.kind == "tool_result"]


def _capture(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "pane.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_lean_two_row_prompts_over_ssh(tmp_path: Path) -> None:
    rows = [
        "",
        _top("~/sglang main", "root@gpu01"),
        "\u276f nvidia-smi -L",
        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f3c2b1a-0d9e-4c7b-8a6f-1e2d3c4b5a69)",
        "",
        _top("~/sglang main", "root@gpu01"),
        "\u276f nvidia-smi -L | grep H200",
        "",
        _top("~/sglang main", "\u2718 0|1 root@gpu01"),
        "\u276f python3 -m sglang.launch_server --model-path /models/llama-3.1-8b --speculative-algorithm EAGLE3",
        "[2026-12-06 10:41:02] server_args=ServerArgs(model_path='/models/llama-3.1-8b')",
        "zsh: killed     python3 -m sglang.launch_server --model-path /models/llama-3.1-8b",
        "",
        _top("~/sglang main", "\u2718 KILL 1m 12s root@gpu01"),
        "\u276f",
        "",
    ]
    a = analyze_path(_capture(tmp_path, rows))
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("nvidia-smi -L", "gpu01", None, False),
        ("nvidia-smi -L | grep H200", "gpu01", 1, False),  # grep's 1: it found none, no failure
        ("python3 -m sglang.launch_server --model-path /models/llama-3.1-8b --speculative-algorithm EAGLE3",
         "gpu01", 137, True),
    ]
    # the prompt's rows are no output; the empty prompt the capture ends on is none either
    assert _outputs(rows) == [
        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f3c2b1a-0d9e-4c7b-8a6f-1e2d3c4b5a69)",
        "",  # grep printed nothing: its status, from the prompt after it
        "[2026-12-06 10:41:02] server_args=ServerArgs(model_path='/models/llama-3.1-8b')\n"
        "zsh: killed     python3 -m sglang.launch_server --model-path /models/llama-3.1-8b"]
    [killed] = [e for e in a.errors if e.command_seq == a.commands[2].seq]
    assert (killed.kind, killed.exception) == ("signal", "SIGKILL")


def test_a_local_lean_prompt_shows_no_host(tmp_path: Path) -> None:
    rows = [
        "",
        _top("~/work"),
        "\u276f echo hi",
        "hi",
        "",
        _top("~/work"),
        "\u276f cat /etc/hostname",
        "laptop",
    ]
    assert [(c.command, c.host) for c in analyze_path(_capture(tmp_path, rows)).commands] == [
        ("echo hi", None), ("cat /etc/hostname", None)]
    assert _outputs(rows) == ["hi", "laptop"]


def test_a_path_printed_right_before_a_one_row_prompt_stays_output() -> None:
    # no blank line between the output and the prompt: a one-row prompt, the path is output
    assert _outputs(["\u276f pwd", "/root/sglang", "\u276f ls", "README.md"]) == ["/root/sglang", "README.md"]
    # nor is a row after a blank line that names no folder (starship's "sglang on  main")
    assert _outputs(["\u276f ls", "a", "", "sglang on main", "\u276f pwd"]) == ["a\n\nsglang on main"]
