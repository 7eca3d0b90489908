"""Where `--host gpu01` really goes: OpenSSH client configuration, resolved like `ssh` does.

Pure functions over a parsed config: `parse_destination` splits `user@host:port`, and
`resolve_target` turns a name into a `SSHTarget` (address, port, user, keys, jump hosts,
known_hosts files, timeouts) using paramiko's ssh_config parser, which implements the
first-match-wins rule and token expansion (paramiko/paramiko: paramiko/config.py).

What OpenSSH does and we follow (openssh-portable: readconf.c, ssh.c, ssh_config(5)):
- `-F FILE` replaces the user's ~/.ssh/config entirely (the system file is not read either).
- A user or port given on the command line (`user@host:port`, or an inventory's
  ansible_user/ansible_port) wins over the config, and is the one that `%r`/`%p` expand to and
  `Match user` sees: ssh(1) sets it before reading the config, where the first value wins.
- Host keys are looked up under HostKeyAlias if set, else under the resolved HostName,
  written `[host]:port` when the port is not 22.
- Jump hosts are resolved through the same config, each with its own settings.
- `%` tokens in IdentityFile and ProxyCommand are ssh(1)'s, `%n`, `%p` and `%%` included;
  `Match exec` commands run (as in ssh(1)) with stdin and stdout on /dev/null;
  CanonicalizeHostname applies to the HostName, never replaces it.
- Values are read as ssh(1) splits them (misc.c, argv_split: `IdentityFile ~/.ssh/"my key"`);
  SendEnv lines add up and SetEnv's first line wins (readconf.c), sent on every session
  (environment_to_send; ssh.py sends them).

Read but deliberately not followed: CheckHostIP. Off by default since OpenSSH 8.5, and ssh(1)
skips it anyway for a loopback address, a host named by its address, and any ProxyCommand or
ProxyJump (openssh-portable: sshconnect.c, check_host_key). Where it is on, ssh(1) also files the
address's key in known_hosts and warns when it differs from the name's; here the key is checked
under the name (or HostKeyAlias) only, and the address's entries serve only to name the fix when
the name has none (ssh_connect, _other_known_hosts_names). BindInterface is not followed either
(BindAddress is: ssh_connect, _create_connection).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import fnmatch
import getpass
import glob
import ipaddress
import itertools
import os
import re
import shlex
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_errors import HostUnreachableError

DEFAULT_PORT = 22
DEFAULT_CONNECT_TIMEOUT_S = 15.0
DEFAULT_KEEPALIVE_S = 15.0
DEFAULT_KNOWN_HOSTS = "~/.ssh/known_hosts"
GLOBAL_KNOWN_HOSTS = "/etc/ssh/ssh_known_hosts"
# ssh_config(5), UserKnownHostsFile and GlobalKnownHostsFile: ssh(1) also reads these second
# files by default (new keys go to the first).
DEFAULT_KNOWN_HOSTS_FILES = (DEFAULT_KNOWN_HOSTS, "~/.ssh/known_hosts2")
GLOBAL_KNOWN_HOSTS_FILES = (GLOBAL_KNOWN_HOSTS, "/etc/ssh/ssh_known_hosts2")
# OpenSSH's default identities, in the order ssh(1) tries them (ssh_config(5): IdentityFile).
DEFAULT_IDENTITY_FILES = ("~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ed25519")


@dataclass(frozen=True)
class Destination:
    """What the user typed: `[user@]host[:port]` (IPv6 as `[addr]:port`)."""

    host: str
    user: str | None = None
    port: int | None = None


@dataclass(frozen=True)
class JumpHop:
    """One `ProxyJump` entry before it is resolved through the config."""

    destination: Destination


@dataclass(frozen=True)
class AddKeysToAgent:
    """AddKeysToAgent (ssh_config(5)) when it is on: how a key opened from its file is handed
    to ssh-agent, as ssh(1) hands it (openssh-portable: sshconnect2.c, load_identity_file calls
    maybe_add_key_to_agent)."""

    ask: bool = False
    """`ask`: only after a yes at the terminal (ssh(1) asks through ssh-askpass)."""
    confirm: bool = False
    """`confirm`: the agent asks before each use of the key (ssh-add -c)."""
    lifetime_s: int | None = None
    """`1h`, `confirm 5m`: the agent forgets the key after this long (ssh-add -t)."""


@dataclass(frozen=True)
class SSHTarget:
    """Everything needed to open one SSH connection, after config resolution."""

    alias: str
    """The name the user gave (used in messages)."""
    hostname: str
    port: int
    user: str
    identity_files: tuple[str, ...] = ()
    identities_only: bool = False
    identity_agent: str | None = None
    """IdentityAgent: the agent socket to use, `none`, or None/`SSH_AUTH_SOCK` for $SSH_AUTH_SOCK."""
    proxy_command: str | None = None
    proxy_jump: tuple[JumpHop, ...] = ()
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S
    keepalive_s: float = DEFAULT_KEEPALIVE_S
    keepalive_count_max: int = 3
    known_hosts_files: tuple[str, ...] = (DEFAULT_KNOWN_HOSTS,)
    global_known_hosts_files: tuple[str, ...] = (GLOBAL_KNOWN_HOSTS,)
    host_key_alias: str | None = None
    strict_host_key_checking: str = "ask"
    """ssh_config value, normalized: yes | ask | accept-new | no (also written off/false). `ask` puts an unknown
    key to the terminal as ssh(1) does, and behaves as `yes` where no one can answer (--batch, no terminal)."""
    hash_known_hosts: bool = False
    """HashKnownHosts: keys we add to known_hosts are filed under the hash of the name."""
    connection_attempts: int = 1
    """ConnectionAttempts: TCP connects tried, one second apart, before the host is unreachable."""
    batch_mode: bool = False
    """BatchMode yes: no prompts for this host (passphrases, one-time codes), as --batch."""
    certificate_files: tuple[str, ...] = ()
    """CertificateFile: user certificates to offer with the identity whose key they certify."""
    host_key_algorithms: str | None = None
    """HostKeyAlgorithms as written (`+`/`-`/`^` prefixes included); None for the default."""
    pubkey_accepted_algorithms: str | None = None
    """PubkeyAcceptedAlgorithms (or its old name PubkeyAcceptedKeyTypes) as written; None for the default."""
    kex_algorithms: str | None = None
    """KexAlgorithms as written (`+diffie-hellman-group14-sha1` for an old appliance); None for the default."""
    ciphers: str | None = None
    """Ciphers as written; None for the default."""
    macs: str | None = None
    """MACs as written; None for the default."""
    address_family: str = "any"
    """AddressFamily: any | inet (IPv4 only) | inet6 (IPv6 only), the addresses connects try."""
    known_hosts_command: str | None = None
    """KnownHostsCommand as written (tokens unexpanded: %H, %K need the connection); None for none."""
    login_methods: tuple[str, ...] = ("keyboard-interactive", "password")
    """The logins after the keys ssh(1) would try, in its order: PreferredAuthentications,
    less those PasswordAuthentication / KbdInteractiveAuthentication `no` turn off."""
    password_prompts: int = 3
    """NumberOfPasswordPrompts: how many times a typed password is asked for."""
    pkcs11_provider: str | None = None
    """PKCS11Provider (or `ssh -I`): the smart-card library ssh(1) reads keys from; spec-debug
    cannot load it, only name it (its keys work once in ssh-agent: `ssh-add -s LIBRARY`)."""
    bind_address: str | None = None
    """BindAddress: the local address TCP connects go out from (a multi-homed login node); None for the system's choice."""
    key_logins: str | None = None
    """None when keys are offered; else why ssh(1) offers none to this host, as messages say it
    (`PubkeyAuthentication no`, or PreferredAuthentications without publickey)."""
    add_keys_to_agent: AddKeysToAgent | None = None
    """AddKeysToAgent: None (`no`, the default) leaves ssh-agent as it is."""
    send_env: tuple[str, ...] = ()
    """SendEnv: patterns of the local environment's variables sent with every session, after
    `-PATTERN` removals (see environment_to_send)."""
    set_env: tuple[tuple[str, str], ...] = ()
    """SetEnv: (name, value) sent with every session, after those of SendEnv."""
    inventory_name: str | None = None
    """The name the user knows the host by when it differs from `alias` (an inventory host
    `lab01` whose ansible_host is 10.0.0.5): questions and host-key messages say both."""
    password: str | None = field(default=None, repr=False, compare=False)
    """The account's password, from an inventory (ansible_password): sent to this host only,
    never shown, never part of a message or a record (hence repr=False)."""
    password_source: str | None = None
    """Where the password is set, as messages name it (`ansible_password in hosts.yml`); set
    also when its value could not be read (vault-encrypted), which `password` None then says."""

    @property
    def label(self) -> str:
        """How questions and host-key messages name the host: `lab01 at 10.0.0.5` for an
        inventory host reached at an address, else the name given. The address alone (what
        ssh resolves) was all a terminal question said, and a run over a fleet asked about
        `(10.0.0.5)` with nothing to tie it to the host the user knows."""
        if self.inventory_name and self.inventory_name != self.alias:
            return f"{self.inventory_name} at {self.alias}"
        return self.alias

    @property
    def known_hosts_name(self) -> str:
        """The name this host's key is filed under in known_hosts.

        A host name in lower case, as ssh(1) lowercases it before anything else (openssh-portable:
        ssh.c, main: `lowercase(host)`, addresses excepted): a hashed entry (HashKnownHosts) is
        the HMAC of that lower-case name, so `--host GPU01` must hash `gpu01` to find it.
        """
        if self.host_key_alias:
            # HostKeyAlias is the name as written, never `[alias]:port` (openssh-portable:
            # sshconnect.c, get_hostfile_hostname_ipaddr): it is how a tunnelled host on
            # `localhost:2201` keeps its own key; `[gpu01-key]:2201` found nothing ssh(1) wrote.
            return self.host_key_alias
        name = self.hostname if _is_address(self.hostname) else self.hostname.lower()
        return name if self.port == DEFAULT_PORT else f"[{name}]:{self.port}"

    @property
    def certificate_name(self) -> str:
        """The name a host certificate must list among its principals: HostKeyAlias, else the
        host name as known_hosts_name has it, without port (openssh-portable: sshconnect.c,
        check_host_key calls check_host_cert with it)."""
        if self.host_key_alias:
            return self.host_key_alias
        return self.hostname if _is_address(self.hostname) else self.hostname.lower()

    @property
    def known_hosts_portless_name(self) -> str | None:
        """The name without its port, which ssh(1) also trusts when the `[host]:port` name
        has no key at all (openssh-portable: sshconnect.c, check_host_key, HOST_NEW: "checking
        without port identifier"): an sshd on port 2222 of a host known on 22 with the same
        key. None where there is no port to drop (port 22, or a HostKeyAlias)."""
        if self.host_key_alias or self.port == DEFAULT_PORT:
            return None
        return self.hostname if _is_address(self.hostname) else self.hostname.lower()


