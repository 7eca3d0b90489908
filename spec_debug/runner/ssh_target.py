"""What an SSH connection goes to: `user@host:port` as typed (Destination, ProxyJump hops) and
the SSHTarget that resolving it through ssh_config gives (ssh_config.resolve_target), with
OpenSSH's defaults (openssh-portable: ssh.c, ssh_config(5))."""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass, field

from spec_debug.errors import UsageError


DEFAULT_PORT = 22
DEFAULT_CONNECT_TIMEOUT_S = 15.0
BLOCKING_CONNECT_S = 127.0
"""ConnectTimeout 0: how long a blocking connect() waits on Linux, SYNs resent 6 times (the
default tcp_syn_retries, "about 127 seconds": Documentation/networking/ip-sysctl.rst)."""
# A ProxyCommand may first wait on its user: cloudflared, Teleport's tsh and `aws sso` open a
# browser to log in, `gcloud compute start-iap-tunnel` and `aws ssm start-session` take seconds
# to set up. ssh(1) without ConnectTimeout waits for the banner with no bound (openssh-portable:
# ssh.c passes timeout_ms 0 to ssh_login, and ssh_exchange_identification waits forever); our 15 s
# failed those hosts as "host stalled". Still bounded, so a hung proxy does not hold the run.
PROXY_COMMAND_HANDSHAKE_S = 120.0
DEFAULT_KEEPALIVE_S = 15.0
DEFAULT_KNOWN_HOSTS = "~/.ssh/known_hosts"
# RequiredRSASize's default (openssh-portable: ssh.h, SSH_RSA_MINIMUM_MODULUS_SIZE; ssh_config(5)).
DEFAULT_REQUIRED_RSA_SIZE = 1024
GLOBAL_KNOWN_HOSTS = "/etc/ssh/ssh_known_hosts"
# ssh_config(5), UserKnownHostsFile and GlobalKnownHostsFile: ssh(1) also reads these second
# files by default (new keys go to the first).
DEFAULT_KNOWN_HOSTS_FILES = (DEFAULT_KNOWN_HOSTS, "~/.ssh/known_hosts2")
GLOBAL_KNOWN_HOSTS_FILES = (GLOBAL_KNOWN_HOSTS, "/etc/ssh/ssh_known_hosts2")
# OpenSSH's default identities, in the order ssh(1) tries them (ssh_config(5): IdentityFile).
DEFAULT_IDENTITY_FILES = ("~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ed25519")


# strtonum(3) as a2port calls it: base 10 after optional white space and a sign, ASCII digits
# only (Python's int() also takes `2_2` and `２２`, which ssh(1) calls bad ports).
_STRTONUM = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")


def a2port(text: str) -> int | None:
    """A port as ssh(1) reads `-p`, `-o Port=` and `Port` (openssh-portable: misc.c, a2port):
    a number 0-65535 (strtonum), else a TCP service name (getservbyname); None where ssh(1) says
    "Bad port '...'" (its callers refuse 0 and below: ssh.c, main; readconf.c, oPort). `+22` and
    `022` are port 22 to it; `0`, `65536`, `22x` and `0x16` are bad."""
    if _STRTONUM.fullmatch(text):
        number = int(text)
        return number if 0 < number < 65536 else None
    try:
        return socket.getservbyname(text, "tcp") or None
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None


BAD_PORT_HINT = "ssh(1) refuses it too; write a number from 1 to 65535, or a TCP service name of /etc/services (ssh, https)"


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


def jump_text(hops: tuple[JumpHop, ...]) -> str:
    """ProxyJump entries as `ssh -J` takes them: `[user@]host[:port]`, comma-separated, an IPv6
    address in brackets."""
    return ",".join(_jump_entry_text(hop.destination) for hop in hops)


