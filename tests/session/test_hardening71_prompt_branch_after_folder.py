"""A prompt with git's branch after a folder shown after a space: bash's ``PS1='\\u@\\h \\w$(__git_ps1
" (%s)") \\$ '`` (git contrib/completion/git-prompt.sh; Gentoo's style of prompt with the branch),
``root@gpu-node-7 /tmp/... (main %) # cmd``, and zsh's ``PROMPT='%n@%m %~${vcs_info_msg_0_} %# '``
with vcs_info's default format (" (%s)-[%b]%u%c-": ``root@gpu-node-7 /tmp/... (git)-[main]- # cmd``)
were no prompts: every command after the ``PS1=`` line was read as that line's output, the
FileNotFoundError of ``python3 ../tb/load.py`` was the ``PS1=`` command's error, on no host (or on
the host of the prompt before it). Without the branch the same prompts were read
(``me@gpu01 ~/w $``). Both typescripts were recorded with util-linux script 2.38.1, bash 5.2.15
and zsh 5.9, in a git repository with an untracked file."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

TS3 = b"".join([
    b'Script started on 2026-12-07 04:30:58+00:00 [COMMAND="zsh -f -i" <not executed on terminal>]\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004ha\x08autoload -Uz vcs_info; precmd() { vcs_inf'
    b'o }; setopt prompt_subst\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PROMPT='%n@gpu-node-7 %~${vcs_info_msg_0_"
    b"} %# '\x1b[?2004l\r",
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7 /tmp/textlogs8-scratch/rec (git)-[main]- # \x1b[K'
    b'\x1b[?2004hc\x08cd /tmp/textlogs8-scr \r',
    b'\x1b[Ka\r',
    b'atch/rec\x1b[?2004l\r',
    b'\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7 /tmp/textlogs8-scratch/rec (git)-[main]- # \x1b[K'
    b'\x1b[?2004hp\x08python3 ../tb/load.py \r',
    b'\x1b[K \r',
    b' 2>&1 | tail -1\x1b[?2004l\r',
    b'\r\n',
    b"FileNotFoundError: [Errno 2] No such file or directory: '/tmp/textlogs8-scratch/ckpt/config.json'\r\n",
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7 /tmp/textlogs8-scratch/rec (git)-[main]- # \x1b[K'
    b'\x1b[?2004hl\x08ls -d srv.py\x1b[?2004l\r',
    b'\r\n',
    b'srv.py\r\n',
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                           '
    b'                    \r',
    b' \r',
    b'\r',
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu-node-7 /tmp/textlogs8-scratch/rec (git)-[main]- # \x1b[K'
    b'\x1b[?2004he\x08exit\x1b[?2004l\r',
    b'\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:31:01+00:00 [COMMAND_EXIT_CODE="0"]\n',
])
TS4 = b"".join([
    b'Script started on 2026-12-07 04:31:30+00:00 [COMMAND="bash --norc --noprofile -i" <not executed '
    b'on terminal>]\n',
    b'\x1b[?2004hbash-5.2# . /usr/lib/git-core/git-sh-prompt; GIT_PS1_SHOWDIRTYSTATE=1 GIT_PS1_SHOWUNT'
    b'RACKEDFILES=1\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hbash-5.2# PS1=\'\\u@gpu-node-7 \\w$(__git_ps1 " (%s)") \\$ \'\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hroot@gpu-node-7 /tmp/textlogs8-scratch/rec (main %) # python3 ../tb/load.py 2>&1 | tail -1\r\n',
    b'\x1b[?2004l\r',
    b"FileNotFoundError: [Errno 2] No such file or directory: '/tmp/textlogs8-scratch/ckpt/config.json'\r\n",
    b'\x1b[?2004hroot@gpu-node-7 /tmp/textlogs8-scratch/rec (main %) # ls -d srv.py\r\n',
    b'\x1b[?2004l\r',
    b'srv.py\r\n',
    b'\x1b[?2004hroot@gpu-node-7 /tmp/textlogs8-scratch/rec (main %) # exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-07 04:31:33+00:00 [COMMAND_EXIT_CODE="0"]\n',
])

ERROR = "[Errno 2] No such file or directory: '/tmp/textlogs8-scratch/ckpt/config.json'"


@pytest.mark.parametrize("recording, before", [(TS3, [
    ("autoload -Uz vcs_info; precmd() { vcs_info }; setopt prompt_subst", "vm"),
    ("PROMPT='%n@gpu-node-7 %~${vcs_info_msg_0_} %# '", "vm"),
    ("cd /tmp/textlogs8-scratch/rec", "gpu-node-7")]), (TS4, [
        (". /usr/lib/git-core/git-sh-prompt; GIT_PS1_SHOWDIRTYSTATE=1 GIT_PS1_SHOWUNTRACKEDFILES=1", None),
        ("PS1='\\u@gpu-node-7 \\w$(__git_ps1 \" (%s)\") \\$ '", None)])], ids=["zsh-vcs_info", "bash-git-prompt"])
def test_a_prompt_with_the_branch_after_the_folder_is_read(tmp_path: Path, recording: bytes, before: list) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(recording)
    doc = analyze_path(path).to_json()
    typed = [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]][1:]  # (the shell script(1) ran)
    assert typed == [(c, h, False) for c, h in before] + [
        ("python3 ../tb/load.py 2>&1 | tail -1", "gpu-node-7", True),
        ("ls -d srv.py", "gpu-node-7", False), ("exit", "gpu-node-7", False)]
    ran = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(ran[e["command_seq"]], e["message"], e["host"]) for e in doc["errors"]] == [
        ("python3 ../tb/load.py 2>&1 | tail -1", ERROR, "gpu-node-7")]
