"""zsh's right prompt showing the last command's status, ``RPROMPT='%(?..%? ↵) %*'`` (the status
only when it failed, then the clock: zshmisc(1), ``%(?..)``, ``%?``), as oh-my-zsh's bira shows
it on its framed prompt. Before: on a one-row prompt the ``1 ↵`` was cut off with the clock and
read nowhere, so a script that failed without a traceback (``sys.exit(1)`` after "checking draft
config") had no status and was no failure, and neither was a command zsh did not find (127). Now
the status the right prompt shows is the command's before it, in a script(1) typescript of zsh
5.9 and in a copy of the screen (tmux capture-pane) alike."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_PROMPT = ("\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m" + " " * 79 + "\r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J"
           "root@gpu01 ~ # \x1b[K")
# zsh 5.9 under util-linux script 2.38.1, 80 columns (the typed-ahead echo left out)
_TYPESCRIPT = (
    'Script started on 2026-12-07 17:35:46+00:00 [COMMAND="zsh -i"]\n'
    + _PROMPT + '\x1b[55C 17:35:47\x1b[64D\x1b[?1h\x1b=\x1b[?2004hp\x08python3 -c "import sys; '
    "print('checking draft config');\x1b[K sys.exit( \r\x1b[K1\r1)\"\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
    "checking draft config\r\n"
    + _PROMPT + "\x1b[52C1 ↵ 17:35:47\x1b[64D\x1b[?1h\x1b=\x1b[?2004hn\x08nvidia-smi-missing -L\x1b[?1l\x1b>"
    "\x1b[?2004l\r\r\nzsh: command not found: nvidia-smi-missing\r\n"
    + _PROMPT + "\x1b[50C127 ↵ 17:35:47\x1b[64D\x1b[?1h\x1b=\x1b[?2004hl\x08ls\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
    "check_draft.py\r\n"
    + _PROMPT + "\x1b[55C 17:35:47\x1b[64D\x1b[?1h\x1b=\x1b[?2004he\x08exit\x1b[?1l\x1b>\x1b[?2004l\r\r\n\n"
    'Script done on 2026-12-07 17:35:47+00:00 [COMMAND_EXIT_CODE="0"]\n')

_CAPTURE = """\
root@gpu01 ~ # python3 check_draft.py --config /models/eagle3/config.json              17:35:47
checking draft config
root@gpu01 ~ # nvidia-smi-missing -L                                               1 ↵ 17:35:47
zsh: command not found: nvidia-smi-missing
root@gpu01 ~ # ls                                                                127 ↵ 17:35:47
check_draft.py
root@gpu01 ~ #                                                                          17:35:48
"""


def test_the_right_prompts_status_in_a_typescript(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_text(_TYPESCRIPT, encoding="utf-8", newline="")
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error, c.command) for c in a.commands] == [
        (None, None, False, "zsh -i"),
        ("gpu01", 1, True, "python3 -c \"import sys; print('checking draft config'); sys.exit(1)\""),
        ("gpu01", 127, True, "nvidia-smi-missing -L"),
        ("gpu01", None, False, "ls"),
        ("gpu01", None, False, "exit")]


def test_the_right_prompts_status_in_a_screen_copy(tmp_path: Path) -> None:
    path = tmp_path / "pane.txt"
    path.write_text(_CAPTURE, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.exit_code, c.is_error, c.command) for c in a.commands] == [
        (1, True, "python3 check_draft.py --config /models/eagle3/config.json"),
        (127, True, "nvidia-smi-missing -L"),
        (None, False, "ls")]
