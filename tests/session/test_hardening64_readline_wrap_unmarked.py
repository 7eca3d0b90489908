"""A command longer than the terminal, typed at a bash prompt that no mark precedes, recorded by
script(1): readline goes on to the next row with a space past the last column and a carriage
return (GNU readline ``display.c``, ``update_line``: "at the right edge of a terminal that
supports xn, we're ready to wrap around"). Such wraps were joined only on a row that bracketed
paste's ``\\x1b[?2004h`` or a window title starts; bash 5.0 and older (readline before 8.1)
turn bracketed paste on only when told to, and Debian's .bashrc sets a title only for
TERM=xterm*, not in tmux or screen. There each row was written over the one before: the prompt
was lost, so was the command (``-llama3.1-8b --tp 13.1-8b-instruct ...`` became the output of
the command before it).

The typescript below is a real recording: util-linux script 2.38.1 running bash 5.2.15 with
``bind 'set enable-bracketed-paste off'`` and ``PS1='\\u@\\h:\\w\\$ '`` (what bash 5.0 shows by
default) in an 80-column pty with TERM=screen, the command typed key by key."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TYPESCRIPT = (
    b'Script started on 2026-12-06 14:27:33+00:00 [COMMAND="bash --noprofile --rcfile /tmp/textlogs-scratch/rec/'
    b'bashrc50 -i" TERM="screen" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n'
    b'root@vm:~# python3 -c \'import sys; print("loading draft"); sys.exit(3)\' --model- \rpath /models/llama-3.1-8b-'
    b'instruct --speculative-draft-model-path /models/eagle3 \r-llama3.1-8b --tp 1\r\n'
    b'loading draft\r\n'
    b'root@vm:~# echo done\r\n'
    b'done\r\n'
    b'root@vm:~# exit\r\n'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-06 14:27:37+00:00 [COMMAND_EXIT_CODE="0"]\n'
)


def test_a_wrapped_command_at_an_unmarked_prompt_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    commands = [(c.command, c.host) for c in analyze_path(path).commands]
    assert commands[1:] == [
        ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
         "--speculative-draft-model-path /models/eagle3-llama3.1-8b --tp 1", "vm"),
        ("echo done", "vm"),
        ("exit", "vm"),
    ]


def test_a_space_and_return_short_of_the_margin_is_no_wrap(tmp_path: Path) -> None:
    # readline redrawing after a space typed: the cursor is not past the last column, the
    # carriage return goes back over the row as before
    path = tmp_path / "typescript"
    path.write_bytes(
        b'Script started on 2026-12-06 14:27:33+00:00 [COMMAND="bash" TERM="screen" TTY="/dev/pts/0" COLUMNS="80" '
        b'LINES="24"]\n'
        b'root@vm:~# ls  \rroot@vm:~# ls -la\r\n'
        b'total 0\r\n')
    assert [c.command for c in analyze_path(path).commands][1:] == ["ls -la"]