def _jump_entry_text(destination: Destination) -> str:
    host = f"[{destination.host}]" if ":" in destination.host else destination.host
    user = f"{destination.user}@" if destination.user else ""
    port = f":{destination.port}" if destination.port else ""
    return f"{user}{host}{port}"


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
    forward_agent: str | None = None
    """ForwardAgent: the agent socket the steps' sessions get (ssh_agent_forward), None for none."""
    proxy_command: str | None = None
    proxy_jump: tuple[JumpHop, ...] = ()
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S
    handshake_wait_s: float | None = None
    """How long the SSH handshake may take where it is not connect_timeout_s: through a ProxyCommand
    with no ConnectTimeout given (PROXY_COMMAND_HANDSHAKE_S)."""
    keepalive_s: float = DEFAULT_KEEPALIVE_S
    keepalive_count_max: int = 3
    known_hosts_files: tuple[str, ...] = (DEFAULT_KNOWN_HOSTS,)
    global_known_hosts_files: tuple[str, ...] = (GLOBAL_KNOWN_HOSTS,)
    host_key_alias: str | None = None
    strict_host_key_checking: str = "ask"
    """ssh_config value, normalized: yes | ask | accept-new | no (also written off/false). `ask` puts an unknown
    key to the terminal as ssh(1) does, and behaves as `yes` where no one can answer (--batch, no terminal)."""
    no_host_authentication_for_localhost: bool = False
    """NoHostAuthenticationForLocalhost yes: any host key of a loopback address connected to directly is taken."""
    verify_host_key_dns: bool = False
    """VerifyHostKeyDNS yes or ask: ssh(1) would also trust a key the host's SSHFP records vouch for; we do not look."""
    required_rsa_size: int = DEFAULT_REQUIRED_RSA_SIZE
    """RequiredRSASize: the fewest bits an RSA host key may have (ssh(1) 9.1+; RHEL's crypto policy sets 2048)."""
    revoked_host_keys: tuple[str, ...] = ()
    """RevokedHostKeys: files of host keys refused whatever known_hosts says (ssh_revoked_keys)."""
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
    request_tty: str | None = None
    """RequestTTY `force` or `yes` (lower case), where the config asks ssh(1) for a terminal on
    the host; None for no, auto or unset. Steps still run without one (request_tty_warning)."""
    config_file: str | None = None
    """The ssh config file read for the host where ssh(1) would read another by default (-F, an
    inventory's `-F` in ansible_ssh_common_args): the `ssh` commands hints name pass it (reach_args)."""
    control_path: str | None = None
    """ControlPath, expanded as ssh(1) expands it, where ssh(1) would use a master connection
    already open there (ControlMaster no, auto or autoask); None otherwise. Not used to connect:
    a login that fails here says that `ssh HOST` goes through that master (ssh_control_master)."""
    inventory_name: str | None = None
    """The name the user knows the host by when it differs from `alias` (an inventory host
    `lab01` whose ansible_host is 10.0.0.5): questions and host-key messages say both."""
    password: str | None = field(default=None, repr=False, compare=False)
    """The account's password, from an inventory (ansible_password): sent to this host only,
    never shown, never part of a message or a record (hence repr=False)."""
    password_source: str | None = None
    """Where the password is set, as messages name it (`ansible_password in hosts.yml`); set
    also when its value could not be read (vault-encrypted), which `password` None then says."""
    typed_password: str | None = field(default=None, repr=False, compare=False)
    """The password typed at the prompt for this run's earlier connection to the host: sent
    first on a new one (ssh_password_login), which asks again only if the host refuses it. In
    memory only, as `password`."""

    @property
    def address(self) -> str:
        """`host:port` as messages give it, an IPv6 address in brackets (`[2001:db8::5]:22`):
        bare, `connection refused by 2001:db8::5:22` read as another address with no port."""
        host = f"[{self.hostname}]" if ":" in self.hostname else self.hostname
        return f"{host}:{self.port}"

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
    uri = raw.startswith("ssh://")  # `SSH://ops@gpu01` is user SSH://ops to ssh(1) 9.2 (`ssh -G`)
    if uri:
        raw = _uri_authority(raw[len("ssh://") :], text)
        _refuse_uri_host(raw, text)
    user, at, address = raw.rpartition("@")
    if not uri and address.count(":") >= 2 and _is_ipv6_address(address) and (user or not at):
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
    user = match.group("user")
    host = match.group("ipv6") or match.group("host")
    if uri and user is not None:
        user = _uri_user(user, text)
    if uri and host.endswith("."):
        host = host[:-1]  # `ssh://gpu01.example.com.` is gpu01.example.com to ssh(1) (misc.c, valid_domain)
    return Destination(
        host=host,
        user=user,
        port=int(port) if port else None,
    )


