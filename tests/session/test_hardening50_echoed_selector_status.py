"""A terminal log's ``echo $?`` after a grep that found nothing (``ps aux | grep [s]glang`` with
no server up) said 1, and the grep was counted a failed call, though a status of 1 the tool
recorded for the same grep is an answer (grep(1): "1 if no lines were selected")."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def test_an_echoed_1_of_a_grep_is_an_answer(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text("root@gpu01:~# ps aux | grep [s]glang\nroot@gpu01:~# echo $?\n1\n"
                    "root@gpu01:~# python3 /root/check.py\nroot@gpu01:~# echo $?\n1\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("ps aux | grep [s]glang", 1, False), ("echo $?", None, False),
        ("python3 /root/check.py", 1, True), ("echo $?", None, False)]
    assert a.agents[0]["failed_calls"] == 1