# The user is everything before the last `@`, as ssh(1) splits it (openssh-portable: ssh.c,
# main, strrchr): domain accounts log in as `alice@corp.example.com@gpu01`.
_DESTINATION = re.compile(
    r"^(?:(?P<user>\S+)@)?"
    r"(?:\[(?P<ipv6>[^\]]+)\]|(?P<host>[^:\s\[\]@]+))"
    r"(?::(?P<port>\d+))?$"
)


def parse_destination(text: str) -> Destination:
    """Split `[user@]host[:port]` or `ssh://[user@]host[:port]`; raise UsageError if malformed."""
    raw = text.strip()
    if raw.startswith("ssh://"):
        raw = raw[len("ssh://") :].rstrip("/")
    user, at, address = raw.rpartition("@")
    if address.count(":") >= 2 and _is_ipv6_address(address) and (user or not at):
        # A bare IPv6 address, as ssh(1) takes it (`ssh root@2001:db8::5`, `ssh fe80::1%eth0`:
        # it splits off the user at the last `@` and reads no port there, openssh-portable:
        # ssh.c, main). Its colons are not a `:port`; it was "cannot parse host".
        return Destination(host=address, user=user or None)
    match = _DESTINATION.match(raw)
    if not match:
        raise UsageError(
            f"cannot parse host {text!r}",
            hint="write it as HOST, USER@HOST, HOST:PORT or USER@[IPV6]:PORT",
        )
    port = match.group("port")
    if port is not None and not 0 < int(port) < 65536:
        raise UsageError(f"port {port} out of range in host {text!r}")
    return Destination(
        host=match.group("ipv6") or match.group("host"),
        user=match.group("user"),
        port=int(port) if port else None,
    )


def system_ssh_config() -> Path:
    """The system-wide file ssh(1) reads after the user's (ssh_config(5), FILES). Overridable
    for tests and unusual installs (``SPEC_DEBUG_SYSTEM_SSH_CONFIG``)."""
    return Path(os.environ.get("SPEC_DEBUG_SYSTEM_SSH_CONFIG", "/etc/ssh/ssh_config"))


def load_ssh_config(path: Path | str | None) -> paramiko.SSHConfig:
    """The config `ssh` would read: FILE when given (`-F`, and then nothing else, as ssh(1)
    does), else ~/.ssh/config followed by the system-wide /etc/ssh/ssh_config. Clusters put
    their ProxyJump rules in /etc/ssh/ssh_config.d/*.conf; without it `ssh gpu01` works where
    we could not connect. The first value obtained wins, so the user's file comes first."""
    if path is not None and str(path).lower() == "none":
        # ssh(1), -F: "If set to none, no configuration files will be read" (openssh-portable:
        # ssh.c, main): how scripts ask for a host exactly as given. It was "file not found: none".
        return paramiko.SSHConfig()
    if path is not None:
        config_path = Path(os.path.expanduser(str(path)))
        if not config_path.is_file():
            raise UsageError(f"ssh config file not found: {config_path}")
        return _parse([(config_path, None)])
    user_file, system_file = Path(os.path.expanduser("~/.ssh/config")), system_ssh_config()
    # A system file's relative Include is under its own folder, /etc/ssh (readconf.c: the
    # user's file resolves under ~/.ssh, the system one under SSHDIR).
    return _parse([(p, base) for p, base in ((user_file, None), (system_file, str(system_file.parent)))
                   if p.is_file()])


def _parse(files: list[tuple[Path, str | None]]) -> paramiko.SSHConfig:
    texts = []
    for config_path, relative_to in files:
        try:
            text = expand_includes(config_path, relative_to=relative_to)
        except (OSError, ValueError) as exc:  # unreadable, or not UTF-8
            raise UsageError(f"cannot read ssh config {config_path}: {exc}") from None
        texts.append(("Host *\n" if texts else "") + text)  # ends the previous file's last block
    if not texts:
        return paramiko.SSHConfig()
    try:
        return paramiko.SSHConfig.from_text("".join(texts))
    except (paramiko.ConfigParseError, ValueError) as exc:
        raise UsageError(f"cannot read ssh config {', '.join(str(p) for p, _ in files)}: {exc}") from None


