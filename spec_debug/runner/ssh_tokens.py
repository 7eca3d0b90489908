"""ssh(1)'s `%` tokens paramiko lacks, and `${VAR}` environment expansion in config values
(ssh_config(5), TOKENS and ENVIRONMENT VARIABLES)."""

from __future__ import annotations

import getpass
import hashlib
import os
import pwd
import re
import socket

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_target import DEFAULT_PORT, parse_proxy_jump


def local_user() -> str:
    """This account's name as ssh(1) takes it: the password database's entry for our uid
    (openssh-portable: ssh.c, main: getpwuid(getuid())), the default User, `%u`, and what
    `Match localuser` tests. getpass.getuser() reads $LOGNAME/$USER first, which `su` (to root,
    without `-`) and containers run with `-u UID` leave naming another account: we logged in
    as alice where `ssh gpu01` logs in as root. $USER serves only where no entry exists.

    Neither (a container started with a random uid, as OpenShift does, and no $USER or
    $LOGNAME) is a usage error: ssh(1) stops there too ("No user exists for uid N":
    openssh-portable: ssh.c, main), and getpass.getuser() raising KeyError (OSError from
    Python 3.13) failed each host as "internal error". Only the callers that need the name ask
    for it, so user@host, or User in the ssh config, still connects (and --host local runs)."""
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        pass
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        raise UsageError(
            f"No user exists for uid {os.getuid()}: no login name to connect as "
            "(no password-database entry, and USER and LOGNAME are unset)",
            hint="set USER (export USER=yourname), or give the login name: --host user@host or User in ~/.ssh/config",
        ) from None


def identity_agent_socket(value: str | None) -> str | None:
    """IdentityAgent as ssh(1) reads it: None (use $SSH_AUTH_SOCK), `none`, or a socket path.

    `${VAR}` is expanded and an unset one refused, as ssh(1) refuses it ("Invalid environment
    expansion": openssh-portable: readconf.c, oIdentityAgent; ssh.c, main). A whole value
    `$VAR` (no braces) is ssh(1)'s older form: the socket is that variable's value, and no
    agent at all when it is unset (ssh.c, main: "legacy (limited) format" sets or unsets
    SSH_AUTH_SOCK). Taken as a path, `IdentityAgent $SSH_AUTH_SOCK_WORK` (a second agent for
    work keys) was a socket named `$SSH_AUTH_SOCK_WORK` in the current folder, and every host
    behind it "failed authentication" with the agent's keys never offered.
    """
    if value is None:
        return None
    if value.startswith("$") and not value.startswith("${"):
        name = value[1:]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"ssh config: IdentityAgent {value}: {name!r} is not an environment variable name",
                             hint="write IdentityAgent $NAME, ${NAME}/path, a socket path, SSH_AUTH_SOCK or none")
        return os.environ.get(name) or "none"
    return _environment_expanded_strict(value, "IdentityAgent")


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


def hostname_expanded(value: str, host: str) -> str:
    """HostName with its tokens expanded as ssh(1) does: `%h` is the name as given, `%%` a
    percent sign, in one left-to-right pass; any other token is refused, as ssh(1) refuses it
    ("percent_expand: unknown key %d": openssh-portable: ssh.c, main and readconf.c,
    match_cfg_line, which both call percent_expand(options->hostname, "h", host)).

    Replacing `%h` alone made `HostName %%h` the host `%gpu01`, where ssh(1) goes to `%h`.
    """
    expanded, at = [], 0
    while at < len(value):
        char = value[at]
        if char != "%":
            expanded.append(char)
            at += 1
            continue
        token = value[at + 1:at + 2]
        if token not in ("%", "h"):
            shown = f"%{token}" if token else "a lone % at the end"
            raise UsageError(
                f"ssh config: HostName {value}: {shown} is not a token ssh(1) expands there (percent_expand failed)",
                hint="HostName takes %h (the name given) and %%; write %% for a literal %",
            )
        expanded.append("%" if token == "%" else host)
        at += 2
    return "".join(expanded)


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
        return jump_host_token(config.get("proxyjump"))
    if token == "C":
        host = str(config.get("hostname") or alias)
        return _connection_hash(host, str(config.get("port") or DEFAULT_PORT), str(config.get("user") or local_user()))
    raise AssertionError(token)


def jump_host_token(proxy_jump: object) -> str:
    """`%j` as ssh(1) expands it: the host name of ProxyJump's last hop, without its user and
    port, and empty for none (openssh-portable: readconf.c, parse_jump keeps that hop's host as
    jump_host; fill_default_options drops "none"). `%j` was the whole value, `ops@bastion:2222`,
    or `none`, so `IdentityFile ~/.ssh/via_%j` named a file ssh(1) never reads."""
    try:
        hops = parse_proxy_jump(str(proxy_jump) if proxy_jump else None)
    except UsageError:
        return str(proxy_jump)  # refused where the ProxyJump itself is read
    return hops[-1].destination.host if hops else ""


def _connection_hash(host: str, port: str, remote_user: str) -> str:
    """ssh(1)'s %C (OpenSSH 9.2: readconf.c, ssh_connection_hash): the SHA-1 of this machine's
    name, the host name, port and remote user. paramiko hashes the alias and the short local
    name, so `IdentityFile ~/.ssh/%C` beside a HostName named another file than ssh(1)."""
    return hashlib.sha1((socket.gethostname() + host + port + remote_user).encode()).hexdigest()


