"""From `--host`, `--hosts`, `--inventory` and `--limit` to the hosts of a run, and to transports.

`expand_host_pattern` follows the range syntax people already type: pdsh/ClusterShell
(`gpu[01-16]`, `gpu[1-3,7]`) and Ansible inventories (`gpu[01:16]`, `gpu[01:16:2]`, `[a:f]`);
a zero-padded start pads every number to its width, as both do.
"""

from __future__ import annotations

import copy
import difflib
import itertools
import re
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Literal

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import parse_destination
from spec_debug.runner.ssh_connect import ConnectOptions
from spec_debug.runner.ssh_target import BAD_PORT_HINT, a2port
from spec_debug.runner.transport import Transport
from spec_debug.session.shell import split_words, ssh_words

__all__ = ["ConnectOptions", "HostSpec", "expand_host_pattern", "open_transport", "resolve_hosts", "split_host_list", "ssh_destination"]

_MAX_EXPANSION = 100_000
_BRACKET = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class HostSpec:
    """One host of a run: how it is named in records, how to reach it, and its vars."""

    name: str
    address: str
    """What ssh resolves: an ssh_config alias or a host name / IP (ansible_host)."""
    port: int | None = None
    """None: from ssh config (or 22)."""
    user: str | None = None
    identity_file: str | None = None
    vars: dict[str, Any] = field(default_factory=dict)
    transport: Literal["local", "ssh"] = "ssh"
    ssh_options: dict[str, str] = field(default_factory=dict)
    """ssh_config keywords given on the host's ssh command line (an inventory's ansible_ssh_common_args)."""
    unsupported: str | None = None
    """Why the host cannot be reached at all (an inventory's ansible_connection: docker): it fails alone."""
    password: str | None = field(default=None, repr=False, compare=False)
    """The login password an inventory gives (ansible_password); never shown or recorded."""
    password_source: str | None = None
    """Where that password is set (`ansible_password in hosts.yml`), also when it is vault-encrypted (password None)."""
    inventory: str | None = None
    """The inventory the host is read from, which its login messages name beside the ssh config."""
    become: tuple[str, str, str] | None = None
    """Where the inventory sets ansible_become, and the user and method it asks for, which
    spec-debug does not do (steps run as the login user)."""
    warnings: tuple[str, ...] = field(default=(), compare=False)
    """What the host's record keeps of how it is reached (resolve_hosts: the become warning)."""
    var_sources: dict[str, str] = field(default_factory=dict, compare=False)
    """Where the inventory set each of `vars` (`hosts.ini:7`, `group_vars/gpus.yml`, else the
    inventory's path): what a `requires:` skip of a var the inventory left empty names."""


def ipv6_host(text: str) -> tuple[str, int | None] | None:
    """`[2001:db8::1]:2222` -> ("2001:db8::1", 2222), `fe80::1` -> ("fe80::1", None); None when
    `text` is not an IPv6 address, bracketed or bare.

    Ansible reads these forms in inventories (ansible/ansible: lib/ansible/parsing/utils/addresses.py,
    parse_address); its brackets are the ones ssh(1) takes, not a host range.
    """
    match = re.fullmatch(r"\[([^\[\]]+)\](?::(\d+))?|([0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%[\w.-]+)?)", text)
    if match is None:
        return None
    address = match.group(1) or match.group(3)
    try:
        socket.inet_pton(socket.AF_INET6, address.partition("%")[0])  # fe80::1%eth0: a scoped address
    except OSError:
        return None
    return address, int(match.group(2)) if match.group(2) else None


