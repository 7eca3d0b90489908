"""SSH_ASKPASS: the program ssh(1) asks for a passphrase or password where it has no terminal.

`SSH_ASKPASS=./print-secret SSH_ASKPASS_REQUIRE=force ssh HOST` is how scripts and CI give ssh
a key's passphrase or a host's password since OpenSSH 8.4 (the alternative to sshpass), and a
desktop session (DISPLAY set, no terminal: an IDE task, a launcher) gets its dialog the same
way. spec-debug only read the terminal: there it failed with "no terminal to ask".

When ssh(1) uses it (openssh-portable: readpass.c, read_passphrase): allowed when DISPLAY or
WAYLAND_DISPLAY is set, or SSH_ASKPASS_REQUIRE=force; used then when there is no terminal,
always under `force`, and under `prefer` whenever allowed; never under SSH_ASKPASS_REQUIRE=never.
The program is $SSH_ASKPASS; it gets the question as its one argument and prints the answer;
a non-zero exit status is a cancel (readpass.c, ssh_askpass).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable

# Where Debian and Ubuntu put the ssh-askpass package's dialog: ssh(1)'s default program there.
_DEFAULT_PROGRAM = "/usr/bin/ssh-askpass"
_POLL_S = 0.1


def askpass_program(*, has_terminal: bool) -> str | None:
    """The program to ask with instead of the terminal, as ssh(1) would choose; None for the terminal."""
    require = os.environ.get("SSH_ASKPASS_REQUIRE", "").strip().lower()
    allowed = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if require == "force":
        allowed = use = True
    elif require == "never":
        allowed = use = False
    else:
        use = not has_terminal or (require == "prefer" and allowed)
    if not (allowed and use):
        return None
    program = os.environ.get("SSH_ASKPASS") or (_DEFAULT_PROGRAM if shutil.which(_DEFAULT_PROGRAM) else None)
    return program or None


def ask_with_program(program: str, question: str, give_up: Callable[[], bool]) -> str | None:
    """The program's answer to `question` (its first line), or None when it was cancelled (exit
    status not 0), could not run, or `give_up()` came first (the login was abandoned)."""
    try:
        asking = subprocess.Popen([program, question], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        return None
    while True:
        try:
            answer, _ = asking.communicate(timeout=_POLL_S)
            break
        except subprocess.TimeoutExpired:
            if give_up():
                asking.kill()
                asking.wait()
                return None
    if asking.returncode != 0:
        return None
    return answer.decode("utf-8", "replace").split("\n", 1)[0].rstrip("\r")