class _MatchExec:
    """`Match exec "COMMAND"` run as ssh(1) runs it: through the user's shell, with stdin and
    stdout on /dev/null and stderr shown (openssh-portable: readconf.c, execute_in_shell).

    OpenSSH runs these commands, and configs rely on them (`Match host gpu* exec "on-vpn"`), so
    we run them too. paramiko runs them with invoke.run (paramiko/config.py, _does_match),
    which forwards our own stdin to the command: it swallowed whatever spec-debug's stdin held
    (`run --step` answers, a piped host list) and switched a terminal to cbreak mode from a
    host thread. paramiko.config's module-level `invoke` is its only use of invoke, so this
    object stands in for it (run(command, hide=..., warn=...) -> result with `.ok`).
    """

    @staticmethod
    def run(command: str, **_ignored: object) -> SimpleNamespace:
        shell = os.environ.get("SHELL") or "/bin/sh"
        try:
            done = subprocess.run([shell, "-c", command], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)
        except OSError:
            return SimpleNamespace(ok=False)  # no shell: the criterion fails, as a failing command
        return SimpleNamespace(ok=done.returncode == 0)


paramiko.config.invoke = _MatchExec  # type: ignore[attr-defined]


_INCLUDE = re.compile(r"^\s*include(?:\s*=\s*|\s+)(.+)$", re.IGNORECASE)
_BLOCK = re.compile(r"^\s*(host|match)(\s*=\s*|\s+)", re.IGNORECASE)
_MAX_INCLUDE_DEPTH = 16  # OpenSSH's READCONF_MAX_DEPTH


def expand_includes(path: Path, *, depth: int = 0, relative_to: str | None = None, enclosing: str = "Host *") -> str:
    """The config text with `Include` lines replaced by the files they name.

    paramiko's parser ignores Include (paramiko/paramiko: paramiko/config.py), yet many
    ~/.ssh/config files are a list of `Include config.d/*`. As in OpenSSH (readconf.c,
    ssh_config(5)): relative names are under ~/.ssh, globs expand in sorted order, a missing
    file is skipped, and an Include inside a Host/Match block only applies within it. The
    enclosing block header is repeated after the included text so that the lines after the
    Include stay in their block, and the included file's own Host/Match blocks are narrowed
    to it (`enclosing`: see _narrowed).
    """
    if depth > _MAX_INCLUDE_DEPTH:
        raise UsageError(f"ssh config: Include nested deeper than {_MAX_INCLUDE_DEPTH} at {path}")
    base = relative_to or os.path.expanduser("~/.ssh")
    within = _criteria(enclosing)
    lines: list[str] = []
    block = enclosing
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    if text.startswith("\ufeff"):
        # Notepad's "UTF-8 with BOM", PowerShell 5's `Out-File -Encoding utf8`: ssh(1) stops at
        # it ("Bad configuration option: \357\273\277host"), and paramiko's "Unparsable line
        # Host gpu01" showed nothing wrong, the mark being invisible.
        raise ValueError(f"{path} starts with a byte-order mark (saved as \"UTF-8 with BOM\" by a Windows editor); "
                         "ssh(1) refuses it too: save the file as plain UTF-8")
    for number, line in enumerate(text.splitlines(), 1):
        line = _utf8_outside_comments(without_trailing_comment(line), path, number)
        include = _INCLUDE.match(line)
        if include is None:
            if _BLOCK.match(line):
                line = _narrowed(line, within)
                block = line.strip()
            else:
                line = _as_ssh_reads_it(line, path, number)
            lines.append(line)
            continue
        for pattern in shlex.split(include.group(1)):
            pattern = os.path.expanduser(pattern)
            if not os.path.isabs(pattern):
                pattern = os.path.join(base, pattern)
            for included in sorted(glob.glob(pattern)):
                if os.path.isfile(included):
                    lines.append(expand_includes(Path(included), depth=depth + 1, relative_to=relative_to, enclosing=block))
                    lines.append(block)
    return "\n".join(lines) + "\n"


# Keywords whose value ssh(1) keeps as the raw rest of the line, comment and all (openssh-portable:
# readconf.c, parse_command): the shell that runs the command reads a `#` as its own comment.
_RAW_LINE_KEYWORDS = frozenset({"proxycommand", "knownhostscommand", "localcommand", "remotecommand"})


def argv_split(text: str) -> list[str]:
    """The words of a config value as ssh(1) reads them (openssh-portable: misc.c, argv_split):
    split at blanks outside quotes, `"` and `'` quote (and are dropped), and a backslash keeps
    the quote, backslash or (outside quotes) blank after it. ValueError on an unclosed quote
    (ssh(1): "invalid quotes")."""
    words: list[str] = []
    index, length = 0, len(text)
    while index < length:
        if text[index] in " \t":
            index += 1
            continue
        word: list[str] = []
        quote = ""
        while index < length:
            char = text[index]
            following = text[index + 1] if index + 1 < length else ""
            if char == "\\" and (following in ("'", '"', "\\") or (not quote and following == " ")):
                word.append(following)
                index += 2
                continue
            if not quote and char in " \t":
                break
            if not quote and char in "\"'":
                quote = char
            elif quote and char == quote:
                quote = ""
            else:
                word.append(char)
            index += 1
        if quote:
            raise ValueError(f"unclosed {quote} in {text!r}")
        words.append("".join(word))
    return words


def _argv_quoted(words: list[str]) -> str:
    """Words that argv_split gives back as they are: each in single quotes, its `\\` and `'`
    escaped. Never wholly in double quotes, which paramiko strips from a value before we see it."""
    return " ".join("'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'" for word in words)


_KEYWORD_LINE = re.compile(r"^(\s*)(\w+)(?:\s*=\s*|\s+)(.*)$")
_QUOTING = re.compile(r"[\"'\\]")
# Values that are lists of words, split again with argv_split after the lookup (_split_files).
_WORD_LIST_KEYWORDS = frozenset({"userknownhostsfile", "globalknownhostsfile"})
# SendEnv and SetEnv, filed one key per config line (see _as_ssh_reads_it); the keys sort in
# config order, command line first.
_SEND_ENV_KEY = "specdebugsendenv"
_SET_ENV_KEY = "specdebugsetenv"
_ENVIRONMENT_KEYS = {"sendenv": _SEND_ENV_KEY, "setenv": _SET_ENV_KEY}
_LINE_IDS = itertools.count(1)


def _as_ssh_reads_it(line: str, path: Path, number: int) -> str:
    """A config line rewritten so that paramiko's parser gets the values ssh(1) reads.

    Quotes: ssh(1) splits every value with argv_split, so `IdentityFile ~/.ssh/"my key"` names
    `~/.ssh/my key`; paramiko drops quotes only around a whole value (paramiko/config.py, parse)
    and kept them, naming a file that does not exist. A value with a quote or backslash is split
    here and written back as paramiko then reads it; other lines are left exactly as written.

    SendEnv and SetEnv: paramiko keeps a keyword's first value (it lists only IdentityFile and
    the forwards), but ssh(1) adds every SendEnv line that applies to the list (readconf.c,
    oSendEnv: "appends to list; doesn't respect first-match-wins") and takes the first SetEnv
    line whole (oSetEnv). Each such line gets a key of its own, numbered in config order, so the
    lookup keeps all of them; _environment reads them back. Bad names are refused here, in any
    block, as ssh(1) refuses them ("Invalid environment name", "Invalid SetEnv").
    """
    match = _KEYWORD_LINE.match(line)
    if match is None:
        return line
    indent, keyword, value = match.groups()
    key = keyword.lower()
    if key in _RAW_LINE_KEYWORDS or key in ("host", "match", "include"):
        return line
    if key not in _ENVIRONMENT_KEYS and not _QUOTING.search(value):
        return line
    try:
        words = argv_split(value)
    except ValueError as exc:
        raise ValueError(f"{path} line {number}: {keyword}: {exc}") from None
    if key in _ENVIRONMENT_KEYS:
        if not words:
            raise ValueError(f"{path} line {number}: {keyword} names no variable")
        for word in words:
            _check_environment_word(key, word, f"{path} line {number}")
        return f"{indent}{_ENVIRONMENT_KEYS[key]}{next(_LINE_IDS):09d} {_argv_quoted(words)}"
    if key in _WORD_LIST_KEYWORDS:
        return f"{indent}{keyword} {_argv_quoted(words)}"
    if len(words) == 1:
        return f'{indent}{keyword} "{words[0]}"'  # paramiko drops exactly these outer quotes
    if not any(blank in word for word in words for blank in " \t"):
        return f"{indent}{keyword} {' '.join(words)}"  # `AddKeysToAgent "confirm" 5m`
    return line


