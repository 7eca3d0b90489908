"""A command longer than the terminal sent to bash at one go (pasted, or typed faster than readline
redraws): at the right margin readline writes the next row's first character, a carriage return,
and that character again, not a space (``...--model-path /mo\\rodels/Llama...``). Before: only the
space form was read as a row wrap (test_hardening62_terminal_readline_wrap), so each later row was
written over the start of the prompt's: the prompt was lost and with it the command (its output and
failure went to the command before it, ``set -x``; or the command was read as
``odel-path /ckpt/eagle3 ...``). Now both forms are joined as the terminal showed them. The
typescripts are bash 5.2.15 sessions (``bash --norc --noprofile -i``, PS1 a conda-style
``(sglang) root@gpu01:~/work# ``) recorded with util-linux script 2.38.1 in a tmux 3.3a pane of
100 and 80 columns, each command sent with ``tmux send-keys``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

AT_100_COLUMNS = b"".join([
    b'Script started on 2026-12-06 20:37:00+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/de'
    b'v/pts/0" COLUMNS="100" LINES="40"]\n',
    b"\x1b[?2004h(sglang) root@gpu01:~/work# printf 'loading draft\\n' \\\r\n",
    b"\x1b[?2004l\r\x1b[?2004h> && printf 'ValueError: draft hidden size 4096 does not match target 5120\\n' && false \\\r\n",
    b'\x1b[?2004l\r\x1b[?2004h> && echo never\r\n',
    b'\x1b[?2004l\rloading draft\r\n',
    b'ValueError: draft hidden size 4096 does not match target 5120\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# set -x\r\n',
    b"\x1b[?2004l\r\x1b[?2004h(sglang) root@gpu01:~/work# true && printf 'RuntimeError: CUDA error: out of memory\\n'"
    b" && false; echo\ro after\r\n",
    b'\x1b[?2004l\r+ true\r\n',
    b"+ printf 'RuntimeError: CUDA error: out of memory\\n'\r\n",
    b'RuntimeError: CUDA error: out of memory\r\n',
    b'+ false\r\n',
    b'+ echo after\r\n',
    b'after\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# set +x\r\n',
    b'\x1b[?2004l\r+ set +x\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 20:37:04+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

AT_80_COLUMNS = b"".join([
    b'Script started on 2026-12-06 20:38:06+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" TTY="/de'
    b'v/pts/0" COLUMNS="80" LINES="40"]\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# echo python3 -m sglang.launch_server --model-path /mo\rodels/Llama-3.1'
    b'-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-mo\rodel-path /ckpt/eagle3 --port 30000; false\r\n',
    b'\x1b[?2004l\rpython3 -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm'
    b' EAGLE3 --speculative-draft-model-path /ckpt/eagle3 --port 30000\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# echo ok\r\n',
    b'\x1b[?2004l\rok\r\n',
    b'\x1b[?2004h(sglang) root@gpu01:~/work# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 20:38:08+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def _read(tmp_path: Path, data: bytes) -> list[tuple[str, str | None, str | None, bool]]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return [(c.command, c.host, c.cwd, c.is_error) for c in analyze_path(path).commands]


def test_a_row_wrap_with_the_next_character_keeps_the_prompt_and_command(tmp_path: Path) -> None:
    assert _read(tmp_path, AT_100_COLUMNS)[1:] == [
        ("printf 'loading draft\\n' && printf 'ValueError: draft hidden size 4096 does not match target 5120\\n'"
         " && false && echo never", "gpu01", "~/work", True),
        ("set -x", "gpu01", "~/work", False),  # was failed, with the next command's output
        ("true && printf 'RuntimeError: CUDA error: out of memory\\n' && false; echo after", "gpu01", "~/work", True),
        ("set +x", "gpu01", "~/work", False),
        ("exit", "gpu01", "~/work", False),
    ]


def test_a_launch_command_over_three_rows_is_read_whole(tmp_path: Path) -> None:
    assert _read(tmp_path, AT_80_COLUMNS)[1:] == [
        ("echo python3 -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct --speculative-algorithm"
         " EAGLE3 --speculative-draft-model-path /ckpt/eagle3 --port 30000; false", "gpu01", "~/work", False),
        ("echo ok", "gpu01", "~/work", False),
        ("exit", "gpu01", "~/work", False),
    ]
