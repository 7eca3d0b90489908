"""ssh(1)'s `%` tokens paramiko lacks, and `${VAR}` environment expansion in config values
(ssh_config(5), TOKENS and ENVIRONMENT VARIABLES)."""

from __future__ import annotations

import getpass
import hashlib
import os
import re
import socket

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_target import DEFAULT_PORT


def _environment_expanded(value: str | None) -> str | None:
    """`${VAR}` replaced by the environment's value, as ssh(1) does in IdentityAgent
    (openssh-portable: misc.c, dollar_expand); an unset variable leaves the text as written."""
    if value is None:
        return None
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda match: os.environ.get(match.group(1), match.group(0)), value)


def _environment_expanded_strict(value: str, keyword: str) -> str:
    """`${VAR}` replaced by the environment's value in IdentityFile and UserKnownHostsFile, as
    ssh(1) does (ssh_config(5), ENVIRONMENT VARIABLES); paramiko leaves the text as written, so
    `IdentityFile ${HOME}/.ssh/id_gpu` named no file and the host "failed authentication" with
    no key tried. An unset variable is an error, as in ssh(1) ("invalid environment variable
    expansion": openssh-portable: ssh.c, default_client_percent_dollar_expand)."""

    def expand(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in os.environ:
            raise UsageError(
                f"ssh config: {keyword} {value}: environment variable {name} is not set",
                hint=f"set {name}, or write the path without it",
            )
        return os.environ[name]

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", expand, value)


def _own_token(token: str, config: dict[str, object], alias: str) -> str:
    if token == "n":
        return alias  # the name as given on the command line
    if token == "p":
        return str(config.get("port", DEFAULT_PORT))
    if token == "i":
        return str(os.getuid())
    if token == "k":
        return str(config.get("hostkeyalias") or alias)
    if token == "L":
        return socket.gethostname().split(".")[0]
    if token == "l":
        # ssh(1)'s %l is gethostname(3) as it stands (openssh-portable: ssh.c, main, `thishost`).
        # paramiko asks DNS (socket.getfqdn, paramiko/config.py LazyFqdn): on Debian's
        # /etc/hosts (`127.0.1.1 gpu01.lab gpu01`) that is `gpu01.lab`, elsewhere `localhost`,
        # so `IdentityFile ~/.ssh/id_%l` (a key per machine in a shared NFS home) named a file
        # ssh(1) never reads, and the host "failed authentication" with no key tried.
        return socket.gethostname()
    if token == "j":
        return str(config.get("proxyjump") or "")
    if token == "C":
        host = str(config.get("hostname") or alias)
        return _connection_hash(host, str(config.get("port") or DEFAULT_PORT), str(config.get("user") or getpass.getuser()))
    raise AssertionError(token)


def _connection_hash(host: str, port: str, remote_user: str) -> str:
    """ssh(1)'s %C (OpenSSH 9.2: readconf.c, ssh_connection_hash): the SHA-1 of this machine's
    name, the host name, port and remote user. paramiko hashes the alias and the short local
    name, so `IdentityFile ~/.ssh/%C` beside a HostName named another file than ssh(1)."""
    return hashlib.sha1((socket.gethostname() + host + port + remote_user).encode()).hexdigest()


def _match_exec_token(token: str, config: dict[str, object], host: str, original: str) -> str | None:
    """A `%` token of a `Match exec` command as ssh(1) 9.2 expands it (openssh-portable: readconf.c,
    match_cfg_line): `host` is the HostName met so far with its `%h` expanded, `original` the name
    as given; None for a token ssh(1) does not know there.

    paramiko put the HostName in unexpanded (`HostName %h.cluster` made `%h.cluster` of `%h`),
    and knew no %i, %k or %%, so `Match exec "nc -z -w1 %h 22"` tested a name that does not exist.
    """
    port = str(config.get("port") or DEFAULT_PORT)
    remote_user = str(config.get("user") or getpass.getuser())
    this_host = socket.gethostname()
    values = {
        "%": "%",
        "C": _connection_hash(host, port, remote_user),
        "L": this_host.split(".")[0],
        "d": os.path.expanduser("~"),
        "h": host,
        "k": str(config.get("hostkeyalias") or host),
        "l": this_host,
        "n": original,
        "p": port,
        "r": remote_user,
        "u": getpass.getuser(),
        "i": str(os.getuid()),
    }
    return values.get(token)


class RefusedExpansion(str):
    """A config value as expanded, holding a `%` token ssh(1) refuses for its keyword: the first
    such token is `refused_token`. Whether that refusal matters is decided later (a ProxyCommand
    that a ProxyJump before it overrides is never expanded by ssh(1), so never refused)."""

    refused_token: str

    def __new__(cls, value: str, refused_token: str) -> "RefusedExpansion":
        expanded = super().__new__(cls, value)
        expanded.refused_token = refused_token
        return expanded