def _check_environment_word(key: str, word: str, where: str) -> None:
    """ValueError for a SendEnv name ssh(1) refuses (empty, or holding `=`) or a SetEnv word
    without `=` (openssh-portable: readconf.c, oSendEnv and oSetEnv)."""
    if key == "sendenv" and (not word.lstrip("-") or "=" in word):
        raise ValueError(f"{where}: SendEnv {word!r} is not a variable name or pattern (write SetEnv NAME=value to set one)")
    if key == "setenv" and "=" not in word:
        raise ValueError(f"{where}: SetEnv {word!r} is not NAME=value")


def _utf8_outside_comments(line: str, path: Path, number: int) -> str:
    """`line` (comment removed) if it is UTF-8; ValueError (a usage error, by _parse) if not.

    ssh(1) reads bytes: a comment saved in Latin-1 by an old editor (`# Rechner für ...`)
    stopped every run as "cannot read ssh config: 'utf-8' codec can't decode". Only bytes in
    a comment are let through (read with surrogateescape, then dropped with the comment); a
    value that is not UTF-8 (a user or path paramiko would have to send) is still refused.
    """
    if line.lstrip().startswith("#") or not any("\udc80" <= char <= "\udcff" for char in line):
        return line
    raise ValueError(f"{path} line {number} is not UTF-8: {line.encode('utf-8', 'surrogateescape')!r}")


def _narrowed(header: str, within: tuple[str, ...]) -> str:
    """A Host/Match line of a file included inside a block, as a Match that also requires that
    block's criteria (`within`).

    In OpenSSH the blocks of a file included from a Host or Match block that does not apply
    can never apply either (openssh-portable: readconf.c, oInclude passes SSHCONF_NEVERMATCH,
    and process_config_line_depth then leaves every Host/Match inactive). Flattened into one
    text for paramiko, `Host *.work` + `Include work_config` holding `Host *  ProxyJump
    work-bastion` sent every host, home ones too, through the work bastion.
    """
    if not within:
        return header
    combined = (*within, *_criteria(header))
    return "Match " + " ".join(combined) if combined else "Host *"


def _criteria(header: str) -> tuple[str, ...]:
    """A Host/Match line's condition as Match criteria; () for one that every host meets."""
    block = _BLOCK.match(header)
    if block is None:
        return ()
    rest = header[block.end():].strip()
    if block.group(1).lower() == "match":
        words = rest.split()
        if words and words[-1].lower() == "all" and all(word.lower() in ("all", "canonical", "final") for word in words):
            return tuple(word for word in words if word.lower() != "all")  # `all` may not be combined
        return (rest,)
    patterns = rest.split()
    if patterns == ["*"]:
        return ()
    # `Host a* !ab`: a positive pattern matches and no negated one does (ssh_config(5), PATTERNS).
    positive = [pattern for pattern in patterns if not pattern.startswith("!")]
    negated = [pattern[1:] for pattern in patterns if pattern.startswith("!")]
    # Only negations: ssh(1) never matches such a Host line; "/" is in no host name.
    criteria = [f"originalhost {','.join(positive) or '/'}"]
    if negated:
        criteria.append(f"!originalhost {','.join(negated)}")
    return tuple(criteria)


def without_trailing_comment(line: str) -> str:
    """`Port 2222  # sshd on 2222` -> `Port 2222`, as ssh(1) reads a config line since OpenSSH
    8.7: a `#` that starts an unquoted word ends the line (openssh-portable: misc.c,
    argv_split with terminate_on_comment, called by readconf.c, process_config_line_depth).

    paramiko keeps the comment in the value: `Port 2222 # ...` stopped the run as "not a
    number", `HostName 10.0.0.1 # rack 3` sent us to a name that does not resolve and
    `User ml # service account` logged in as a user that does not exist. A `#` inside a word
    (`HostName h#1`) or in quotes is kept, as are the commands of _RAW_LINE_KEYWORDS.
    """
    stripped = line.lstrip()
    if "#" not in line or not stripped or stripped.startswith("#"):
        return line
    keyword = re.split(r"[\s=]", stripped, maxsplit=1)[0].lower()
    if keyword in _RAW_LINE_KEYWORDS:
        return line
    quote = ""
    previous = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'" and previous != "\\":
            quote = char
        elif char == "#" and previous in (" ", "\t"):
            return line[:index].rstrip()
        previous = char
    return line


