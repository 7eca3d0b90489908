"""Host key verification against known_hosts, as OpenSSH's StrictHostKeyChecking does.

Default is `yes`: an unknown key and a changed key are both refused, with the SHA256
fingerprint (the form `ssh` prints and `ssh-keygen -lf` shows) and how to accept it.
`accept-new` (our `--accept-new`) files an unknown key in the user's first known_hosts file
and still refuses a changed one (openssh-portable: sshconnect.c, check_host_key).
Nothing is ever added silently: paramiko's AutoAddPolicy is not used.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import paramiko

from spec_debug.errors import HostKeyError

# Several host threads may accept new keys at once; appends must not interleave.
_KNOWN_HOSTS_WRITE_LOCK = threading.Lock()


@dataclass(frozen=True)
class KnownHosts:
    """The known_hosts files consulted for one connection (user files first)."""

    user_files: tuple[str, ...]
    global_files: tuple[str, ...] = ()

    @property
    def write_file(self) -> Path:
        return Path(os.path.expanduser(self.user_files[0]))

    def keys_for(self, name: str) -> dict[str, list[paramiko.PKey]]:
        """Known keys for `name` by key type, from every file (hashed entries included)."""
        found: dict[str, list[paramiko.PKey]] = {}
        for file in (*self.user_files, *self.global_files):
            path = Path(os.path.expanduser(file))
            if not path.is_file():
                continue
            host_keys = paramiko.HostKeys()
            try:
                host_keys.load(str(path))
            except (OSError, paramiko.SSHException, ValueError):
                continue  # an unreadable file is treated like OpenSSH: as holding no keys
            entry = host_keys.lookup(name)
            if entry is None:
                continue
            for key_type in entry.keys():
                found.setdefault(key_type, []).append(entry[key_type])
        return found


def describe_key(key: paramiko.PKey) -> str:
    """`ED25519 key SHA256:...` — what `ssh` prints when it asks about a host key."""
    return f"{key.algorithm_name} key {key.fingerprint}"


def preferred_key_types(known: dict[str, list[paramiko.PKey]], offered: list[str]) -> list[str]:
    """Put the key types we already know first, so the server proves the key we have.

    Without this, a host known by its ed25519 key could be asked for its RSA key and look
    "changed" (paramiko's SSHClient.connect does the same reordering: paramiko/client.py).
    """
    wanted: list[str] = []
    for key_type in known:
        if key_type == "ssh-rsa":
            wanted += [t for t in ("rsa-sha2-512", "rsa-sha2-256", "ssh-rsa") if t in offered]
        elif key_type in offered:
            wanted.append(key_type)
    return list(dict.fromkeys(wanted + offered))


def verify_host_key(
    *,
    alias: str,
    known_hosts_name: str,
    server_key: paramiko.PKey,
    known_hosts: KnownHosts,
    accept_new: bool,
) -> None:
    """Return if the key is known (or newly accepted); raise HostKeyError otherwise."""
    known = known_hosts.keys_for(known_hosts_name)
    if not known:
        if accept_new:
            _append_known_host(known_hosts.write_file, known_hosts_name, server_key)
            return
        raise HostKeyError(
            f"{alias}: host key for {known_hosts_name} is not in known_hosts "
            f"(server offered {describe_key(server_key)})",
            hint=(
                "check the fingerprint with the host's owner, then rerun with --accept-new "
                f"to add it to {known_hosts.write_file}, or run `ssh {_ssh_args(known_hosts_name)}` once"
            ),
        )
    same_type = known.get(server_key.get_name(), [])
    if any(key == server_key for key in same_type):
        return
    old = same_type or [key for keys in known.values() for key in keys]
    raise HostKeyError(
        f"{alias}: HOST KEY CHANGED for {known_hosts_name}: server offered "
        f"{describe_key(server_key)}, known_hosts has {describe_key(old[0])}; "
        "refusing to connect (possible man-in-the-middle)",
        hint=(
            "if the host was reinstalled, remove the old key with "
            f"`ssh-keygen -R '{known_hosts_name}' -f {known_hosts.write_file}` and rerun with --accept-new"
        ),
    )


def _append_known_host(path: Path, name: str, key: paramiko.PKey) -> None:
    line = f"{name} {key.get_name()} {key.get_base64()}\n"
    with _KNOWN_HOSTS_WRITE_LOCK:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line)


def _ssh_args(known_hosts_name: str) -> str:
    if known_hosts_name.startswith("["):
        host, _, port = known_hosts_name[1:].rpartition("]:")
        return f"-p {port} {host}"
    return known_hosts_name