def expand_host_pattern(pattern: str) -> list[str]:
    """`gpu[01-03]` -> gpu01 gpu02 gpu03; several bracket groups give their product.

    An IPv6 destination (`[::1]:2222`, `bob@[fe80::1]`) is one host: its brackets are not a range.
    """
    if ipv6_host(pattern.rpartition("@")[2]) is not None:
        return [pattern]
    parts = _BRACKET.split(pattern)
    # split() alternates literal text and bracket contents: lit, br, lit, br, ..., lit
    choices: list[list[str]] = []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            if "[" in part or "]" in part:
                raise UsageError(f"unbalanced brackets in host pattern {pattern!r}")
            choices.append([part])
        else:
            choices.append(_expand_bracket(part, pattern))
    total = 1
    for options in choices:
        total *= len(options)
    if total > _MAX_EXPANSION:
        raise UsageError(f"host pattern {pattern!r} expands to {total} hosts (limit {_MAX_EXPANSION})")
    return ["".join(combo) for combo in itertools.product(*choices)]


def _expand_bracket(body: str, pattern: str) -> list[str]:
    values: list[str] = []
    for item in body.split(","):
        item = item.strip()
        if not item:
            raise UsageError(f"empty item in host pattern {pattern!r}")
        separator = ":" if ":" in item else "-" if "-" in item else None
        if separator is None:
            values.append(item)
            continue
        pieces = item.split(separator)
        if len(pieces) not in (2, 3) or not all(pieces[:2]):
            raise UsageError(f"bad range {item!r} in host pattern {pattern!r}", hint="write gpu[01-16] or gpu[1-3,7]")
        start, end = pieces[0], pieces[1]
        step = int(pieces[2]) if len(pieces) == 3 and pieces[2].isdigit() and int(pieces[2]) > 0 else 1
        if len(pieces) == 3 and step == 1 and pieces[2] != "1":
            raise UsageError(f"bad stride in {item!r} of host pattern {pattern!r}")
        if start.isdigit() and end.isdigit():
            width = len(start) if start.startswith("0") or len(start) == len(end) else 0
            low, high = int(start), int(end)
            if low > high:
                raise UsageError(f"range {item!r} runs backwards in host pattern {pattern!r}")
            if (high - low) // step + 1 > _MAX_EXPANSION:
                raise UsageError(f"host pattern {pattern!r} expands to too many hosts (limit {_MAX_EXPANSION})")
            values += [str(n).zfill(width) for n in range(low, high + 1, step)]
        elif len(start) == 1 and len(end) == 1 and start.isalpha() and end.isalpha() and start <= end:
            values += [chr(c) for c in range(ord(start), ord(end) + 1, step)]
        else:
            raise UsageError(f"bad range {item!r} in host pattern {pattern!r}", hint="ranges are numbers (01-16) or single letters (a-f)")
    return values


def split_host_list(text: str) -> list[str]:
    """Split `a,b[1-3,7],c` on the commas and white space outside brackets: `--host
    "$(scontrol show hostnames)"` (Slurm prints one name a line) and `--host "$HOSTS"` with
    HOSTS="gpu01 gpu02" name several hosts, as no host name holds a space."""
    items: list[str] = []
    depth = 0
    current = ""
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if (char == "," or char.isspace()) and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    return [item.strip() for item in items if item.strip()]


_HOST_SEPARATOR = re.compile(r"[,\s]")
_SPACE = re.compile(r"\s")
_COMMENT = re.compile(r"#[^\n]*")