def resolve_target(
    destination: Destination | str,
    config: paramiko.SSHConfig,
    *,
    user: str | None = None,
    port: int | None = None,
    identity_file: str | None = None,
    connect_timeout_s: float | None = None,
    ssh_options: dict[str, str] | None = None,
) -> SSHTarget:
    """Resolve a destination through the config, command-line values winning (like ssh(1)).

    `user` and `port` (from an inventory) win over the destination's own, which win over the
    config; `ssh_options` are `-o Key=Value` options (lower-case keys, see parse_ssh_args),
    which also win over the config.
    """
    if isinstance(destination, str):
        destination = parse_destination(destination)
    user = user or destination.user
    port = port or destination.port
    seed = {key.lower(): value for key, value in (ssh_options or {}).items()}
    for keyword, own_key in _ENVIRONMENT_KEYS.items():
        # `-o SendEnv=HF_*` (ansible_ssh_common_args) comes before every config line, as in ssh(1).
        if keyword in seed:
            value = seed.pop(keyword)
            try:
                words = argv_split(value)
                for word in words:
                    _check_environment_word(keyword, word, "ssh option")
            except ValueError as exc:
                raise UsageError(f"-o {keyword}: {exc}") from None
            seed[f"{own_key}{0:09d}"] = _argv_quoted(words)
    if user:
        seed["user"] = user
    if port:
        seed["port"] = str(port)
    try:
        entry = _with_command_line(config, seed).lookup(destination.host)
    except paramiko.CouldNotCanonicalize:
        # ssh(1): 'Could not resolve host "gpu01"' (openssh-portable: ssh.c, resolve_canonicalize):
        # a name that is in none of the domains is an unreachable host, not a usage error.
        raise HostUnreachableError(
            f"{destination.host}: cannot resolve host name {destination.host!r} in any CanonicalDomains of your ssh config",
            hint="check the name; CanonicalizeFallbackLocal no forbids trying it as given",
        ) from None
    except UsageError:
        raise
    except Exception as exc:  # paramiko raises bare exceptions (KeyError, ValueError) on odd values
        raise UsageError(f"cannot resolve {destination.host!r} through ssh config: {exc}") from None
    user = entry.get("user") or getpass.getuser()
    port = _port(entry.get("port"))
    identity_files = tuple(_environment_expanded_strict(path, "IdentityFile") for path in entry.get("identityfile", []))
    if identity_file:
        identity_files = (os.path.expanduser(identity_file), *identity_files)
    proxy_command = entry.get("proxycommand")
    proxy_jump_value = entry.get("proxyjump")
    if "proxycommand" in entry and "proxyjump" in entry:  # paramiko files `ProxyCommand none` as None
        # The first of the two met wins (openssh-portable: readconf.c, oProxyJump is
        # "considered only if ProxyCommand wasn't specified", and a ProxyCommand after a
        # ProxyJump is skipped), except that a first `ProxyJump none` still lets a later
        # ProxyCommand apply (as `ssh -G` shows with OpenSSH 9). paramiko's lookup fills its
        # dict in config order, so the first key in it is the first one met. Preferring
        # ProxyJump always sent `Host bastion: ProxyCommand none` beside `Host *: ProxyJump
        # bastion` through itself, and was refused as a loop.
        keys = list(entry)
        if keys.index("proxycommand") < keys.index("proxyjump"):
            proxy_jump_value = None
        elif str(proxy_jump_value).strip().lower() != "none":
            proxy_command = None
    if proxy_command and proxy_command.strip().lower() == "none":
        proxy_command = None
    proxy_jump = parse_proxy_jump(proxy_jump_value)
    timeout = connect_timeout_s
    if timeout is None:
        timeout = _seconds(entry.get("connecttimeout"), "ConnectTimeout", DEFAULT_CONNECT_TIMEOUT_S)
    if timeout <= 0:
        # ssh(1) reads ConnectTimeout 0 as no timeout of its own (openssh-portable: misc.c,
        # timeout_connect: "No timeout: just do a blocking connect()"). As a socket timeout, 0
        # made every connect non-blocking: "cannot reach HOST: Operation now in progress".
        timeout = DEFAULT_CONNECT_TIMEOUT_S
    keepalive = _seconds(entry.get("serveraliveinterval"), "ServerAliveInterval", DEFAULT_KEEPALIVE_S)
    if keepalive <= 0:  # 0 means "off" in OpenSSH; we still want dead peers detected
        keepalive = DEFAULT_KEEPALIVE_S
    send_env, set_env = _environment(entry)
    known_hosts = _user_known_hosts_files(entry.get("userknownhostsfile"))
    global_known = _split_files(entry.get("globalknownhostsfile")) or GLOBAL_KNOWN_HOSTS_FILES
    return SSHTarget(
        alias=destination.host,
        hostname=entry.get("hostname", destination.host),
        port=port,
        user=user,
        identity_files=identity_files,
        identity_agent=_environment_expanded(entry.get("identityagent")),
        identities_only=_flag(entry.get("identitiesonly"), "IdentitiesOnly"),
        proxy_command=proxy_command,
        proxy_jump=proxy_jump,
        connect_timeout_s=timeout,
        keepalive_s=keepalive,
        keepalive_count_max=int(_number(entry.get("serveralivecountmax"), "ServerAliveCountMax", 3)),
        known_hosts_files=known_hosts,
        global_known_hosts_files=global_known,
        host_key_alias=entry.get("hostkeyalias"),
        strict_host_key_checking=_strict_host_key_checking(entry.get("stricthostkeychecking")),
        hash_known_hosts=_flag(entry.get("hashknownhosts"), "HashKnownHosts"),
        host_key_algorithms=entry.get("hostkeyalgorithms"),
        # PubkeyAcceptedKeyTypes: the name before OpenSSH 8.5, still read by ssh(1) (openssh-portable: readconf.c).
        pubkey_accepted_algorithms=entry.get("pubkeyacceptedalgorithms", entry.get("pubkeyacceptedkeytypes")),
        kex_algorithms=entry.get("kexalgorithms"),
        ciphers=entry.get("ciphers"),
        macs=entry.get("macs"),
        certificate_files=_certificate_files(entry.get("certificatefile")),
        batch_mode=_flag(entry.get("batchmode"), "BatchMode"),
        connection_attempts=max(1, int(_number(entry.get("connectionattempts"), "ConnectionAttempts", 1))),
        address_family=_address_family(entry.get("addressfamily")),
        known_hosts_command=_unless_none(entry.get("knownhostscommand")),
        login_methods=_login_methods(entry),
        password_prompts=max(0, int(_number(entry.get("numberofpasswordprompts"), "NumberOfPasswordPrompts", 3))),
        add_keys_to_agent=_add_keys_to_agent(entry.get("addkeystoagent")),
        key_logins=_no_key_logins(entry),
        bind_address=_unless_none(entry.get("bindaddress")),
        pkcs11_provider=_unless_none(entry.get("pkcs11provider")),
        send_env=send_env,
        set_env=set_env,
    )


def _environment(entry: paramiko.SSHConfigDict) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """SendEnv patterns and SetEnv pairs from the per-line keys of _as_ssh_reads_it, in config
    order. SendEnv lines add up, and `-PATTERN` drops the patterns listed so far that PATTERN
    matches (openssh-portable: readconf.c, rm_env); the first SetEnv line that applies is the
    one used, a name repeated within it keeping its first value (oSetEnv)."""
    patterns: list[str] = []
    pairs: dict[str, str] | None = None
    for key in sorted(k for k in entry if k.startswith((_SEND_ENV_KEY, _SET_ENV_KEY))):
        words = argv_split(str(entry[key]))
        if key.startswith(_SEND_ENV_KEY):
            for word in words:
                if word.startswith("-"):
                    patterns = [pattern for pattern in patterns if not _pattern_matches(pattern, word[1:])]
                elif word not in patterns:
                    patterns.append(word)
        elif pairs is None:
            pairs = {}
            for word in words:
                name, _, value = word.partition("=")
                pairs.setdefault(name, value)
    return tuple(patterns), tuple((pairs or {}).items())


