"""zsh draws its right prompt (RPROMPT: a theme's clock, the last status) as it prompts: the
cursor moves right, the text is written, the cursor moves back exactly to where it was, and the
command is typed there (bytes below: zsh 5.9 in a util-linux script 2.38.1 typescript, with
``RPROMPT='[%?] %*'`` and a coloured one). The screen shows it after the command, so every
command of such a log read ``nvidia-smi -L            [0] 17:37:30``: its words, its program and
the host an ssh names all wrong."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

START = b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="zsh -i" <not executed on terminal>]\n'
PROMPT = b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu02 /root # \x1b[K"
ENTER = b"\x1b[?1l\x1b>\x1b[?2004l\r\r\n"


def _analyzed(tmp_path: Path, body: bytes) -> list[str]:
    path = tmp_path / "typescript"
    path.write_bytes(START + body + b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')
    return [c["command"] for c in analyze_path(path).to_json()["commands"] if c["command"] != "zsh -i"]


def test_a_right_prompt_is_no_part_of_the_command(tmp_path: Path) -> None:
    # plain, coloured, and with wide characters (an emoji and CJK letters take two columns each)
    body = (PROMPT + b"\x1b[64C[0] 17:37:30\x1b[76D\x1b[?1h\x1b=\x1b[?2004hs\x08ssh gpu01 nvidia-smi -L" + ENTER
            + b"GPU 0: NVIDIA H100 80GB HBM3\r\n"
            + PROMPT + b"\x1b[64C\x1b[32m17:38:04\x1b[39m \x1b[31m\xe2\x9c\x98 1\x1b[39m\x1b[76D"
            + b"\x1b[?1h\x1b=\x1b[?2004hl\x08ls /models" + ENTER + b"eagle3\r\n"
            + PROMPT + b"\x1b[66C\xe2\x9c\x85 \xe7\x8a\xb6\xe6\x80\x81\x1b[73D\x1b[?1h\x1b=\x1b[?2004he\x08exit" + ENTER)
    assert _analyzed(tmp_path, body) == ["ssh gpu01 nvidia-smi -L", "ls /models", "exit"]


def test_a_move_right_and_back_that_ends_elsewhere_is_kept(tmp_path: Path) -> None:
    # one column right, three written, three back: the cursor ends one past where it was, so
    # what was written is on the line
    body = PROMPT + b"ls /mod\x1b[1Cels\x1b[3D" + ENTER + b"eagle3\r\n"
    assert _analyzed(tmp_path, body) == ["ls /mod els"]
