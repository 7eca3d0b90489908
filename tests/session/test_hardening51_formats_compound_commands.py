"""A loop or an ``if`` typed over several lines at a prompt: bash prints PS2 (``> ``) and reads on
until the ``done``/``fi``/``esac``/``}`` that closes it (bash(1), Compound Commands; zsh prints
``for> ``). Only a backslash, an open quote, a pipe or ``&&`` was taken to continue a command,
so ``for h in gpu01 gpu02; do`` was a command of its own, its body (the ssh to each host) was
output, and the loop's output followed no command that ran it."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats.shell_typing import open_compounds

# A bash 5.2 session recorded with util-linux script 2.38.1 (its bytes as the typescript has them).
TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="bash -i" <not executed on terminal>]\n'
    b"\x1b[?2004hme@login01:~$ for h in gpu01 gpu02; do\r\n"
    b"\x1b[?2004l\r\x1b[?2004h> ssh $h nvidia-smi --query-gpu=name --format=csv,noheader\r\n"
    b"\x1b[?2004l\r\x1b[?2004h> done\r\n"
    b"\x1b[?2004l\rNVIDIA H100 80GB HBM3\r\nssh: connect to host gpu02 port 22: Connection refused\r\n"
    b"\x1b[?2004hme@login01:~$ if curl -sf localhost:30000/health; then\r\n"
    b"\x1b[?2004l\r\x1b[?2004h> echo up\r\n"
    b"\x1b[?2004l\r\x1b[?2004h> fi\r\n"
    b"\x1b[?2004l\rup\r\n"
    b"\x1b[?2004hme@login01:~$ echo done\r\n"
    b"\x1b[?2004l\rdone\r\n"
    b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_a_loop_typed_over_lines_is_one_command_with_its_body(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"] if c["command"] != "bash -i"] == [
        "for h in gpu01 gpu02; do\nssh $h nvidia-smi --query-gpu=name --format=csv,noheader\ndone",
        "if curl -sf localhost:30000/health; then\necho up\nfi",
        "echo done"]
    loop = next(c for c in doc["commands"] if c["command"].startswith("for "))
    assert [e["command_seq"] for e in doc["errors"]] == [loop["seq"]]  # the refused ssh is the loop's


def test_zsh_names_the_open_construct_in_its_ps2(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text("me@gpu01 ~ % while ! curl -sf localhost:30000/health; do\nwhile> sleep 5\nwhile> done\n"
                    "me@gpu01 ~ % nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    assert [c["command"] for c in analyze_path(path).to_json()["commands"]] == [
        "while ! curl -sf localhost:30000/health; do\nsleep 5\ndone", "nvidia-smi -L"]


@pytest.mark.parametrize("typed, still_open", [
    ("for h in gpu01 gpu02; do", 1), ("for h in gpu01 gpu02", 1), ("if [ -f x ]; then", 1), ("case $x in", 1),
    ("f() {", 1), ("while true; do sleep 1; done", 0), ("if true; then for i in 1; do", 2),
    ("echo done", 0), ('echo "for x; do"', 0), ("ls  # for x in y; do", 0), ("X=$(echo 5)", 0), ("echo ${x}", 0),
])
def test_which_lines_leave_a_compound_command_open(typed: str, still_open: int) -> None:
    assert open_compounds(typed) == still_open


def test_a_traced_loop_head_is_no_command_left_open(tmp_path: Path) -> None:
    # set -x traces a for loop's head before each turn, alone; it is no command waiting for a
    # `done` that a trace never prints (it took every later trace line into it)
    path = tmp_path / "job.out"
    path.write_text("+ for h in gpu01 gpu02\n+ ssh gpu01 nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
                    "+ for h in gpu01 gpu02\n+ ssh gpu02 nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    assert [(c["command"], c["host"]) for c in analyze_path(path).to_json()["commands"]] == [
        ("ssh gpu01 nvidia-smi -L", "gpu01"), ("ssh gpu02 nvidia-smi -L", "gpu02")]