def environment_to_send(target: SSHTarget, environ: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The `env` requests ssh(1) sends on each session before its command: the local variables
    a SendEnv pattern matches, in the environment's order, then SetEnv's (openssh-portable:
    clientloop.c, client_session2_setup). sshd keeps those its AcceptEnv patterns allow (SetEnv
    in sshd_config wins over them) and quietly drops the rest."""
    local = os.environ if environ is None else environ
    sent = [(name, value) for name, value in local.items()
            if any(_pattern_matches(name, pattern) for pattern in target.send_env)]
    return sent + list(target.set_env)


def _pattern_matches(text: str, pattern: str) -> bool:
    """ssh(1)'s match_pattern: `*` and `?` wildcards, case-sensitive; no `[...]` classes
    (openssh-portable: match.c), so a `[` in a pattern is itself."""
    return re.fullmatch("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), text, re.DOTALL) is not None


def _no_key_logins(entry: paramiko.SSHConfigDict) -> str | None:
    """Why ssh(1) offers this host no key, or None when it does (ssh_config(5)).

    `-o PreferredAuthentications=password -o PubkeyAuthentication=no` is how people log in to a
    password-only box past a full ssh-agent (sshd's MaxAuthTries ends the login after 6 keys);
    we offered every agent key regardless, and sshd hung up before the password.
    PubkeyAuthentication also takes `unbound` and `host-bound` (OpenSSH 8.9+): both mean yes.
    """
    value = entry.get("pubkeyauthentication")
    if value is not None and value.strip().lower() not in ("unbound", "host-bound") \
            and not _flag(value, "PubkeyAuthentication"):
        return "PubkeyAuthentication no"
    preferred = [m.strip().lower() for m in entry.get("preferredauthentications", "").split(",") if m.strip()]
    if preferred and "publickey" not in preferred:
        return f"PreferredAuthentications {','.join(preferred)}, without publickey"
    return None


def _add_keys_to_agent(value: str | None) -> AddKeysToAgent | None:
    """AddKeysToAgent as ssh(1) reads it (checked with `ssh -G`, OpenSSH 9.2): yes (true), no
    (false), ask, confirm, `confirm TIME`, or a TIME alone (yes, for that long). Anything else
    is refused there ("unsupported option"), and here: it was ignored, so `ssh` and spec-debug
    disagreed on whether a key ended up in the agent."""
    if value is None:
        return None
    words = value.lower().split()
    flag, time = None, None
    if len(words) == 1 and words[0] in ("yes", "true", "no", "false", "ask", "confirm"):
        flag = words[0]
    elif len(words) == 1:
        flag, time = "yes", words[0]  # a time alone: yes, for that long
    elif len(words) == 2 and words[0] == "confirm":
        flag, time = "confirm", words[1]
    lifetime = None
    if time is not None:
        try:
            lifetime = int(_seconds(time, "AddKeysToAgent", 0))
        except UsageError:
            flag = None
    if flag is None:
        raise UsageError(f"ssh config: AddKeysToAgent {value!r} is not a value ssh(1) takes",
                         hint="write yes, no, ask, confirm, a time such as 1h, or confirm with a time (confirm 5m)")
    if flag in ("no", "false"):
        return None
    # A time of 0 is no limit there (`ssh -G` shows `addkeystoagent true`).
    return AddKeysToAgent(ask=flag == "ask", confirm=flag == "confirm", lifetime_s=lifetime or None)


def _login_methods(entry: paramiko.SSHConfigDict) -> tuple[str, ...]:
    """keyboard-interactive and password, as ssh(1) would try them after the keys: in the
    order PreferredAuthentications gives (default: keyboard-interactive first), without those
    the config turns off (ssh_config(5); ChallengeResponseAuthentication is the old name)."""
    preferred = [m.strip().lower() for m in entry.get("preferredauthentications", "").split(",") if m.strip()]
    methods = [m for m in preferred or ["keyboard-interactive", "password"] if m in ("keyboard-interactive", "password")]
    kbd = entry.get("kbdinteractiveauthentication", entry.get("challengeresponseauthentication"))
    turned_off = {
        "password": entry.get("passwordauthentication") is not None and not _flag(entry.get("passwordauthentication"), "PasswordAuthentication"),
        "keyboard-interactive": kbd is not None and not _flag(kbd, "KbdInteractiveAuthentication"),
    }
    return tuple(m for m in dict.fromkeys(methods) if not turned_off[m])


def _unless_none(value: str | None) -> str | None:
    """A command keyword's value, None where it is unset, empty or `none` (ssh_config(5))."""
    if value is None or not value.strip() or value.strip().lower() == "none":
        return None
    return value


def _with_command_line(config: paramiko.SSHConfig, seed: dict[str, str]) -> paramiko.SSHConfig:
    """The config with the command line's options in front, as ssh(1) reads them.

    paramiko's lookup expands `%r`/`%p` (ProxyCommand, IdentityFile) and evaluates `Match user`
    from the first User/Port it meets; a leading `Host *` block makes those ours, so
    `bob@gpu:2200` through `ProxyCommand ssh -W %h:%p` goes to port 2200 as in OpenSSH.
    paramiko keeps parsed blocks in `_config` (paramiko/paramiko: paramiko/config.py, parse).
    """
    block: dict[str, object] = {key: value for key, value in seed.items() if key != "identityfile"}
    if "identityfile" in seed:
        block["identityfile"] = [seed["identityfile"]]  # paramiko keeps IdentityFile as a list
    seeded = _OpenSSHTokens()
    front = [{"host": ["*"], "config": block}] if block else []
    # Last, as OpenSSH's built-in defaults: no CanonicalDomains means nothing to try (paramiko
    # raises KeyError on `CanonicalizeHostname yes` without it: paramiko/config.py, lookup).
    defaults = [{"host": ["*"], "config": {"canonicaldomains": ""}}]
    seeded._config = [*front, *config._config, *defaults]
    return seeded


# The `%` tokens ssh_config(5) documents per keyword (OpenSSH 9), beyond what paramiko expands
# (paramiko/config.py, TOKENS_BY_CONFIG_KEY: no %n, %p, %i, %k, %L or %% in IdentityFile, no %n
# or %% in ProxyCommand). `IdentityFile ~/.ssh/keys/%n` (a key per alias) otherwise names a
# file that does not exist and the host "fails authentication" with no key tried at all.
# UserKnownHostsFile takes the same tokens as IdentityFile (ssh_config(5), TOKENS), which paramiko
# leaves unexpanded: `UserKnownHostsFile ~/.ssh/known_hosts.d/%k` found no file, and
# --accept-new wrote a file literally named `%k`. `%l` paramiko expands otherwise than ssh(1) (_own_token).
_OWN_TOKENS = {
    "identityfile": set("nipkLlj"),
    "identityagent": set("nipkLlj"),
    "userknownhostsfile": set("nipkLlj"),
    "proxycommand": set("n"),
}
_TOKEN = re.compile(r"%(.)")


class _OpenSSHTokens(paramiko.SSHConfig):
    """paramiko's config with ssh(1)'s token expansion for IdentityFile and ProxyCommand: one
    left-to-right pass (so `%%h` stays `%h`, which paramiko's replace-each-token turns into
    `%HOST`), the tokens paramiko lacks added, the rest as paramiko computes them."""

    def _tokenize(self, config: dict[str, object], target_hostname: str, key: str, value: str) -> str:
        if key.startswith(_SET_ENV_KEY):
            # OpenSSH 10.0 expands SetEnv's values (not its names) as it does UserKnownHostsFile:
            # `SetEnv HF_HOME=${HOME}/hf RUN_HOST=%h` (openssh-portable: ssh.c, main, "expanded
            # SetEnv"). Word by word, so that what a token or variable brings stays one value.
            expanded = []
            for word in argv_split(value):
                name, _, text = word.partition("=")
                text = self._tokenize(config, target_hostname, "userknownhostsfile", text)
                try:
                    expanded.append(f"{name}={_environment_expanded_strict(text, 'SetEnv')}")
                except UsageError as unset:  # ssh(1) refuses it too; the value is no path
                    raise UsageError(f"{unset.message} (in SetEnv {name})", hint="set it, or write the value out") from None
            return _argv_quoted(expanded)
        own = _OWN_TOKENS.get(key)
        if own is None:
            return super()._tokenize(config, target_hostname, key, value)
        if key in ("identityfile", "identityagent"):
            value = os.path.expanduser(value)  # a leading ~ only (openssh-portable: misc.c, tilde_expand)
        # ProxyCommand gets no `~` expansion of ours (paramiko replaces every `~`): as in ssh(1),
        # the shell that runs it expands a leading one (_ProxyCommand in ssh_connect).
        source_key = key if key in self.TOKENS_BY_CONFIG_KEY else "identityfile"
        inherited = {c[1] for c in self._allowed_tokens(source_key) if c.startswith("%")}

        def expand(match: re.Match[str]) -> str:
            token = match.group(1)
            if token == "%":
                return "%"
            if token in own:
                return _own_token(token, config, target_hostname)
            if token in inherited:
                return str(super(_OpenSSHTokens, self)._tokenize(config, target_hostname, source_key, match.group(0)))
            return match.group(0)  # ssh(1) refuses an unknown token; left as written, it shows in errors

        return _TOKEN.sub(expand, value)

    def _does_match(
        self, match_list: list[dict[str, object]], target_hostname: str, canonical: bool, final: bool, options: dict[str, object]
    ) -> object:
        """`Match` criteria paramiko does not know, evaluated as ssh(1) does, before its own.

        paramiko counts a criterion it does not know as met (paramiko/config.py, _does_match),
        so `Match localnetwork 10.0.0.0/8` + `ProxyJump none` (OpenSSH 9.4: "on the office
        network, no bastion") applied everywhere, and a misspelt `Match hots gpu*` matched
        every host; ssh(1) refuses an unknown criterion ("Unsupported Match attribute",
        openssh-portable: readconf.c, match_cfg_line).
        """
        known: list[dict[str, object]] = []
        for candidate in match_list:
            kind, param = str(candidate["type"]).lower(), str(candidate.get("param") or "")
            if kind in _PARAMIKO_MATCH_CRITERIA:
                known.append(candidate)
                continue
            if kind in ("host", "originalhost"):
                passed = _pattern_list_matches(_match_host(kind, target_hostname, options), param.lower())
            elif kind == "localnetwork":
                passed = _on_local_network(param)
            elif kind == "tagged":  # the Tag keyword (or -P): none set is the empty tag
                passed = _pattern_list_matches(str(options.get("tag") or ""), param)
            elif kind == "sessiontype":  # ours are commands (exec) and SFTP, never a shell
                passed = _pattern_list_matches("exec", param)
            elif kind in ("command", "version"):  # no one remote command; we are not OpenSSH
                passed = False
            else:
                raise UsageError(
                    f"ssh config: Match {candidate['type']} is not a criterion ssh(1) knows",
                    hint="ssh_config(5), Match: all, canonical, final, exec, localnetwork, host, originalhost, tagged, user, localuser",
                )
            if self._should_fail(passed, candidate):
                return False
        if not known:
            return bool(match_list)  # an empty list is a Host block's: no Match to meet
        return super()._does_match(known, target_hostname, canonical, final, options)

    def canonicalize(self, hostname: str, options: dict[str, object], domains: list[str]) -> str:
        """CanonicalizeHostname as ssh(1) applies it (openssh-portable: ssh.c, main and
        resolve_canonicalize): to the HostName when one is set, never to an address or a name
        with more dots than CanonicalizeMaxDots, and under `yes` not through a proxy.

        paramiko canonicalizes the alias and then overwrites HostName with the result
        (paramiko/config.py, lookup): `Host *  CanonicalizeHostname yes` beside
        `Host gpu01  HostName 10.0.0.1` sent us to the DNS name `gpu01` (or a CanonicalDomains
        match of it), not to 10.0.0.1.
        """
        name = str(options.get("hostname") or hostname).replace("%h", hostname)
        proxied = any(str(options.get(key) or "none").lower() != "none" for key in ("proxycommand", "proxyjump"))
        if proxied and options.get("canonicalizehostname") != "always":
            return name
        if name != hostname and (_is_address(name) or name.count(".") > int(str(options.get("canonicalizemaxdots", 1)))):
            return name
        return str(super().canonicalize(name, options, domains))


# `host` and `originalhost` are ours (_match_host): paramiko compares them case-sensitively.
_PARAMIKO_MATCH_CRITERIA = frozenset({"all", "canonical", "final", "exec", "user", "localuser"})


def _match_host(kind: str, target_hostname: str, options: dict[str, object]) -> str:
    """The name `Match host` / `Match originalhost` test, as ssh(1) builds it: lower case,
    the patterns lowered too (openssh-portable: match.c, match_hostname lowercases the name and
    calls match_pattern_list with dolower=1), and for `host` the HostName set so far with its
    `%h` expanded (readconf.c, match_cfg_line). paramiko compared case-sensitively, so
    `Match host GPU*` never matched `gpu01` (nor `Match host gpu*` an alias typed `GPU01`),
    which `ssh -G` (OpenSSH 9.2) matches both. `Host` lines stay case-sensitive: ssh(1) tests
    them with match_pattern against the name as typed (readconf.c, oHost), as paramiko does.
    """
    name = target_hostname
    if kind == "host" and options.get("hostname"):
        name = str(options["hostname"]).replace("%h", target_hostname)
    return name.lower()


def _pattern_list_matches(value: str, patterns: str) -> bool:
    """ssh(1)'s match_pattern_list: comma-separated globs, a matching `!glob` vetoes."""
    matched = False
    for pattern in patterns.split(","):
        negated = pattern.startswith("!")
        if fnmatch.fnmatchcase(value, pattern[1:] if negated else pattern):
            if negated:
                return False
            matched = True
    return matched


def _on_local_network(networks: str) -> bool:
    """`Match localnetwork`: whether an address of an interface that is up lies in one of the
    comma-separated CIDR networks (openssh-portable: readconf.c, check_match_ifaddrs)."""
    try:
        wanted = [ipaddress.ip_network(cidr.strip(), strict=False) for cidr in networks.split(",") if cidr.strip()]
    except ValueError as exc:
        raise UsageError(f"ssh config: Match localnetwork {networks}: {exc}") from None
    return any(address in network for address in _interface_addresses() for network in wanted if address.version == network.version)


class _Sockaddr(ctypes.Structure):
    _fields_ = [("family", ctypes.c_ushort), ("data", ctypes.c_ubyte * 14)]


class _SockaddrIn6(ctypes.Structure):
    _fields_ = [("family", ctypes.c_ushort), ("port", ctypes.c_ushort), ("flowinfo", ctypes.c_uint32),
                ("address", ctypes.c_ubyte * 16), ("scope", ctypes.c_uint32)]


class _Ifaddrs(ctypes.Structure):
    pass


_Ifaddrs._fields_ = [  # struct ifaddrs, getifaddrs(3) (Linux layout)
    ("next", ctypes.POINTER(_Ifaddrs)), ("name", ctypes.c_char_p), ("flags", ctypes.c_uint),
    ("address", ctypes.POINTER(_Sockaddr)), ("netmask", ctypes.POINTER(_Sockaddr)),
    ("broadcast", ctypes.POINTER(_Sockaddr)), ("data", ctypes.c_void_p),
]
_IFF_UP = 0x1


@functools.lru_cache(maxsize=1)
def _interface_addresses() -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]:
    """The addresses of this machine's interfaces that are up, as getifaddrs(3) lists them
    (the stdlib has no binding); none where it cannot be called (then no localnetwork matches)."""
    if not os.path.exists("/proc/self"):  # the Linux struct layout above; elsewhere: none
        return ()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    except OSError:
        return ()
    head = ctypes.POINTER(_Ifaddrs)()
    if libc.getifaddrs(ctypes.byref(head)) != 0:
        return ()
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    try:
        entry = head
        while entry:
            item = entry.contents
            if item.address and item.flags & _IFF_UP:
                family = item.address.contents.family
                if family == socket.AF_INET:
                    found.append(ipaddress.IPv4Address(bytes(item.address.contents.data[2:6])))
                elif family == socket.AF_INET6:
                    six = ctypes.cast(item.address, ctypes.POINTER(_SockaddrIn6)).contents
                    found.append(ipaddress.IPv6Address(bytes(six.address)))
            entry = item.next
    finally:
        libc.freeifaddrs(head)
    return tuple(found)


def _is_ipv6_address(text: str) -> bool:
    """An IPv6 address, a scoped one (`fe80::1%eth0`) included."""
    try:
        socket.inet_pton(socket.AF_INET6, text.partition("%")[0])
    except OSError:
        return False
    return True


def _is_address(name: str) -> bool:
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in name else socket.AF_INET, name)
    except OSError:
        return False
    return True


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


