"""A two-row bash prompt, ``PS1='\\u@gpu-node-7:\\w\\n\\$ '``: ``root@gpu-node-7:/tmp/term-scratch/rec``
on one row, ``# `` (root's ``\\$``) and the command on the next (bash(1), PROMPTING). Before: the
``# `` row was no prompt at all (nothing was read but the ``export PS1=...``), and for ``$ `` (a
user's) the commands had no host or folder while the first row was read as the output of the
command before, after its last line: ``python3 load.py`` closing with ``Error: could not load
draft`` was no failure. Now the two rows are read as one prompt, as Debian's one-row PS1 shows it.
The typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1 in an 80-column pty,
the keys typed through the pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ROOT_TWO_ROWS = (
    b'Script started on 2026-12-06 08:31:52+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" T'
    b'TY="/dev/pts/0" COLUMNS="80" LINES="24"]\n\x1b[?2004hbash-5.2# export PS1=\'\\u@gpu-node-7:\\w\\n\\$ \'\r\n\x1b'
    b'[?2004l\r\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n# python3 load.py --draft /ckpt/eagle3 -'
    b'-target /models/Llama-3.1-8B-Instruct -- \rsteps 3 --topk 4 --num-draft-tokens 16\r\n\x1b[?2004l\rloadi'
    b'ng draft\r\nError: could not load draft\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n# hostnam'
    b'e\r\n\x1b[?2004l\rvm\r\n\x1b[?2004hroot@gpu-node-7:/tmp/term-scratch/rec\r\r\n# exit\r\n\x1b[?2004l\rexit\r\n\nScript d'
    b'one on 2026-12-06 08:31:57+00:00 [COMMAND_EXIT_CODE="0"]\n'
)


def test_the_command_on_the_second_row_with_the_firsts_host_and_folder(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(ROOT_TWO_ROWS)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["cwd"], c["is_error"]) for c in doc["commands"]][2:] == [
        ("python3 load.py --draft /ckpt/eagle3 --target /models/Llama-3.1-8B-Instruct --steps 3 --topk 4"
         " --num-draft-tokens 16", "gpu-node-7", "/tmp/term-scratch/rec", True),
        ("hostname", "gpu-node-7", "/tmp/term-scratch/rec", False),
        ("exit", "gpu-node-7", "/tmp/term-scratch/rec", False),
    ]
    assert [e["message"] for e in doc["errors"]] == ["Error: could not load draft"]
