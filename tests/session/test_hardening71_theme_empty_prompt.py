"""Enter on an empty line at oh-my-zsh's default prompt: robbyrussell's ``➜  rec git:(main) ✗``
(``✗`` when the tree is dirty; ohmyzsh/ohmyzsh themes/robbyrussell.zsh-theme,
ZSH_THEME_GIT_PROMPT_DIRTY) with nothing typed after it was read as a command "✗", and at a clean
tree's ``➜  rec git:(main)`` as a command "git:(main)": phantom commands in the timeline and in
the counts. The typescript was recorded with util-linux script 2.38.1 and zsh 5.9, the theme's
PROMPT set by hand (its colours as the theme's), Enter pressed twice on an empty line."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

TS = b"".join([
    b'Script started on 2026-12-07 04:35:23+00:00 [COMMAND="zsh -f -i" <not executed on terminal>]\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hs\x08setopt prompt_subst; autoload -U colors &'
    b'& colors\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PROMPT='%(?:%{$fg_bold[green]%}%1{\xe2"
    b"\x9e\x9c%} :%{$fg_bold[red]%}%1{\xe2\x9e\x9c%} ) %{$fg[cyan] \r",
    b'\x1b[K%\r',
    b'%}%c%{$reset_color%} %{$fg_bold[blue]%}git:(%{$fg[red]%}main%{$fg[blue]%}) %{$fg \r',
    b'\x1b[K[\r',
    b"[yellow]%}%1{\xe2\x9c\x97%}%{$reset_color%} '\x1b[?2004l\r",
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[01;34mgit:(\x1b[3'
    b'1mmain\x1b[34m) \x1b[33m\xe2\x9c\x97\x1b[00m \x1b[K\x1b[?2004hp\x08python3 ../tb/load.py 2>&1 | '
    b'tail -1\x1b[?2004l\r',
    b'\r\n',
    b"FileNotFoundError: [Errno 2] No such file or directory: '/tmp/textlogs8-scratch/ckpt/config.json'\r\n",
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[01;34mgit:(\x1b[3'
    b'1mmain\x1b[34m) \x1b[33m\xe2\x9c\x97\x1b[00m \x1b[K\x1b[?2004h\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[01;34mgit:(\x1b[3'
    b'1mmain\x1b[34m) \x1b[33m\xe2\x9c\x97\x1b[00m \x1b[K\x1b[?2004hl\x08ls -d srv.py\x1b[?2004l\r',
    b'\r\n',
    b'srv.py\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[01;34mgit:(\x1b[3'
    b'1mmain\x1b[34m) \x1b[33m\xe2\x9c\x97\x1b[00m \x1b[K\x1b[?2004h\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[J\x1b[01;32m\xe2\x9e\x9c  \x1b[36mrec\x1b[00m \x1b[01;34mgit:(\x1b[3'
    b'1mmain\x1b[34m) \x1b[33m\xe2\x9c\x97\x1b[00m \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r',
    b'\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:35:27+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_an_empty_line_at_a_dirty_trees_prompt_is_no_command(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TS)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][3:] == ["python3 ../tb/load.py 2>&1 | tail -1", "ls -d srv.py", "exit"]
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(ran[e["command_seq"]], e["message"]) for e in doc["errors"]] == [
        ("python3 ../tb/load.py 2>&1 | tail -1",
         "[Errno 2] No such file or directory: '/tmp/textlogs8-scratch/ckpt/config.json'")]


@pytest.mark.parametrize("prompt", ["➜  rec git:(main) ✗ ", "➜  rec git:(main) ", "➜  spec git:(feature/eagle3) ✗ ",
                                    "(venv) ➜  rec git:(main) "])
def test_the_themes_prompt_alone_is_no_command(tmp_path: Path, prompt: str) -> None:
    path = tmp_path / "session.log"
    path.write_text(f"{prompt}python3 load.py\nloaded\n{prompt}\n{prompt}ls\nload.py\n{prompt}\n")
    assert [c.command for c in analyze_path(path).commands] == ["python3 load.py", "ls"]