# ssh(1)'s spellings of yes and no (openssh-portable: readconf.c, multistate_flag and
# multistate_strict_hostkey): `IdentitiesOnly true` is yes there, and was "no" here, so every
# agent key was offered; `StrictHostKeyChecking false` is off there, and was "yes" here.
_FLAGS = {"yes": True, "true": True, "no": False, "false": False}
_STRICT_HOST_KEY_CHECKING = {"yes": "yes", "true": "yes", "ask": "ask", "accept-new": "accept-new",
                             "no": "no", "false": "no", "off": "no"}


def _flag(value: str | None, keyword: str) -> bool:
    if value is None:
        return False
    try:
        return _FLAGS[value.strip().lower()]
    except KeyError:
        raise UsageError(f"ssh config: {keyword} {value!r} is not yes or no") from None


def _address_family(value: str | None) -> str:
    """AddressFamily (ssh_config(5)): people set `inet` where IPv6 is broken (a VPN, a
    container network): a host with an AAAA record then waited out ConnectTimeout on its
    IPv6 address before we tried IPv4, where ssh(1) goes to IPv4 at once."""
    family = (value or "any").strip().lower()
    if family not in ("any", "inet", "inet6"):
        raise UsageError(f"ssh config: AddressFamily {value!r} is not any, inet or inet6")
    return family