def _uri_authority(rest: str, text: str) -> str:
    """`[user@]host[:port]` of an `ssh://` URI, as ssh(1) reads it (openssh-portable: misc.c,
    parse_uri): one `/` ends it (a path after it ssh refuses), and a `:` with no port after it is
    no port (the config's, else 22): `ssh -G 'ssh://ops@gpu01:'` says `port 22`. That URI was
    "cannot parse host" here, and `ssh://gpu01//` and `ssh://gpu01/srv` (a path, which ssh
    refuses) were read as gpu01 and as a host named `gpu01/srv`. `ssh://gpu01:/` is refused, as ssh(1) refuses it (a2port of the empty port is 0)."""
    if rest.endswith("/"):
        rest = rest[:-1]
        if rest.endswith(":"):
            raise UsageError(f"cannot parse host {text!r}: no port after ':' (ssh(1) refuses the URI too)",
                             hint="write ssh://USER@HOST:PORT/ or ssh://USER@HOST/")
    elif rest.endswith(":") and not rest.endswith("::"):
        rest = rest[:-1]
    if "/" in rest.rpartition("@")[2]:  # `ssh://gpu01/srv` or `ssh://gpu01//`: the host was `gpu01/srv`
        raise UsageError(f"cannot parse host {text!r}: a path after the host, which ssh(1) refuses in a destination",
                         hint="write ssh://USER@HOST:PORT, with no path")
    return rest


def _refuse_uri_host(authority: str, text: str) -> None:
    """Refuse the host of an `ssh://` URI (`authority`: its `[user@]host[:port]`) that ssh(1)
    refuses, as it reads it (openssh-portable: misc.c, parse_uri): the user ends at the first
    `@`, and the host, brackets taken off, must be a domain name (valid_domain: a letter or
    digit first, then letters, digits, `.`, `-`, `_`, no `..`). `ssh://a@b@gpu01` was the user
    `a@b` here, where `ssh` says its usage; `ssh://[::1]:22` connected here, where `ssh`
    refuses it (an IPv6 address is no domain name), and a hint or a copy of the host list
    that worked here failed there."""
    user, at, rest = authority.partition("@")
    if "@" in rest:
        raise UsageError(f"cannot parse host {text!r}: ssh(1) reads the URI's user up to its first '@' "
                         f"({user!r}) and refuses the host {rest.rpartition(':')[0] if rest.count(':') == 1 else rest!r}",
                         hint="in an ssh:// URI write an @ in the user as %40 (ssh://jdoe%40corp@gpu01); "
                              "or write USER@HOST without ssh://")
    host = rest if at else user
    if host.startswith("["):
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    if ":" in host:
        raise UsageError(f"cannot parse host {text!r}: ssh(1) takes no IPv6 address in an ssh:// URI",
                         hint="write USER@[IPV6]:PORT (or USER@IPV6), without ssh://")
    if not host:
        return  # no host: the generic "cannot parse host"
    bad = None
    if not host[0].isascii() or not host[0].isalnum():
        bad = "starts with an invalid character"
    elif ".." in host:
        bad = "has two dots in a row"
    elif any(not (c.isascii() and (c.isalnum() or c in ".-_")) for c in host):
        bad = "has characters a host name cannot have"
    if bad is not None:
        raise UsageError(f"cannot parse host {text!r}: the host {host!r} {bad} (ssh(1) refuses the URI too)",
                         hint="write ssh://USER@HOST:PORT with a host name of letters, digits, '.', '-' and '_'")


def _uri_user(user: str, text: str) -> str:
    """The user of an `ssh://` URI as ssh(1) reads it (openssh-portable: misc.c, parse_uri and
    urldecode; draft-ietf-secsh-scp-sftp-ssh-uri-04): connection parameters after `;` dropped,
    `%XX` decoded, `+` a space. `ssh://jdoe%40corp.example.com@gpu01` (a domain account, its
    `@` written as the URI form asks) logged in as `jdoe%40corp.example.com` and was refused,
    where `ssh` logs in as jdoe@corp.example.com; `ssh://ops;fingerprint=SHA256:...@gpu01` was
    refused as a password in the host."""
    user = user.partition(";")[0]
    decoded: list[str] = []
    at = 0
    while at < len(user):
        char = user[at]
        if char == "%":
            digits = user[at + 1:at + 3]
            if len(digits) != 2 or not all(c in "0123456789abcdefABCDEF" for c in digits) or digits == "00":
                raise UsageError(f"cannot parse host {text!r}: {user[at:at + 3]!r} is no %XX escape in the URI's user",
                                 hint="in an ssh:// URI write an @ in the user as %40 (ssh(1) refuses the URI too); "
                                      "or write USER@HOST without ssh://")
            decoded.append(chr(int(digits, 16)))
            at += 3
            continue
        decoded.append(" " if char == "+" else char)
        at += 1
    if not decoded:
        raise UsageError(f"cannot parse host {text!r}: the URI's user is empty", hint="write ssh://USER@HOST or ssh://HOST")
    return "".join(decoded)


