"""Notes in Markdown whose fenced block shows ``$ ssh gpu-a3 'ps -ww -o args -C python3 | grep
launch_server'`` and, below it, the server's command line it printed: that line was read as a
second command (run where the notes were taken), not as the output of the ps. A launch line
under a command that prints command lines (ps, pgrep, a grep or cat of a script, history, a
process's cmdline) is its output; under one that prints nothing (cd, export, source) it is the
next command typed without its prompt."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LAUNCH = ("python3 -m sglang.launch_server --model-path /m/target --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path /m/draft --speculative-num-steps 1 --speculative-eagle-topk 1")


def _notes(tmp_path: Path, typed: str) -> list[tuple[str | None, str]]:
    path = tmp_path / "notes.md"
    path.write_text(f"# gpu-a3 slowdown\n\nLaunch flags:\n\n```\n$ {typed}\n{_LAUNCH}\n```\n\nDone.\n", encoding="utf-8")
    return [(c.host, c.command) for c in analyze_path(path).commands]


def test_a_launch_line_under_a_ps_is_its_output(tmp_path: Path) -> None:
    ps = "ssh gpu-a3 'ps -ww -o args -C python3 | grep launch_server'"
    assert _notes(tmp_path, ps) == [("gpu-a3", ps)]


def test_a_launch_line_under_a_grep_of_a_script_is_its_output(tmp_path: Path) -> None:
    assert _notes(tmp_path, "grep launch_server ~/run.sh") == [(None, "grep launch_server ~/run.sh")]


def test_a_launch_line_under_a_cd_is_the_next_command(tmp_path: Path) -> None:
    assert _notes(tmp_path, "cd ~/sglang") == [(None, "cd ~/sglang"), (None, _LAUNCH)]


def test_the_output_keeps_its_launch_finding(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(f"```\n$ ssh gpu-a3 'pgrep -af launch_server'\n{_LAUNCH}\n```\n", encoding="utf-8")
    analysis = analyze_path(path)
    [finding] = [f for f in analysis.findings if f.code == "SD101"]
    [command] = analysis.commands
    # (a command and its output are one piece: the finding is at the command's seq; the block's
    # opening fence is no note of its own since hardening69, so the command is the first message)
    assert (finding.seq, finding.host) == (command.seq, "gpu-a3") == (0, "gpu-a3")