def _host_list(value: str, flag: str = "--host") -> list[str]:
    """The hosts of one --host (or --hosts) value; a pasted ssh command line (`ssh -p 2222
    alice@gpu01`) is refused whole: split, its `-p` and `2222` were hosts (2222 is an IPv4
    address to inet_aton)."""
    # `--host "$(cat hostfile)"`: a hostfile's `# comment` lines (OpenMPI's and pdsh's -w ^FILE
    # take them) named hosts '#', 'GPU' and 'nodes'; no host name holds a '#'
    value = _COMMENT.sub("", value)
    names = split_host_list(value)
    if not _SPACE.search(value.strip()):
        return names
    option = next((n for n in names if n.startswith("-")), None)
    if option is not None or names[:1] == ["ssh"]:
        # Read as the shell hands it to ssh: split at commas too, `-J jump1,jump2 gpu01` named
        # jump2, and `-o "User bob"` kept its quotes (`bob"`).
        meant = _ssh_line_destination(split_words(value), f"{flag} {value!r}")
        raise UsageError(f"{flag} {value!r} is an ssh command line, not host names"
                         + (f" ({option!r} is an ssh option)" if option else ""),
                         hint=(f"write {flag} {meant} (USER@HOST:PORT, as alice@gpu01:2222)" if meant else
                               "write the host as USER@HOST:PORT (alice@gpu01:2222)")
                         + ", other options as a Host entry in ~/.ssh/config (or -F FILE); several hosts: --host gpu01,gpu02")
    # after the ssh line: `ssh -o Port=22 gpu01` was refused as an MPI hostfile ('Port=22')
    setting = next((name for name in names if "=" in name), None)
    if setting is not None:
        # OpenMPI's hostfile (`gpu01 slots=8`): the setting was a host named 'slots=8'
        raise UsageError(f"{flag}: {setting!r} is an MPI hostfile's setting, not a host",
                         hint=f"give the host names alone: {flag} \"$(awk '!/^#/ {{print $1}}' hostfile)\"")
    _refuse_pasted_port(value, names, flag)
    return names


def _refuse_pasted_port(value: str, names: list[str], flag: str) -> None:
    """`gpu01 2222` (a host and its port pasted from a note): 2222 is no host name, and as an
    IPv4 address to inet_aton it was 0.0.8.174, the run's second host (taken whole, before
    white space split hosts, it was "cannot parse host")."""
    port = next((name for name in names[1:] if name.isdigit()), None)
    if port is not None and "," not in value:
        host = names[names.index(port) - 1]
        if a2port(port) is None:  # `gpu01 0`, `gpu01 65536`: the hint named gpu01:0, which no ssh takes
            raise UsageError(f"{flag} {value!r}: Bad port {port!r}", hint=BAD_PORT_HINT)
        raise UsageError(f"{flag} {value!r}: {port!r} is a port, not a host",
                         hint=f"write {flag} {_with_port(host, port)} (HOST:PORT); several hosts: --host gpu01,gpu02")


def _named_hosts(value: str, flag: str, inventory: bool) -> list[str]:
    """_host_list, refusing a value that names no host (`--host ","`, `--host " "`, an unset
    `$HOSTS` inside commas): with an inventory it was taken for no --host at all, and the run
    went to every host there."""
    names = _host_list(value, flag)
    if not names:
        raise UsageError(f"{flag} {value!r} names no host",
                         hint=f"write {flag} gpu01 (several: {flag} gpu01,gpu02)"
                              + (f"; to run on every inventory host, leave {flag} out" if inventory else ""))
    return names


