"""ssh(1)'s master connections (ControlMaster, ControlPath in ~/.ssh/config), which spec-debug
cannot share: paramiko speaks no multiplexing protocol (openssh-portable: PROTOCOL.mux).

Sites with a second factor (a one-time code after the key, Duo) tell their users to keep a
master open (`ControlMaster auto`, `ControlPersist`): the code is typed once, and every `ssh
gpu01` after it rides that connection and asks for nothing. spec-debug logs in anew, so its
login meets the second factor; with --batch it failed "asks for a password" while `ssh gpu01`
logged in at once, and nothing said why the two differ. A failed login now says so when such a
master is open for the host.
"""

from __future__ import annotations

import copy
import os
import pwd
import re
import socket
import stat

from spec_debug.errors import AuthenticationError, TransportError

# ssh(1) takes an open master where ControlMaster is no (the default), auto or autoask; with
# yes or ask it makes a master of its own, and logs in for it (openssh-portable: mux.c, muxclient).
_SHARING_MODES = frozenset({"no", "false", "auto", "autoask"})
_CONNECT_S = 1.0


def master_control_path(control_path: object, control_master: object) -> str | None:
    """The ControlPath ssh(1) would look for a master at (its tokens already expanded by the
    lookup), `${VAR}` expanded; None for `none`, no ControlPath, a ControlMaster that makes its
    own master, or an unset variable (ssh(1) refuses that value)."""
    if not isinstance(control_path, str) or control_path.strip().lower() in ("", "none"):
        return None
    if str(control_master or "no").strip().lower() not in _SHARING_MODES:
        return None
    unset: list[str] = []

    def variable(match: re.Match[str]) -> str:
        value = os.environ.get(match.group(1))
        if value is None:
            unset.append(match.group(1))
        return value or ""

    expanded = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", variable, control_path)
    return None if unset else expanded


def master_open(path: str) -> bool:
    """Whether a master answers at path: a socket a process listens on. A socket left behind by
    a master that died refuses the connection (ssh(1) then removes it and logs in itself)."""
    try:
        if not stat.S_ISSOCK(os.stat(path).st_mode):
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(_CONNECT_S)
            probe.connect(path)
        return True
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return False


def _passwd_home_path(path: str) -> str | None:
    """path with the $HOME it starts with put as ssh(1) has it: the passwd database's home.
    ssh(1) expands ControlPath's leading `~` and its %d with that home, not $HOME
    (openssh-portable: misc.c, tilde_expand: getpwuid; ssh.c, main: pw->pw_dir for %d); under
    `sudo -E`, a CI job or pod that sets HOME, or a site's HOME on scratch, `ControlPath
    ~/.ssh/cm-%C` is another socket for ssh(1) than the one expanded here, and the master it
    rides was not found. None where the two homes are one folder or path is not under $HOME."""
    home = os.path.expanduser("~").rstrip("/")
    try:
        passwd_home = pwd.getpwuid(os.getuid()).pw_dir.rstrip("/")
    except KeyError:
        return None
    if not home or not passwd_home or not path.startswith(home + "/") or os.path.realpath(home) == os.path.realpath(passwd_home):
        return None
    return passwd_home + path[len(home):]


def _open_master(control_path: str) -> str | None:
    """Where a master answers: control_path, else the same path under the passwd database's home."""
    if master_open(control_path):
        return control_path
    elsewhere = _passwd_home_path(control_path)
    return elsewhere if elsewhere is not None and master_open(elsewhere) else None


MASTER_SET_IN = "(ControlMaster and ControlPath in your ssh config)"
"""Where the master note says the master is set: its own "in your ssh config", which a later
rewrite of the login's hint (hosts._with_inventory_login_hint) must leave alone."""


def with_master_note(exc: TransportError, alias: str, control_path: str | None) -> TransportError:
    """A failed login's hint, first saying that `ssh ALIAS` goes through the master open at
    control_path (or where ssh(1) puts it: _passwd_home_path) and so asks for nothing. A copy,
    as ssh_connect._said_with_name makes."""
    if not isinstance(exc, AuthenticationError) or control_path is None:
        return exc
    control_path = _open_master(control_path)
    if control_path is None:
        return exc
    note = (f"`ssh {alias}` logs in through the master connection ssh(1) keeps open at {control_path} {MASTER_SET_IN}, "
            "so it asks for nothing while that connection lasts; spec-debug cannot share it and logs in anew")
    noted = copy.copy(exc)
    noted.hint = f"{note}; {exc.hint}" if exc.hint else note
    return noted.with_traceback(exc.__traceback__)
