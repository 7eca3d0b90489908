"""The owner and mode check ssh(1) makes on ~/.ssh/config and every file an Include names.

ssh(1) refuses such a file that someone other than you (or root) owns or can write, and stops
before connecting: "Bad owner or permissions on ~/.ssh/config" (openssh-portable: readconf.c,
read_config_file_depth with SSHCONF_CHECKPERM; ssh.c sets it for the user's file, readconf.c
for each Include; neither for `-F FILE` nor /etc/ssh/ssh_config themselves). Such a file can
carry a ProxyCommand or LocalCommand another user wrote, which would run as you: spec-debug read
it silently and ran it where `ssh` refuses to. Debian and Ubuntu's OpenSSH lets a file be
group-writable when that group holds only its owner, the "user private group" that umask 002
makes (Debian's patch "Allow harmless group-writability", misc.c secure_permissions); followed
here, as no one else can write the file then.
"""

from __future__ import annotations

import errno
import grp
import os
import pwd
import shlex
import stat
from pathlib import Path

from spec_debug.errors import UsageError
from spec_debug.runner.key_file_mount import chmod_cannot_fix
from spec_debug.runner.ssh_config_keywords import _warn_once


def opens(path: Path) -> bool:
    """Whether the user's or the system-wide config file at `path` can be opened; when not, a
    warning says it is skipped. ssh(1) passes over either file when fopen fails
    (openssh-portable: readconf.c, read_config_file_depth returns 0; ssh.c, process_config_files
    ignores that for both), before any owner or mode check: a ~/.ssh/config left mode 000, or an
    /etc/ssh/ssh_config readable by root alone, stopped every host here ("cannot read ssh
    config: Permission denied") where `ssh gpu01` connects. `-F FILE` and an Include's files
    that cannot be opened still stop, as they stop ssh(1) ("Can't open user config file")."""
    try:
        # A folder ~/.ssh that cannot be entered (mode 000; a home on NFS with root squash read
        # by root through `sudo`) fails the stat itself: Path.is_file raised it, and every host
        # was an "internal error: PermissionError" where ssh(1) skips the file.
        if not stat.S_ISREG(path.stat().st_mode):
            return False  # a folder (ssh(1) reads no line from it), a FIFO: nothing read, as before
        with open(path, "rb"):
            return True
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG):
            return False  # no such file: nothing to read, silently, as ssh(1) reads none
        _warn_once(f"ssh config {path} cannot be read ({exc.strerror or exc}): skipped, as ssh(1) skips it; "
                   "hosts are reached without its settings")
        return False


def refuse_if_others_can_write(path: Path, *, included: bool = False) -> None:
    """Raise UsageError, as ssh(1) stops, when the config file at `path` (`included`: named by
    an Include line) is not safely yours."""
    try:
        info = path.stat()
    except OSError:
        return  # unreadable: reading it says why
    why = _why_unsafe(info)
    if why is None:
        return
    quoted = shlex.quote(str(path))
    # Another user's file is most often one's own read through `sudo -E` (HOME kept, ssh(1)
    # itself would read root's): running as its owner, or naming it with -F (which ssh(1) does
    # not check either), is the way out, not handing it to root.
    # An included file is checked under -F too, as ssh(1) checks it.
    way_out = (f"`sudo chown {_user_name(os.getuid())} {quoted}`" if included
               else f"pass `-F {quoted}` to read it anyway")
    fix = (f"run spec-debug as {_user_name(info.st_uid)}, whose file it is, or {way_out}"
           if info.st_uid not in (0, os.getuid()) else f"`chmod go-w {quoted}`")
    stuck = chmod_cannot_fix(str(path)) if info.st_uid == os.getuid() or info.st_uid == 0 else None
    if stuck is not None:
        # A ConfigMap mounted with defaultMode 0666, a config on a Windows drive under WSL:
        # chmod fails there or changes nothing.
        copy = "~/.ssh/config.local"
        fix = (f"chmod cannot fix it: {stuck}; copy it where it can be yours alone "
               f"(`install -m 600 {quoted} {copy}`) and pass `-F {copy}`")
    raise UsageError(
        f"ssh config {path}: bad owner or permissions ({why}); ssh(1) refuses it too "
        "(\"Bad owner or permissions\"), as another user could make it run a command as you (ProxyCommand)",
        hint=f"{fix}, after checking that nobody changed it",
    )


def _why_unsafe(info: os.stat_result) -> str | None:
    mode = f"mode {stat.S_IMODE(info.st_mode):04o}"
    if info.st_uid not in (0, os.getuid()):
        return f"owned by {_user_name(info.st_uid)}, not by you or root"
    if info.st_mode & stat.S_IWOTH:
        return f"{mode}: anyone can write it"
    if info.st_mode & stat.S_IWGRP and not _group_holds_only(info.st_gid, os.getuid(), info.st_uid):
        return f"{mode}: group {_group_name(info.st_gid)} can write it, and holds other users"
    return None


def _group_holds_only(gid: int, uid: int, owner_uid: int) -> bool:
    """Debian's secure_permissions(st, getuid()): every user whose primary group it is is `uid`
    (you), and its member list names the file's owner alone, if anyone (an empty group does not
    count)."""
    try:
        group = grp.getgrgid(gid)
        owner = pwd.getpwuid(owner_uid).pw_name
    except KeyError:
        return False
    primary = [entry.pw_uid for entry in pwd.getpwall() if entry.pw_gid == gid]
    if any(member != uid for member in primary):
        return False
    if group.gr_mem and group.gr_mem != [owner]:
        return False
    return bool(primary or group.gr_mem)


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return f"gid {gid}"
