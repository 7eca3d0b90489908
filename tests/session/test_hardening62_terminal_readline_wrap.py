"""A command typed past the terminal's right margin at a bash prompt: readline goes on to the
next row with a space past the last column and a carriage return, and writes the next character
over that space (GNU readline ``display.c``, ``update_line``: "at the right edge of a terminal that
supports xn, we're ready to wrap around"). Before: that carriage return was read as a redraw of the
row, so the rest of the command overwrote the prompt: the command was lost (or cut, ``load.p`` for
``load.py``) and its output and failure went to the command before it (``export PS1=...`` failed
with status 1, no error kept). Now the rows are joined as the terminal showed them. The
typescripts are bash 5.2.15 sessions (``bash --norc --noprofile -i``) recorded with util-linux
script 2.38.1 in a pty of 80, 100 and 120 columns, the keys typed through the pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

AT_80_COLUMNS = b"".join([
    b'Script started on 2026-12-06 08:13:26+00:00 [COMMAND="bash --norc --noprofile -i'
    b'" TERM="xterm" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='\\u@gpu-node-7:\\w\\$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# python3 load.py --draft '
    b'/ckpt/eagle3 --ta \rrget /models/Llama-3.1-8B-Instruct\r\n',
    b'\x1b[?2004l\rloading draft\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# python3 load.py --draft /ckpt/eag'
    b'le3 --ta \rrget /models/Llama-3.1-8B-Instruct --steps 3 --topk 4 --num-draft-toke'
    b'ns 16 --po \rrt 30000\r\n',
    b'\x1b[?2004l\rloading draft\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# echo $?\r\n',
    b'\x1b[?2004l\r1\r\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 08:13:33+00:00 [COMMAND_EXIT_CODE="0"]\n',
])
"""Two commands that wrap, once and twice, then ``echo $?``."""

AT_100_COLUMNS = b"".join([
    b'Script started on 2026-12-06 08:13:56+00:00 [COMMAND="bash --norc --noprofile -i'
    b'" TERM="xterm" TTY="/dev/pts/0" COLUMNS="100" LINES="24"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='\\[\\e]0;\\u@gpu-node-7: \\w\\a\\]\\[\\033[01;32m\\]\\u@gpu-"
    b"node-7\\[\\033[00m\\]:\\[\\033[01 \r;34m\\]\\w\\[\\033[00m\\]\\$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004h\x1b]0;root@gpu-node-7: /tmp/term-scratch/rec\x07\x1b[01;32mroot@gpu-nod'
    b'e-7\x1b[00m:\x1b[01;34m/tmp/term-scratch/rec\x1b[00m# python3 load.py --draft /ckpt/eagle'
    b'3 --target /models/Llama-3 \r.1-8B-Instruct --steps 3 --topk 4\r\n',
    b'\x1b[?2004l\rloading draft\r\n',
    b'Error: could not load draft\r\n',
    b'\x1b[?2004h\x1b]0;root@gpu-node-7: /tmp/term-scratch/rec\x07\x1b[01;32mroot@gpu-node-7\x1b[00m:'
    b'\x1b[01;34m/tmp/term-scratch/rec\x1b[00m# ls -la \x08\x08\x08\x08\x08\x08\x08\r\n',
    b'\x1b[?2004l\rtotal 16\r\n',
    b'drwxr-xr-x 3 root root 4096 Dec  6 08:13 .\r\n',
    b'drwxr-xr-x 4 root root 4096 Dec  6 08:13 ..\r\n',
    b'-rw-r--r-- 1 root root   74 Dec  6 08:11 load.py\r\n',
    b'drwxr-xr-x 2 root root 4096 Dec  6 08:09 sub\r\n',
    b'\x1b[?2004h\x1b]0;root@gpu-node-7: /tmp/term-scratch/rec\x07\x1b[01;32mroot@gpu-node-7\x1b[00m:'
    b'\x1b[01;34m/tmp/term-scratch/rec\x1b[00m# echo done\r\n',
    b'\x1b[?2004l\rdone\r\n',
    b'\x1b[?2004h\x1b]0;root@gpu-node-7: /tmp/term-scratch/rec\x07\x1b[01;32mroot@gpu-node-7\x1b[00m:'
    b'\x1b[01;34m/tmp/term-scratch/rec\x1b[00m# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 08:14:02+00:00 [COMMAND_EXIT_CODE="0"]\n',
])
"""Debian's coloured PS1 with a window title; the ``export PS1=...`` typed at ``bash-5.2#`` wraps too."""

