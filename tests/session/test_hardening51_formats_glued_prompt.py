"""A terminal copied or captured as text (tmux capture-pane, a paste into a note): output that
ended with no newline (``curl -s localhost:30000/health`` prints its JSON so) has the next
prompt after it on the same line, ``{"status":"ok"}root@gpu01:~# nvidia-smi -L``. Prompts were
looked for at a line's start only: that command was lost, and its output (a "command not
found") became the health check's failure."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PANE = """\
root@gpu01:~# curl -s localhost:30000/health
{"status":"ok"}root@gpu01:~# nvidia-smi -L
bash: nvidia-smi: command not found
[root@gpu-3 ~]# curl -s localhost:30000/v1/models
{"object":"list","data":[]}[root@gpu-3 ~]# curl -s localhost:30000/get_server_info
{"speculative_algorithm":"EAGLE3"}
root@gpu01:~# echo scp root@gpu01:/models/eagle3 .
scp root@gpu01:/models/eagle3 .
"""


def test_a_prompt_after_output_with_no_newline_starts_the_next_command(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_text(PANE)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]] == [
        ("curl -s localhost:30000/health", "gpu01", False),
        ("nvidia-smi -L", "gpu01", True),
        ("curl -s localhost:30000/v1/models", "gpu-3", False),
        ("curl -s localhost:30000/get_server_info", "gpu-3", False),
        ("echo scp root@gpu01:/models/eagle3 .", "gpu01", False)]  # user@host in output: no prompt
    assert [e["command_seq"] for e in doc["errors"]] == [doc["commands"][1]["seq"]]


def test_a_prompt_a_grep_of_a_terminal_log_prints_is_output(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_text("root@gpu01:~# grep -n nvidia-smi terminal.log\n"
                    "terminal.log:12:root@gpu01:~# nvidia-smi -L\n"
                    "terminal.log:40-root@gpu01:~# nvidia-smi -q\n"
                    "root@gpu01:~# ls\nterminal.log\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == [
        "grep -n nvidia-smi terminal.log", "ls"]