def _ssh_line_destination(words: list[str], where: str) -> str | None:
    """USER@HOST:PORT for the destination of a pasted ssh command line (`ssh -p 2222 -l alice
    gpu01` is alice@gpu01:2222), so the refusal names the form to write; None without one.
    The line is read by the transcript analyzer's reader (shell.ssh_words), which keeps ssh's
    rules: the first -p / -o Port wins, -l before `alice@` wins (`ssh -l bob alice@h` logs in as
    bob), -vp2222 is a port (openssh-portable: ssh.c, main: -p and -l set only while unset; `ssh -G` prints
    each). It was a copy that kept the last -p, skipped -o Port, and kept alice@. A port ssh(1)
    refuses ("Bad port '0'": openssh-portable: ssh.c, main; misc.c, a2port) is refused here with
    `where` (it was hinted as gpu01:0 or gpu01:65536, or dropped: -p abc), a service name given
    as its number (-p https: gpu01:443)."""
    said = ssh_words(words[1:] if words[:1] == ["ssh"] else words)
    port = said.port
    if said.port_word is not None and _read_as_ssh(words, said.dest):
        port = a2port(said.port_word)
        if port is None:
            raise UsageError(f"{where}: Bad port {said.port_word!r}", hint=BAD_PORT_HINT)
    if said.dest is None or said.dest.startswith("-"):  # `ssh -- -p gpu01`: ssh refuses the host "-p"
        return None
    dest, user = said.dest, said.user
    if dest.startswith("ssh://"):
        # The URI as ssh(1) reads it (parse_destination): its user %XX-decoded where no -l or -o
        # User came before it, an empty `:` no port. ssh_words keeps the user as typed, and the
        # hint said `--host jdoe%40corp@gpu01` (a login as `jdoe%40corp`) for
        # ssh://jdoe%40corp@gpu01, and `--host ops@gpu01:` (no host) for ssh://ops@gpu01:.
        try:
            uri = parse_destination(dest)
        except UsageError:
            return None  # ssh(1) refuses it too: the generic USER@HOST:PORT hint
        user = ssh_words([("ssh://placeholder" if word == dest else word) for word in words]).user or uri.user
        host = uri.host
    else:
        host = dest.rpartition("@")[2]
    if host.startswith("[") and host.endswith("]") and ":" in host:
        host = host[1:-1]  # _with_port brackets an IPv6 address again
    destination = f"{user}@{host}" if user else host
    return _with_port(destination, str(port)) if port is not None else destination


def _read_as_ssh(words: list[str], dest: str | None) -> bool:
    """Whether ssh(1) would read the line's port as ssh_words did: the line is `ssh ...` or
    starts with an option, and no word before the destination is a long option, which ssh
    refuses ("unknown option -- -"). A pasted engine or other command (`--port 30000`,
    `srun -p gpu ...`, `mkdir -p`, `--speculative-num-steps 3`) was said as "Bad port 'ort'",
    'gpu', '' or 'eculative-num-steps' (ssh_words reads `--port` as -p with `ort`), and
    `time -p ssh gpu1` hinted time:22 (the service `ssh`)."""
    args = words[1:] if words[:1] == ["ssh"] else words
    if not args or not (words[0] == "ssh" or words[0].startswith("-")):
        return False
    before = args[:args.index(dest)] if dest in args else args
    return not any(word.startswith("--") and word != "--" for word in before)


def _with_port(host: str, port: str) -> str:
    """HOST:PORT, an IPv6 address in brackets (its colons would read as the port)."""
    user, _, address = host.rpartition("@")
    return f"{user + '@' if user else ''}{ssh_destination(address)}:{port}"


def _adhoc_spec(name: str) -> HostSpec:
    if name == "local":
        return HostSpec(name="local", address="local", transport="local")
    destination = parse_destination(name)
    if destination.user and ":" in destination.user:
        # `root:PASS@gpu01` reads as a URL's user:password, but ssh(1) passes the user on whole
        # and sshd takes what follows ':' as an auth style (openssh-portable: auth2.c,
        # input_userauth_request), so the password is never used, while the host's name goes
        # into the console, run.json and the reports as typed.
        login, _, _ = destination.user.partition(":")
        masked = name.replace(destination.user, f"{login}:***", 1)
        raise UsageError(f"host {masked!r} has a password in it: ssh does not read one there, and "
                         "the host name is written to run.json and the reports",
                         hint=f"write {login}@{destination.host} and log in with a key or ssh-agent (or "
                              "ansible_password in an inventory, which is never recorded)")
    return HostSpec(name=name, address=destination.host, port=destination.port, user=destination.user)