def _match_exec_token(token: str, config: dict[str, object], host: str, original: str) -> str | None:
    """A `%` token of a `Match exec` command as ssh(1) expands it (openssh-portable: readconf.c,
    match_cfg_line): `host` is the HostName met so far with its `%h` expanded, `original` the name
    as given; None for a token ssh(1) does not know there.

    paramiko put the HostName in unexpanded (`HostName %h.cluster` made `%h.cluster` of `%h`),
    and knew no %i, %k or %%, so `Match exec "nc -z -w1 %h 22"` tested a name that does not exist.
    """
    port = str(config.get("port") or DEFAULT_PORT)
    remote_user = str(config.get("user") or local_user())
    values = {
        **_tokens_without_user(alias=original, hostname=host, port=port, host_key_alias=config.get("hostkeyalias"),
                               proxy_jump=config.get("proxyjump")),
        "C": _connection_hash(host, port, remote_user),
        "r": remote_user,
    }
    return local_user() if token == "u" else values.get(token)


class RefusedExpansion(str):
    """A config value as expanded, holding a `%` token ssh(1) refuses for its keyword: the first
    such token is `refused_token`. Whether that refusal matters is decided later (a ProxyCommand
    that a ProxyJump before it overrides is never expanded by ssh(1), so never refused)."""

    refused_token: str

    def __new__(cls, value: str, refused_token: str) -> "RefusedExpansion":
        expanded = super().__new__(cls, value)
        expanded.refused_token = refused_token
        return expanded


# The Include tokens that do not depend on the host being looked up; the others (%h, %n, %p,
# %r, %C, %k, %j) are left as written, as this file is read once for every host.
_HOST_FREE_INCLUDE_TOKENS = {
    "%": lambda: "%",
    "d": lambda: os.path.expanduser("~"),
    "u": local_user,
    "i": lambda: str(os.getuid()),
    "l": socket.gethostname,
    "L": lambda: socket.gethostname().split(".")[0],
}


def include_path_expanded(pattern: str) -> str | None:
    """An Include path with `${VAR}` and this machine's `%` tokens expanded, as ssh(1) expands
    them since OpenSSH 9.9 (openssh-portable: readconf.c, oInclude, expand_match_exec_or_include_path
    with percent_dollar_expand); None where a variable is unset, which ssh(1) reports and skips
    ("Unable to expand user config file"). `Include ${XDG_CONFIG_HOME}/ssh/*.conf` named a
    folder `${XDG_CONFIG_HOME}` that does not exist, and the hosts it describes were looked up
    as bare names."""
    unset = False

    def variable(match: re.Match[str]) -> str:
        nonlocal unset
        value = os.environ.get(match.group(1))
        unset = unset or value is None
        return value or ""

    def token(match: re.Match[str]) -> str:
        expand = _HOST_FREE_INCLUDE_TOKENS.get(match.group(1))
        return match.group(0) if expand is None else expand()

    expanded = re.sub(r"%(.)", token, re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", variable, pattern))
    return None if unset else expanded


def user_expanded(value: str, *, alias: str, hostname: str, port: int, host_key_alias: str | None,
                  proxy_jump: str | None) -> str:
    """A config's User with its `%` tokens and `${VAR}` expanded, as ssh(1) expands it since
    OpenSSH 10.0 (openssh-portable: ssh.c, main: percent_dollar_expand with
    DEFAULT_CLIENT_PERCENT_EXPAND_ARGS_NOUSER; a User given with -l or user@host is not).
    `User ${USER}-admin` (one admin account per person on a shared bastion) logged in as the
    literal `${USER}-admin`. An unset variable is refused, as there ("invalid environment
    variable expansion"); a token ssh(1) does not take there (%r, %C) is left as written."""
    values = _tokens_without_user(alias=alias, hostname=hostname, port=str(port), host_key_alias=host_key_alias,
                                  proxy_jump=proxy_jump)
    expanded = _environment_expanded_strict(value, "User")
    return re.sub(r"%(.)", lambda token: local_user() if token.group(1) == "u" else values.get(token.group(1), token.group(0)),
                  expanded)


def _tokens_without_user(*, alias: str, hostname: str, port: str, host_key_alias: object, proxy_jump: object) -> dict[str, str]:
    """ssh(1)'s tokens that do not name the remote user (ssh.c: DEFAULT_CLIENT_PERCENT_EXPAND_ARGS_NOUSER;
    readconf.c, expand_match_exec_or_include_path), `%%` included. `%j` (OpenSSH 9.6+) was left as
    written, so `Match exec "test %j = bastion"` never held."""
    this_host = socket.gethostname()
    return {
        "%": "%",
        "L": this_host.split(".")[0],
        "d": os.path.expanduser("~"),
        "h": hostname,
        "i": str(os.getuid()),
        "j": jump_host_token(proxy_jump),
        "k": str(host_key_alias or hostname),
        "l": this_host,
        "n": alias,
        "p": port,
    }  # %u is asked for where it is written (local_user): a container with no name for its uid
    # connects with `User bob` or bob@host, as long as nothing needs its own name
