"""Why `chmod 600 KEY` would not make ssh(1) take a key file: the mount it lies on.

A key others may read is ignored by ssh(1) (openssh-portable: sshkey.c, sshkey_perm_ok), and
the usual fix is a chmod. Where the file lies on a read-only mount (a Kubernetes secret volume,
whose default mode is 0644: kubernetes.io/docs/concepts/configuration/secret) chmod fails, and on
a filesystem that keeps no Unix modes (WSL's /mnt/c, a USB stick: vfat, exfat, NTFS through
ntfs-3g) it succeeds and changes nothing: the hint sent people round in a loop.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

# Filesystems whose files take their mode from the mount, not from chmod: FAT and exFAT keep no
# owner or mode (mount(8), "Mount options for fat": uid=, umask=); NTFS through ntfs-3g shows as
# fuseblk; WSL's Windows drives are drvfs (WSL 1) or 9p (WSL 2), which keep chmod's mode only
# when mounted with the `metadata` option (learn.microsoft.com/windows/wsl/file-permissions).
_MODELESS = frozenset({"vfat", "msdos", "exfat", "fuseblk"})


@dataclass(frozen=True)
class KeyMount:
    """The mount a file lies on: where, its filesystem type, and whether it is read-only."""

    point: str
    fstype: str
    read_only: bool
    keeps_modes: bool
    wsl_drive: bool = False


def mount_of(path: str, mountinfo: str = "/proc/self/mountinfo") -> KeyMount | None:
    """The mount holding `path` (links followed), from the kernel's table; None where it cannot be read."""
    try:
        with open(mountinfo, encoding="utf-8", errors="replace") as handle:
            table = handle.read()
    except OSError:
        return None
    real = os.path.realpath(path)
    best: KeyMount | None = None
    for line in table.splitlines():
        mount = _parse_line(line)
        if mount is None or not _holds(mount.point, real):
            continue
        if best is None or len(mount.point) >= len(best.point):  # later lines mount over earlier ones
            best = mount
    return best


def chmod_cannot_fix(path: str) -> str | None:
    """Why a chmod of `path` would not stick, in words for a hint; None where it would."""
    mount = mount_of(path)
    if mount is None:
        return None
    if mount.read_only:
        return f"it lies on a read-only mount ({mount.point}, {mount.fstype}), where chmod fails"
    if not mount.keeps_modes:
        where = "a Windows drive under WSL" if mount.wsl_drive else "a filesystem that keeps no Unix modes"
        return f"it lies on {mount.point} ({mount.fstype}, {where}), where chmod changes nothing"
    return None


def move_off_mount(path: str) -> str:
    """How to give ssh(1) a copy of the key it takes, where chmod_cannot_fix said why chmod will not."""
    name = os.path.basename(path)
    copy = f"~/.ssh/{shlex.quote(name)}"
    home_ssh = os.path.expanduser("~/.ssh")
    mount = mount_of(path)
    if mount is not None and mount.read_only and _holds(mount.point, os.path.realpath(home_ssh)):
        # A secret mounted as ~/.ssh itself (a pod's `mountPath: /root/.ssh`), or a read-only
        # image: nothing under ~/.ssh can be written.
        copy = f"/tmp/{shlex.quote(name)}"
        where = "a writable directory (your ~/.ssh lies on that read-only mount too)"
    elif mount is not None and _holds(mount.point, os.path.realpath(home_ssh)):
        # WSL users often link ~/.ssh to the Windows profile's .ssh: a copy there is no better.
        copy = f"~/.ssh-linux/{shlex.quote(name)}"
        where = "a directory off that mount (your ~/.ssh lies on it too)"
    else:
        where = "your ~/.ssh"
    fix = (f"copy the key into {where}: `install -D -m 600 {shlex.quote(path)} {copy}`, and name the copy in "
           "IdentityFile for this host")
    if mount is not None and mount.read_only and mount.fstype == "tmpfs":
        fix += " (a Kubernetes secret volume: or give it `defaultMode: 0400`)"
    elif mount is not None and mount.wsl_drive:
        fix += " (or mount the drive with the `metadata` option in /etc/wsl.conf, then chmod 600)"
    return fix


def _parse_line(line: str) -> KeyMount | None:
    """One line of proc(5)'s mountinfo: `ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS...] - TYPE SOURCE SUPER`."""
    fields = line.split()
    try:
        dash = fields.index("-", 6)
        point, options, fstype, source, super_options = fields[4], fields[5], *fields[dash + 1 : dash + 4]
    except (ValueError, IndexError):
        return None
    point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), point)  # \040 for a space
    supers = re.split("[,;]", super_options)  # WSL 2 packs its own options into aname=drvfs;...;metadata
    read_only = "ro" in options.split(",") or "ro" in supers
    # A plain 9p mount (a VM's shared folder) may keep modes; WSL 2's drives name drvfs.
    wsl_drive = fstype == "drvfs" or (fstype == "9p" and "drvfs" in f"{source},{super_options}")
    keeps_modes = fstype not in _MODELESS and not (wsl_drive and "metadata" not in supers)
    return KeyMount(point=point, fstype=fstype, read_only=read_only, keeps_modes=keeps_modes, wsl_drive=wsl_drive)


def _holds(point: str, path: str) -> bool:
    return point == "/" or path == point or path.startswith(point.rstrip("/") + "/")