def resolve_hosts(
    hosts: list[str],
    host_patterns: list[str],
    inventory: Path | None,
    limit: str | None,
    warn: Callable[[str], None] | None = None,
    ssh_config: Path | None = None,
) -> list[HostSpec]:
    """The run's hosts, in the order given, each once.

    `ssh_config` is the -F file connections will read (None: ~/.ssh/config and the system's),
    through which two names of one machine are told apart from two machines.

    `--host` and `--hosts` name the hosts; an inventory supplies their address and vars (and
    is the whole selection when no host is named). `--limit` then narrows the selection by
    host name, inventory group, glob or `!exclusion`.
    """
    from spec_debug.runner.inventory import load_inventory, select

    loaded = load_inventory(inventory) if inventory is not None else None
    for warning in loaded.warnings if loaded is not None and warn is not None else []:
        warn(warning)
    known = set(loaded.hosts) if loaded is not None else set()
    names: list[str] = []
    for host in hosts:
        # `--host gpu01,gpu02` (pdsh -w, Ansible's `-i a,b,`): no host name holds a comma, and
        # taken whole it was "cannot resolve host name 'gpu01,gpu02'".
        names += _named_hosts(host, "--host", loaded is not None) if _HOST_SEPARATOR.search(host) else [host]
    for pattern in host_patterns:
        for item in _named_hosts(pattern, "--hosts", loaded is not None):  # `--hosts 'gpu[01-02] -p 22'`: not hosts -p and 22
            names += expand_host_pattern(item)
    if not names and loaded is not None:
        names = list(loaded.hosts)
    names = list(dict.fromkeys(names))
    for name in names:
        if loaded is not None and name not in known and name in loaded.groups:
            # `ansible gpus -i hosts.ini` picks a group; `--host gpus` was taken for a host
            # named gpus, which failed as "cannot resolve host name 'gpus'".
            members = loaded.group_hosts(name) or []
            raise UsageError(f"--host {name!r} is a group of {inventory} ({len(members)} host(s)), not a host",
                             hint="leave --host out to run on every host of the inventory" if name == "all" else
                             f"pick a group's hosts with --limit {name} (and no --host)")
        if loaded is not None and name not in known and warn is not None and name != "local":
            # A host of no inventory runs as named (an ssh_config alias is one), so only a
            # near miss is said: `--host gpu1` for gpu01 went to DNS, which named no typo.
            close = _close_name(name, list(known))
            if close:
                warn(f"--host {name!r} is not a host of {inventory}{close}: it is reached as given, without the inventory's vars")
    names_before = names
    if limit is not None:  # `--limit ""` (an unset $HOSTS) is refused in select, not taken for no limit
        groups_of = loaded.groups_of if loaded is not None else (lambda _name: set())
        group_hosts = loaded.group_hosts if loaded is not None else (lambda _group: None)
        unmatched: list[str] = []
        selected = set(select(limit, names, groups_of, group_hosts, unmatched))
        if selected and warn is not None:
            for item in unmatched:
                warn(f"--limit {item!r} matches no host or group: ignored{_close_name(item, names)}")
        names = [name for name in names if name in selected]
    if not names:
        where = f" (limit {limit!r})" if limit is not None else ""
        raise UsageError(f"no hosts to run on{where}",
                         hint=_no_hosts_hint(limit, names_before) if limit is not None else
                         "check --host/--hosts/--inventory and --limit")
    # Built only for the selected hosts: a bad entry elsewhere in the inventory does not matter.
    specs = [loaded.spec(name) if loaded is not None and name in known else _adhoc_spec(name) for name in names]
    if warn is not None:
        _warn_twice_listed(specs, warn, ssh_config)
    specs, sharing = _become_warned(specs, ssh_config)
    for (become, login), names_set in sharing.items() if warn is not None else []:
        from spec_debug.runner.inventory import become_warning

        warn(become_warning(become, names_set, login))
    return specs


_BecomeGroups = dict[tuple[tuple[str, str, str], str | None], list[str]]
"""Host names by (HostSpec.become, the user they log in as)."""