def _no_empty_port(entry: str) -> str:
    """A jump hop `user@host:` without its colon: ssh(1) reads a hop's empty port as none, the
    hop's config Port or 22 (openssh-portable: misc.c, parse_user_host_port: a port is read only
    where text follows the `:`; `ssh -G -J ops@bastion: gpu01` says `proxyjump ops@bastion`).
    The hop was refused "cannot parse host" (and every host behind it with it). A bare IPv6
    address ending in `::` keeps its colons; an `ssh://` hop is read by parse_destination."""
    if entry.endswith(":") and not entry.endswith("::") and not entry.startswith("ssh://"):
        return entry[:-1]
    return entry


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


def address_as_ssh_writes_it(name: str, address_family: str = "any") -> str:
    """The HostName as ssh(1) goes on with it: a numeric address in the form getnameinfo gives
    it (`2001:0db8:0:0::0001` is 2001:db8::1, `127.1` is 127.0.0.1), a host name in lower case.

    ssh(1) canonicalizes every address, CanonicalizeHostname or not, and keeps the name as
    written only where the two differ in case alone (openssh-portable: ssh.c, main: is_addr,
    lowercase, resolve_canonicalize -> resolve_addr, AI_NUMERICHOST then NI_NUMERICHOST). It
    files and looks up the host key under that form: an IPv6 address written out in full or
    with leading zeros was looked up here as written, "not in known_hosts", where `ssh` finds
    the key it wrote itself; a key added here was filed under a name `ssh` never reads."""
    if not _looks_like_address(name):
        return name.lower()
    family = {"inet": socket.AF_INET, "inet6": socket.AF_INET6}.get(address_family.lower(), socket.AF_UNSPEC)
    try:
        found = socket.getaddrinfo(name, DEFAULT_PORT, family, socket.SOCK_STREAM, 0,
                                   socket.AI_NUMERICHOST | socket.AI_NUMERICSERV)
        if len(found) != 1:  # ssh(1) gives up on more than one (resolve_addr)
            return name
        written, _ = socket.getnameinfo(found[0][4], socket.NI_NUMERICHOST | socket.NI_NUMERICSERV)
    except (OSError, UnicodeError, ValueError):
        return name  # an address ssh(1) cannot parse (a bad scope): kept as written, not lowered
    return name if written.lower() == name.lower() else written


def _looks_like_address(name: str) -> bool:
    """ssh(1)'s is_addr (ssh.c): a `%` or `:` in it, digits and dots only, or what getaddrinfo
    reads as a numeric address (`0x7f000001`)."""
    if "%" in name or ":" in name or not name.strip("0123456789."):
        return True
    try:
        socket.getaddrinfo(name, DEFAULT_PORT, 0, socket.SOCK_STREAM, 0, socket.AI_NUMERICHOST | socket.AI_NUMERICSERV)
    except (OSError, UnicodeError, ValueError):
        return False
    return True


def parse_proxy_jump(value: str | None) -> tuple[JumpHop, ...]:
    """`ProxyJump a,user@b:2200` -> hops in connection order; `none` -> no hops."""
    words = (value or "").split()
    if not words or words[0].lower() == "none":
        return ()
    # ssh(1) reads the first word of the line alone and refuses an empty entry in it, and the
    # whole config with it (OpenSSH 9.2, `ssh -G`): `ProxyJump bastion, login` is 'Invalid
    # ProxyJump' ("bastion," ends in an empty entry) and ssh stops, `ProxyJump bastion login`
    # and `bastion ,login` jump through bastion alone (openssh-portable: readconf.c, oProxyJump,
    # parse_jump). We skipped the empty entry and trimmed the spaces, and so reached through
    # hops that ssh(1) never reaches, or refused the line ssh(1) reads.
    entries = words[0].split(",")
    if not all(entries):
        raise UsageError(
            f"ProxyJump {value!r}: an empty entry between commas, which ssh(1) refuses (Invalid ProxyJump)",
            hint="write the hops comma-separated with no spaces between them: ProxyJump bastion,login",
        )
    try:
        return tuple(JumpHop(parse_destination(_no_empty_port(entry))) for entry in entries)
    except UsageError as bad:
        # "cannot parse host 'bastion:22:x'" alone did not say it came from the config's ProxyJump.
        raise UsageError(f"ProxyJump {value!r}: {bad.message}", hint=bad.hint) from None