REDRAWN_AFTER_A_SPACE = b"".join([
    b'Script started on 2026-12-06 08:14:13+00:00 [COMMAND="bash --norc --noprofile -i'
    b'" TERM="xterm" TTY="/dev/pts/0" COLUMNS="120" LINES="24"]\n',
    b"\x1b[?2004hbash-5.2# export PS1='\\u@gpu-node-7:\\w\\$ '\r\n",
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# python3 load.py --draft '
    b'/ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct \r\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C'
    b'\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b['
    b'C\x1b[C\x1b[C\x1b[C\x1b[1@t\x1b[1@i\x1b[1@m\x1b[1@e python3 load.py --draft /ckpt/eagle3 --target /mo'
    b'dels/Llama-3.1-8B-Instruct  \x1b[A\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b'
    b'[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C'
    b'\r\n',
    b'\r\x1b[?2004l\rloading draft\r\n',
    b'Error: could not load draft\r\n',
    b'\r\n',
    b'real\t0m0.138s\r\n',
    b'user\t0m0.029s\r\n',
    b'sys\t0m0.014s\r\n',
    b'\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec# exit\r\n',
    b'\x1b[?2004l\rexit\r\n',
    b'\n',
    b'Script done on 2026-12-06 08:14:18+00:00 [COMMAND_EXIT_CODE="1"]\n',
])
"""A space typed, then Ctrl-A and ``time `` before the command, 120 columns: the space and carriage
return at column 117 are readline's redraw from the row's start, no wrap."""


TWO_LINE_PROMPT = (
    b'Script started on 2026-12-06 08:32:03+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" T'
    b'TY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[?2004hbash-5.2# export PS1=\'\\u@gpu-node-7:\\w\\n$ \'\r\n\x1b['
    b'?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n$ python3 load.py --draft /ckpt/eagle3 --'
    b'target /models/Llama-3.1-8B-Instruct -- \rsteps 3 --topk 4 --num-draft-tokens 16\r\n\x1b[?2004l\rloadin'
    b'g draft\r\nError: could not load draft\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n$ hostname'
    b'\r\n\x1b[?2004l\rvm\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n$ exit\r\n\x1b[?2004l\rexit\r\n\nScript do'
    b'ne on 2026-12-06 08:32:09+00:00 [COMMAND_EXIT_CODE="0"]\n'
)
"""``PS1='\\u@gpu-node-7:\\w\\n$ '``: the command is typed on the prompt's second row, which holds no
bracketed-paste mark of its own (80 columns)."""


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"] if c["host"] == "gpu-node-7"], \
        [e["message"] for e in doc["errors"]]


def test_a_command_wrapped_once_and_twice_at_80_columns_is_whole(tmp_path: Path) -> None:
    commands, errors = _commands(tmp_path, AT_80_COLUMNS)
    assert commands == [
        ("python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct", True, None),
        ("python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct --steps 3 --topk 4"
         " --num-draft-tokens 16 --port 30000", True, 1),
        ("echo $?", False, None),
        ("exit", False, None),
    ]
    assert errors == ["Error: could not load draft", "Error: could not load draft"]


def test_the_prompt_set_before_them_did_not_fail(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(AT_80_COLUMNS)
    doc = analyze_path(path).to_json()
    export = [c for c in doc["commands"] if c["command"].startswith("export PS1=")]
    assert [(c["is_error"], c["exit_code"]) for c in export] == [(False, None)]


def test_a_coloured_prompt_at_100_columns(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(AT_100_COLUMNS)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][1:] == [
        "export PS1='\\[\\e]0;\\u@gpu-node-7: \\w\\a\\]\\[\\033[01;32m\\]\\u@gpu-node-7\\[\\033[00m\\]:"
        "\\[\\033[01;34m\\]\\w\\[\\033[00m\\]\\$ '",
        "python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct --steps 3 --topk 4",
        "ls -la", "echo done", "exit"]
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]


def test_a_space_and_carriage_return_short_of_the_margin_stay_a_redraw(tmp_path: Path) -> None:
    commands, errors = _commands(tmp_path, REDRAWN_AFTER_A_SPACE)
    assert commands == [
        ("time python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct", True, None),
        ("exit", False, None),
    ]
    assert errors == ["Error: could not load draft"]


def test_a_command_wrapped_on_a_two_line_prompts_last_row(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TWO_LINE_PROMPT)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][2:] == [
        "python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct --steps 3 --topk 4"
        " --num-draft-tokens 16",
        "hostname", "exit"]