def _become_warned(specs: list[HostSpec], ssh_config: Path | None) -> tuple[list[HostSpec], _BecomeGroups]:
    """The hosts whose inventory ansible_become spec-debug does not do, by (become, login user):
    each host's record gets its warning (the specs returned hold it in `warnings`). The login user is the inventory's, else
    the ssh config's (or the local user), as the connection will take it: a host that logs in as
    the become user already (`User root` in ~/.ssh/config under `ansible_become: true`) is not
    warned of, which said "steps run as the login user" of a login as root."""
    from spec_debug.runner.inventory import become_warning
    from spec_debug.runner.ssh_tokens import local_user

    config: Any = None
    sharing: _BecomeGroups = {}
    warned: list[HostSpec] = []
    for spec in specs:
        if spec.become is None:
            warned.append(spec)
            continue
        login = spec.user
        if login is None and spec.transport == "local":
            login = local_user()
        elif login is None:
            config = config if config is not None else _ssh_config_or_none(ssh_config) or False
            login = _login_user(spec, config) if config is not False else None
        if login == spec.become[1]:
            warned.append(replace(spec, become=None))
            continue
        warned.append(replace(spec, warnings=(*spec.warnings, become_warning(spec.become, [spec.name], login))))
        sharing.setdefault((spec.become, login), []).append(spec.name)
    return warned, sharing


def _login_user(spec: HostSpec, config: Any) -> str | None:
    """The user the ssh config logs `spec` in as (its User, else the local user); None where
    the name does not resolve (its connection says why)."""
    from spec_debug.runner.ssh_config import resolve_target

    options = {**spec.ssh_options, "canonicalizehostname": "no"}  # no DNS before the run (_machine)
    try:
        return resolve_target(ssh_destination(spec.address), config, port=spec.port, ssh_options=options).user
    except Exception:  # noqa: BLE001 - the connection says what is wrong with the name
        return None


def _warn_twice_listed(specs: list[HostSpec], warn: Callable[[str], None], ssh_config: Path | None = None) -> None:
    """A machine named twice (an inventory's `gpu01 ansible_host=10.0.0.1` and a line
    `10.0.0.1`, or --host gpu01 beside it) runs the playbook twice at the same time: two
    benchmarks on one GPU each measure half its throughput, with nothing said. Names are
    compared where the ssh config takes them (_machine): an alias `gpu01` whose HostName is
    10.0.0.5 beside `--host 10.0.0.5` is one machine, which as written went unsaid; one address
    behind two bastions stays two machines."""
    reached = [spec for spec in specs if spec.transport == "ssh" and spec.unsupported is None]
    if len(reached) < 2:
        return  # one host cannot be named twice: no config read, no lookup
    config = _ssh_config_or_none(ssh_config)
    same: dict[tuple[object, ...], list[str]] = {}
    shown_as: dict[tuple[object, ...], str] = {}
    for spec in reached:
        key, shown = _machine(spec, config)
        same.setdefault(key, []).append(spec.name)
        shown_as.setdefault(key, shown)
    for key, names in same.items():
        if len(names) > 1:
            shown = shown_as[key]
            warn(f"{', '.join(names[:-1])} and {names[-1]} are the same host ({shown}): the playbook runs on it "
                 f"{len(names)} times at once, and steps that measure (benchmarks) compete; leave all but one out (--limit)")


def _ssh_config_or_none(path: Path | None) -> Any:
    """The ssh config connections will read, or None where it cannot be read (the connections
    then say why; here names are compared as written)."""
    from spec_debug.runner.ssh_config import load_ssh_config

    try:
        return load_ssh_config(path)
    except (UsageError, OSError, ValueError):
        return None


def _machine(spec: HostSpec, config: Any) -> tuple[tuple[object, ...], str]:
    """(what identifies the machine the spec reaches, how to show it): the HostName and Port
    the ssh config gives the name, with the way there (ProxyJump, ProxyCommand); the name as
    written, with its port and ssh options, where it does not resolve."""
    written = (spec.address.lower(), spec.port, tuple(sorted(spec.ssh_options.items())))
    shown = spec.address if spec.port is None else f"{ssh_destination(spec.address)}:{spec.port}"
    if config is None:
        return written, shown
    from spec_debug.runner.ssh_config import resolve_target

    # CanonicalizeHostname off: its DNS lookups would run here, before the run starts and
    # its signals are handled (a silent DNS server held the CLI for minutes); the connection
    # canonicalizes as configured
    options = {**spec.ssh_options, "canonicalizehostname": "no"}
    try:
        target = resolve_target(ssh_destination(spec.address), config, port=spec.port, ssh_options=options)
    except Exception:  # noqa: BLE001 - a name that does not resolve fails at its connection, which says why
        return written, shown
    way = (target.proxy_command, tuple(repr(hop) for hop in target.proxy_jump))
    return (target.hostname.lower(), target.port, way), target.address