def _strict_host_key_checking(value: str | None) -> str:
    if value is None:
        return "ask"
    try:
        return _STRICT_HOST_KEY_CHECKING[value.strip().lower()]
    except KeyError:
        raise UsageError(
            f"ssh config: StrictHostKeyChecking {value!r} is not a value ssh(1) knows",
            hint="write yes, accept-new, no (off) or ask",
        ) from None


def _certificate_files(value: str | list[str] | None) -> tuple[str, ...]:
    """CertificateFile's files, `~` and `${VAR}` expanded as for IdentityFile (ssh_config(5))."""
    if not value:
        return ()
    values = [value] if isinstance(value, str) else value
    return tuple(os.path.expanduser(_environment_expanded_strict(path, "CertificateFile")) for path in values if path.lower() != "none")


def _user_known_hosts_files(value: str | None) -> tuple[str, ...]:
    """UserKnownHostsFile's files, `${VAR}` expanded (tokens are, by the config lookup)."""
    if value is None:
        return DEFAULT_KNOWN_HOSTS_FILES
    if value.strip().lower() == "none":
        # ssh_config(5): "none causes ssh(1) to ignore any user-specific known hosts files".
        # /dev/null reads as empty and swallows what --accept-new adds, where a file named
        # `none` would be created in the current folder.
        return (os.devnull,)
    return _split_files(_environment_expanded_strict(value, "UserKnownHostsFile")) or DEFAULT_KNOWN_HOSTS_FILES


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
    raise AssertionError(token)


SSH_CONFIG_FILE_OPTION = "-F"
"""The key parse_ssh_args files `-F FILE` under: not a keyword, the config file itself."""

# ssh(1) flags that take an argument, and the ssh_config keyword of those that matter here.
_SSH_FLAGS_WITH_ARGUMENT = set("BbcDEeFIiJLlmOoPpQRSWw")
_SSH_FLAG_KEYWORDS = {"J": "proxyjump", "l": "user", "p": "port", "i": "identityfile", "I": "pkcs11provider"}


def parse_ssh_args(text: str, *, source: str = "ssh arguments") -> dict[str, str]:
    """`-o ProxyCommand="ssh -W %h:%p bastion" -J jump -p 2222` -> ssh_config keywords and values.

    What Ansible inventories put in `ansible_ssh_common_args` / `ansible_ssh_extra_args`. As on
    ssh's command line the first value of a keyword wins; flags that do not change where or how
    we connect (-A, -C, -v, -q, ...) are ignored, as are `-o` keywords we do not use.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"{source}: {exc}: {text!r}") from None
    options: dict[str, str] = {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-") or len(word) < 2:
            raise UsageError(f"{source}: unexpected {word!r} in {text!r}", hint="give ssh options only, e.g. -o ProxyJump=bastion")
        flag, attached = word[1], word[2:]
        if flag not in _SSH_FLAGS_WITH_ARGUMENT:
            # A boolean flag, or a bundle of them (-At): no argument to skip. -4 and -6 are
            # AddressFamily (ssh(1)); the last one given wins there, as in ssh's getopt loop.
            for letter in word[1:]:
                if letter in "46":
                    options["addressfamily"] = "inet" if letter == "4" else "inet6"
            continue
        if attached:
            value = attached
        elif index < len(words):
            value = words[index]
            index += 1
        else:
            raise UsageError(f"{source}: -{flag} needs a value in {text!r}")
        if flag == "o":
            key, _, rest = value.replace("=", " ", 1).partition(" ")
            keyword = key.strip().lower()
            if keyword == "sendenv" and keyword in options and rest.strip():
                # Each -o SendEnv adds names, as each config line does (readconf.c, oSendEnv).
                options[keyword] += " " + rest.strip()
            elif key and rest.strip():
                options.setdefault(keyword, rest.strip())
        elif flag in _SSH_FLAG_KEYWORDS:
            options.setdefault(_SSH_FLAG_KEYWORDS[flag], value)
        elif flag == "F":
            # `ansible_ssh_common_args: -F ssh.cfg`, how Ansible setups often describe their
            # bastion: ssh(1) then reads that file instead of ~/.ssh/config; it was ignored, and
            # the hosts it describes were unreachable. The last -F wins, as in ssh's getopt loop.
            options[SSH_CONFIG_FILE_OPTION] = value
    return options


def parse_proxy_jump(value: str | None) -> tuple[JumpHop, ...]:
    """`ProxyJump a,user@b:2200` -> hops in connection order; `none` -> no hops."""
    if not value or value.strip().lower() == "none":
        return ()
    try:
        return tuple(JumpHop(parse_destination(part)) for part in value.split(",") if part.strip())
    except UsageError as bad:
        # "cannot parse host 'bastion:22:x'" alone did not say it came from the config's ProxyJump.
        raise UsageError(f"ProxyJump {value!r}: {bad.message}", hint=bad.hint) from None


def _split_files(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    try:
        words = argv_split(value)
    except ValueError as exc:  # an unclosed quote in `-o UserKnownHostsFile=...`
        raise UsageError(f"ssh config: {exc}") from None
    return tuple(os.path.expanduser(part) for part in words)


_TIME_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def _seconds(value: str | None, key: str, default: float) -> float:
    """A time value as ssh(1) reads ConnectTimeout and ServerAliveInterval: seconds, or
    `1m30s`-style sums of s/m/h/d/w units (sshd_config(5), TIME FORMATS; openssh-portable:
    misc.c, convtime); `none` (ConnectTimeout) leaves our default. A plain `90` still works;
    `1m` was refused as "not a number" and the whole run stopped."""
    if value is None or value.strip().lower() == "none":
        return default
    text = value.strip()
    if re.fullmatch(r"\d+\.\d+", text):  # fractions of a second: not ssh(1)'s, accepted as before
        return float(text)
    parts = re.findall(r"(\d+)([sSmMhHdDwW]?)", text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        raise UsageError(f"ssh config: {key} {value!r} is not a time (write seconds, or e.g. 1m30s)")
    return float(sum(int(number) * _TIME_UNITS[unit.lower()] for number, unit in parts))


def _port(value: str | None) -> int:
    """Port as ssh(1) takes it: a whole number 1-65535 (openssh-portable: misc.c, a2port; readconf.c
    says "Bad port"). `Port 70000` was "connection refused by HOST:70000", `Port -1` "cannot
    resolve host name", and `Port 22.7` quietly port 22."""
    if value is None:
        return DEFAULT_PORT
    text = str(value).strip()
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise UsageError(f"ssh config: Port {value!r} is not a number from 1 to 65535")
    return int(text)


def _number(value: str | None, key: str, default: float) -> float:
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise UsageError(f"ssh config: {key} {value!r} is not a number") from None