def _close_name(item: str, names: list[str]) -> str:
    """' (did you mean gpu09?)' for a limit item spelt like a host, in case too; else ''."""
    folded = {name.lower(): name for name in names}
    close = [folded[item.lower()]] if item.lower() in folded else difflib.get_close_matches(item, names, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _no_hosts_hint(limit: str, names: list[str]) -> str:
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    close = _close_name(limit.strip(), names)
    return (f"--limit picks among: {shown}{close}" if names else "check --host/--hosts/--inventory and --limit")


def ssh_destination(address: str) -> str:
    """An inventory address as a destination: a bare IPv6 address (ansible_host: fe80::1) gets
    the brackets that keep its colons from reading as a port."""
    if ":" in address and not address.startswith("[") and "@" not in address:
        return f"[{address}]"
    return address


def open_transport(spec: HostSpec, options: ConnectOptions) -> Transport:
    """Connect now (raising a TransportError subclass if the host cannot be reached)."""
    if spec.unsupported is not None:
        from spec_debug.runner.ssh_errors import HostUnreachableError

        raise HostUnreachableError(f"{spec.name}: {spec.unsupported}",
                                   hint="run spec-debug where it can ssh to the host, or leave it out with --limit")
    if spec.transport == "local":
        from spec_debug.runner.local import LocalTransport

        return LocalTransport(host=spec.name)
    from spec_debug.errors import AuthenticationError
    from spec_debug.runner.ssh import SSHTransport

    try:
        return SSHTransport.connect(
            ssh_destination(spec.address),
            options,
            name=spec.name,
            port=spec.port,
            user=spec.user,
            identity_file=spec.identity_file,
            ssh_options=spec.ssh_options,
            password=spec.password,
            password_source=spec.password_source,
        )
    except AuthenticationError as exc:
        raise _with_inventory_login_hint(exc, spec) from exc.__cause__


def _with_inventory_login_hint(exc: AuthenticationError, spec: HostSpec) -> AuthenticationError:
    """An inventory host's failed login names where its user and key come from: the hint sent
    people to their ssh config ("check User and IdentityFile in your ssh config", "log in as
    your own user (USER@HOST)") while ansible_user and the key file of the inventory (or
    ansible.cfg) were what set them. A jump host's own login is left alone (ssh config only).
    A copy: a jump failure may be one exception shared by many hosts."""
    # The master note before the login's own hint (ssh_control_master.with_master_note) says
    # where ControlMaster is set, also "in your ssh config": the inventory's names went into it,
    # "(ControlMaster and ControlPath in your ssh config, and ansible_user and ... in hosts.ini)",
    # and the login's own hint after it was left unnamed.
    from spec_debug.runner.ssh_control_master import MASTER_SET_IN

    noted, master_set_in, hint = (exc.hint or "").rpartition(MASTER_SET_IN)
    if spec.inventory is None or ": jump host " in exc.message or "in your ssh config" not in hint:
        return exc
    named = copy.copy(exc)
    named.hint = noted + master_set_in + hint.replace(
        "in your ssh config",
        f"in your ssh config, and ansible_user and ansible_ssh_private_key_file in {spec.inventory} "
        "(or remote_user and private_key_file in ansible.cfg)", 1,
    ).replace("log in as your own user (USER@HOST)", "log in as your own user (ansible_user)", 1)
    return named.with_traceback(exc.__traceback__)
