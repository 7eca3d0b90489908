"""Host key verification against known_hosts, as OpenSSH's StrictHostKeyChecking does.

Default is `ask`, as in ssh(1): an unknown key is put to the person at the terminal (ssh's
question, answered yes, no or with the fingerprint); where no one can answer (--batch,
BatchMode, no terminal) it is refused as under `yes`. A changed key is always refused; a
refusal gives the SHA256 fingerprint (the form `ssh` prints and `ssh-keygen -lf` shows) and
how to accept it.
`accept-new` (our `--accept-new`) files an unknown key in the user's first known_hosts file
and still refuses a changed one (openssh-portable: sshconnect.c, check_host_key);
`StrictHostKeyChecking no` also files unknown keys, and lets a changed one through with a
warning, key logins only, as ssh(1) does.
Nothing is ever added silently: paramiko's AutoAddPolicy is not used.
"""

from __future__ import annotations

import base64
import errno
import fnmatch
import hmac
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path
from typing import Callable

import paramiko
from cryptography.hazmat.primitives import hashes
from paramiko.kex_gex import KexGexSHA256
from paramiko.kex_group14 import KexGroup14SHA256

from spec_debug.errors import HostKeyError, UsageError
from spec_debug.runner.ssh_key_files import passwd_home_elsewhere
from spec_debug.runner.ssh_target import DEFAULT_KNOWN_HOSTS_FILES

# Several host threads may accept new keys at once; appends must not interleave.
_KNOWN_HOSTS_WRITE_LOCK = threading.Lock()


@dataclass(frozen=True)
class KnownHostsEntry:
    """One usable line of a known_hosts file."""

    patterns: str
    """The host field: comma-separated names or patterns (`*`, `?`, `!negation`) or one `|1|` hash."""
    key: paramiko.PKey
    marker: str | None = None
    """`@revoked`, `@cert-authority`, or None for a plain host key."""
    source: str = ""
    """Where the line is: a known_hosts file's path, or "KnownHostsCommand"."""
    line: int = 0
    """Its line number in `source` (1-based)."""


@dataclass(frozen=True)
class KnownHosts:
    """The known_hosts files consulted for one connection (user files first)."""

    user_files: tuple[str, ...]
    global_files: tuple[str, ...] = ()
    from_command: tuple[KnownHostsEntry, ...] = ()
    """Lines a KnownHostsCommand printed, read after the files as ssh(1) reads them."""

    @property
    def write_file(self) -> Path:
        return Path(os.path.expanduser(self.user_files[0]))

    def entries_for(self, name: str) -> list[KnownHostsEntry]:
        entries: list[KnownHostsEntry] = []
        for file in (*self.user_files, *self.global_files):
            entries += [e for e in read_known_hosts(Path(os.path.expanduser(file))) if host_matches(e.patterns, name)]
        return entries + [e for e in self.from_command if host_matches(e.patterns, name)]

    def keys_for(self, name: str) -> dict[str, list[paramiko.PKey]]:
        """Known keys for `name` by key type, from every file (hashed entries included)."""
        found: dict[str, list[paramiko.PKey]] = {}
        for entry in self.entries_for(name):
            if entry.marker is None:
                found.setdefault(entry.key.get_name(), []).append(entry.key)
        return found

    def revoked_for(self, name: str) -> list[paramiko.PKey]:
        return [entry.key for entry in self.entries_for(name) if entry.marker == "@revoked"]

    def authorities_for(self, name: str) -> list[paramiko.PKey]:
        """Host CAs (`@cert-authority`) trusted for `name`: ssh(1) accepts any host certificate
        they signed for the host (see verify_host_key)."""
        return [entry.key for entry in self.entries_for(name) if entry.marker == "@cert-authority"]


def read_known_hosts(path: Path) -> list[KnownHostsEntry]:
    """The lines of a known_hosts file we can use, the rest skipped one by one, as sshd(8)'s
    "SSH_KNOWN_HOSTS FILE FORMAT" reader does (openssh-portable: hostfile.c).

    paramiko's HostKeys.load gives up on the whole file at the first line it cannot read (an
    `@cert-authority` or `@revoked` marker, which many fleets ship in
    /etc/ssh/ssh_known_hosts, or a key type it does not know), and matches host names only
    literally; here a bad line costs only itself, and patterns match as in OpenSSH.
    `@cert-authority` lines name the host CAs whose certificates are accepted (verify_host_key).
    """
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []  # missing or unreadable: like OpenSSH, a file that holds no keys
    return parse_known_hosts(text, source=str(path))


def parse_known_hosts(text: str, source: str = "") -> list[KnownHostsEntry]:
    """The usable lines of known_hosts text (a file, or a KnownHostsCommand's output)."""
    entries: list[KnownHostsEntry] = []
    # Lines end at "\n" alone, as getline() ends them: splitlines() also ends one at \x0b, \x0c,
    # \x1c-\x1e, \x85 or \u2028, and what followed a NUL (`KEY\0\x0cgpu02 ssh-ed25519 KEY2`)
    # became a line of its own, a key ssh(1) never reads; the line numbers moved on too.
    for number, raw in enumerate(text.split("\n"), start=1):
        # ssh(1) reads each line as a C string, which ends at its first NUL (openssh-portable:
        # hostfile.c, hostkeys_foreach_file): `HOST KEYTYPE KEY\0junk` is the host's key there
        # (a connection with StrictHostKeyChecking yes goes through), and here its key field
        # was "KEY\0junk", not base64: the line was skipped and the host's key "not in known_hosts".
        fields = raw.split("\x00", 1)[0].split()
        if not fields or fields[0].startswith("#"):
            continue
        marker = None
        if fields[0].startswith("@"):
            marker, fields = fields[0].lower(), fields[1:]
            if marker not in ("@revoked", "@cert-authority"):
                continue
        if len(fields) < 3:
            continue
        try:
            key = paramiko.PKey.from_type_string(fields[1], base64.b64decode(fields[2], validate=True))
        except Exception:  # noqa: BLE001 - unknown key types and bad base64 raise assorted errors
            continue
        entries.append(KnownHostsEntry(fields[0], key, marker, source, number))
    return entries


# A KnownHostsCommand still running after this long fails the connection instead of hanging
# it (ssh(1) waits without limit; a fleet run must not).
_KNOWN_HOSTS_COMMAND_TIMEOUT_S = 30.0
_TOKEN = re.compile(r"%(.)")


def known_hosts_from_command(command: str, *, alias: str, tokens: dict[str, str]) -> tuple[KnownHostsEntry, ...]:
    """The host key lines KnownHostsCommand prints (ssh_config(5), KnownHostsCommand, OpenSSH 8.5+).

    As ssh(1) runs it (openssh-portable: sshconnect.c, load_hostkeys_command): the line is split
    into words first (quotes kept together, misc.c argv_split), `%` tokens are expanded in the
    arguments only, and the program runs without a shell, by absolute path, stdin on /dev/null.
    ssh(1) ends the connection when the command fails (exit status not 0), so this raises
    HostKeyError then. ssh_handshake asks it twice, as ssh(1) does: `%I` ORDER (to sort host key
    types) and HOSTNAME (to check the key); never ADDRESS, as CheckHostIP is not done (and off by
    default since OpenSSH 8.5).
    """
    try:
        argv = shlex.split(command, comments=False, posix=True)
    except ValueError as exc:
        raise UsageError(f"{alias}: ssh config: KnownHostsCommand {command!r}: {exc}") from None
    if not argv:
        return ()
    if not os.path.isabs(argv[0]):
        # ssh(1): "KnownHostsCommand-HOSTNAME path is not absolute" (misc.c, subprocess).
        raise UsageError(
            f"{alias}: ssh config: KnownHostsCommand {argv[0]!r} is not an absolute path",
            hint="ssh(1) refuses it too (\"path is not absolute\"): write the program's full path",
        )

    def expand(match: re.Match[str]) -> str:
        token = match.group(1)
        if token == "%":
            return "%"
        if token not in tokens:
            raise UsageError(
                f"{alias}: ssh config: KnownHostsCommand {command!r}: unknown token %{token}",
                hint="ssh_config(5), TOKENS: KnownHostsCommand takes %C %d %f %H %h %I %i %j %K %k %L %l %n %p %r %t %u",
            )
        return tokens[token]

    argv = [argv[0], *(_TOKEN.sub(expand, word) for word in argv[1:])]
    try:
        done = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=_KNOWN_HOSTS_COMMAND_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise HostKeyError(
            f"{alias}: KnownHostsCommand {argv[0]} did not finish within {_KNOWN_HOSTS_COMMAND_TIMEOUT_S:g} s",
            hint="run it by hand to see where it waits (a prompt, an unreachable key service)",
        ) from None
    except OSError as exc:
        raise HostKeyError(f"{alias}: KnownHostsCommand {argv[0]} cannot run: {exc.strerror or exc}",
                           hint="check the path and that the file is executable") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise HostKeyError(
            f"{alias}: KnownHostsCommand {argv[0]} failed (exit status {done.returncode}"
            + (f": {said[-1].strip()[:200]}" if said else "") + "); refusing to connect, as ssh(1) does",
            hint="run the command by hand (the ssh config's KnownHostsCommand line, tokens filled in)",
        )
    return tuple(parse_known_hosts(done.stdout.decode("utf-8", "replace"), source="KnownHostsCommand"))


def host_matches(patterns: str, name: str) -> bool:
    """Whether `name` (a host name, or `[host]:port`) matches a known_hosts host field.

    As OpenSSH's match_hostname (openssh-portable: match.c): case-insensitive, `*` and `?`
    wildcards, and a matching `!pattern` excludes the name whatever else matches. `|1|`
    entries are HMAC-SHA1 hashes of the name (HashKnownHosts).
    """
    if patterns.startswith("|1|"):
        return hmac.compare_digest(paramiko.HostKeys.hash_host(name, patterns), patterns)
    name = name.lower()
    matched = False
    for pattern in patterns.lower().split(","):
        negated = pattern.startswith("!")
        pattern = pattern[1:] if negated else pattern
        regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
        if re.fullmatch(regex, name):
            if negated:
                return False
            matched = True
    return matched


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


# RSA with SHA-1 signatures, the algorithm named `ssh-rsa`: the only RSA signature an sshd
# older than 7.2 knows (RFC 8332 brought rsa-sha2-*). OpenSSH 8.8 turned it off by default and
# uses it again where the config names it (`HostKeyAlgorithms +ssh-rsa`, `PubkeyAcceptedAlgorithms
# +ssh-rsa`: openssh.com/txt/release-8.8); paramiko 5 dropped it (RSAKey.HASHES has only SHA-2).
SHA1_RSA = "ssh-rsa"


class Sha1RSAKey(paramiko.RSAKey):
    """An RSA key that also signs and verifies `ssh-rsa` (SHA-1) signatures."""

    HASHES = {**paramiko.RSAKey.HASHES, SHA1_RSA: hashes.SHA1, f"{SHA1_RSA}-cert-v01@openssh.com": hashes.SHA1}  # noqa: RUF012 - paramiko's table, read only


def allow_sha1_rsa_host_keys(transport: paramiko.Transport) -> None:
    """Let this transport verify an `ssh-rsa` host key signature (its key types may then name it).

    paramiko builds the host key from the class its `_key_info` gives for the agreed type
    (paramiko/transport.py, _verify_key); the table is copied onto this one transport."""
    transport._key_info = {  # type: ignore[attr-defined]
        **transport._key_info,  # type: ignore[attr-defined]
        SHA1_RSA: Sha1RSAKey,
        f"{SHA1_RSA}-cert-v01@openssh.com": Sha1RSAKey,
    }


def allow_sha1_rsa_signing(key: paramiko.PKey) -> paramiko.PKey:
    """The key, able to sign `ssh-rsa` if it is an RSA key file (an agent key signs it when
    asked without a SHA-2 flag: paramiko/agent.py, ALGORITHM_FLAG_MAP)."""
    if isinstance(key, paramiko.RSAKey) and SHA1_RSA not in key.HASHES:
        key.HASHES = Sha1RSAKey.HASHES  # type: ignore[misc]  # read through self in sign_ssh_data
    return key


class _KexGroup14SHA1(KexGroup14SHA256):
    """diffie-hellman-group14-sha1: group14-sha256's 2048-bit group, hashed with SHA-1 (RFC 4253, 8.2)."""

    name = "diffie-hellman-group14-sha1"
    hash_algo = sha1


class _KexGroup1SHA1(_KexGroup14SHA1):
    """diffie-hellman-group1-sha1: the 1024-bit Oakley Group 2 (RFC 2409, 6.2; RFC 4253, 8.1)."""

    name = "diffie-hellman-group1-sha1"
    P = int(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
        "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
        "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF",
        16,
    )


class _KexGexSHA1(KexGexSHA256):
    """diffie-hellman-group-exchange-sha1: the server's group, hashed with SHA-1 (RFC 4419)."""

    name = "diffie-hellman-group-exchange-sha1"
    hash_algo = sha1


# Key exchanges with SHA-1 hashes, which paramiko 5 dropped and OpenSSH no longer offers by
# default (ssh_config(5), KexAlgorithms: the default list has none) but uses where the config
# names them (`KexAlgorithms +diffie-hellman-group14-sha1`), as owners of old appliances and
# sshd < 6.5 (no curve25519, no group14-sha256) write. paramiko picks the engine class by name
# (paramiko/transport.py, _parse_kex_init: self._kex_info[agreed_kex[0]]), and derives the
# session keys with the engine's hash_algo (_compute_key).
SHA1_KEX: dict[str, type] = {engine.name: engine for engine in (_KexGroup14SHA1, _KexGexSHA1, _KexGroup1SHA1)}


def allow_sha1_kex(transport: paramiko.Transport) -> None:
    """Let this transport agree on the SHA-1 key exchanges (its kex list may then name them);
    the table is copied onto this one transport."""
    transport._kex_info = {**transport._kex_info, **SHA1_KEX}  # type: ignore[attr-defined]


def configured_key_types(
    spec: str, offered: list[str], named_only: tuple[str, ...] = (), keyword: str = "HostKeyAlgorithms"
) -> list[str]:
    """The algorithms to offer for an ssh_config algorithm list `spec` (HostKeyAlgorithms,
    PubkeyAcceptedAlgorithms, KexAlgorithms, Ciphers, MACs: `keyword` names it).

    As ssh(1) reads it (ssh_config(5), HostKeyAlgorithms; openssh-portable: kex.c,
    kex_assemble_names): a comma-separated list of names or `*`/`?` patterns; `+list` appends
    to the default set, `-list` removes from it, `^list` puts in front of it, else the list
    replaces it, in its own order (ssh(1) then does not reorder by known_hosts). Names
    paramiko cannot verify (ssh-dss) are left out; `offered` is the default set, in order;
    `named_only` are the names used only where the list names them (ssh-rsa, off by default
    since OpenSSH 8.8; certificate types). Raises ValueError when nothing is left.
    """
    text = spec.strip()
    prefix = text[:1] if text[:1] in "+-^" else ""
    patterns = [part.strip() for part in text[len(prefix):].split(",") if part.strip()]

    if prefix == "-":
        chosen = [name for name in offered if not any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)]
    else:
        # A listed pattern takes its places in the list's order, so `^a,b` offers a then b.
        known = [*offered, *named_only]
        listed = list(dict.fromkeys(name for pattern in patterns for name in known if fnmatch.fnmatchcase(name, pattern)))
        chosen = {"+": offered + listed, "^": listed + offered, "": listed}[prefix]
    chosen = list(dict.fromkeys(chosen))
    if not chosen:
        what = "host key algorithm spec-debug can verify" if keyword == "HostKeyAlgorithms" else "algorithm spec-debug can use"
        raise ValueError(f"{keyword} {spec!r} leaves no {what} ({', '.join(offered)})")
    return chosen


# OpenSSH certificates (PROTOCOL.certkeys in openssh-portable): after the type name and a
# nonce come the public key's own fields, as many as its type has; RSA keys of every
# signature algorithm are certified as `ssh-rsa-cert-v01@openssh.com`.
_CERTIFIED_KEY_FIELDS = {
    "ssh-ed25519": 1,
    "ecdsa-sha2-nistp256": 2,
    "ecdsa-sha2-nistp384": 2,
    "ecdsa-sha2-nistp521": 2,
    "ssh-rsa": 2,
}
_HOST_CERTIFICATE = 2  # SSH2_CERT_TYPE_HOST
_FOREVER = 2**64 - 1


@dataclass(frozen=True)
class HostCertificate:
    """The fields of an OpenSSH certificate that decide whether a host may use it."""

    key_id: str
    cert_type: int
    principals: tuple[str, ...]
    valid_after: int
    valid_before: int
    critical_options: bytes
    signature_key: bytes
    signature: bytes
    signed: bytes
    """The certificate up to its signature: what the CA signed."""
    serial: int = 0
    """The serial the CA gave it (0 when told none): what a key revocation list revokes it by."""


def host_certificate_of(key: paramiko.PKey) -> HostCertificate | None:
    """The certificate the server proved, when it proved one (paramiko keeps it as the key's
    public_blob), or None for a plain host key. Raises ValueError for one that is malformed."""
    blob = getattr(key, "public_blob", None)
    if blob is None or not blob.key_type.endswith("-cert-v01@openssh.com"):
        return None
    return parse_certificate(blob.key_blob)


def parse_certificate(blob: bytes) -> HostCertificate:
    """Read an OpenSSH certificate; ValueError when it is cut short, too long or of an unknown type."""
    reader = _WireReader(blob)
    cert_type_name = reader.string().decode("ascii", "replace")
    base = cert_type_name.removesuffix("-cert-v01@openssh.com")
    if base not in _CERTIFIED_KEY_FIELDS:
        raise ValueError(f"unknown certificate type {cert_type_name!r}")
    reader.string()  # nonce
    for _ in range(_CERTIFIED_KEY_FIELDS[base]):
        reader.string()
    serial = reader.uint(8)
    cert_type = reader.uint(4)
    key_id = reader.string().decode("utf-8", "replace")
    principals_field = _WireReader(reader.string())
    valid_after, valid_before = reader.uint(8), reader.uint(8)
    critical = reader.string()
    reader.string()  # extensions
    reader.string()  # reserved
    signature_key = reader.string()
    signed_length = reader.at
    signature = reader.string()
    if reader.at != len(blob):
        raise ValueError("bytes after the signature")
    principals: list[str] = []
    while principals_field.at < len(principals_field.data):
        principals.append(principals_field.string().decode("utf-8", "replace"))
    return HostCertificate(
        key_id=key_id, cert_type=cert_type, principals=tuple(principals), valid_after=valid_after,
        valid_before=valid_before, critical_options=critical, signature_key=signature_key,
        signature=signature, signed=blob[:signed_length], serial=serial,
    )


class _WireReader:
    """RFC 4251 section 5 fields, refusing to read past the end (paramiko's Message pads a
    short read with zeros, so a truncated certificate would parse)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise ValueError("certificate cut short")
        self.at += size
        return self.data[self.at - size:self.at]

    def uint(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")

    def string(self) -> bytes:
        return self.take(self.uint(4))


def _certificate_problem(
    certificate: HostCertificate, known_hosts: KnownHosts, known_hosts_name: str, portless_name: str | None,
    certificate_name: str | None,
) -> str | None:
    """Why ssh(1) would refuse this host certificate, or None when it accepts it
    (openssh-portable: sshconnect.c, check_host_cert; sshkey.c, sshkey_cert_check_authority)."""
    authorities = known_hosts.authorities_for(known_hosts_name)
    if not authorities and portless_name is not None:
        authorities = known_hosts.authorities_for(portless_name)
    signer = next((ca for ca in authorities if ca.asbytes() == certificate.signature_key), None)
    if signer is None:
        return ("no @cert-authority line in known_hosts trusts its signer for this host" if authorities
                else "known_hosts has no @cert-authority line for this host")
    if not signer.verify_ssh_sig(certificate.signed, paramiko.Message(certificate.signature)):
        # Also an RSA CA that signed with SHA-1 (ssh-rsa), refused by OpenSSH 8.2+ (CASignatureAlgorithms).
        return f"its signature by the CA {describe_key(signer)} does not verify (or uses SHA-1, ssh-rsa)"
    if certificate.cert_type != _HOST_CERTIFICATE:
        return "it is a user certificate, not a host certificate"
    now = int(time.time())
    if now < certificate.valid_after:
        return f"it is not valid before {_utc(certificate.valid_after)}"
    if certificate.valid_before != _FOREVER and now >= certificate.valid_before:
        return f"it expired at {_utc(certificate.valid_before)}"
    name = certificate_name or known_hosts_name
    if certificate.principals and name not in certificate.principals:
        return f"it is for {', '.join(certificate.principals)}, not for {name}"
    if certificate.critical_options:
        return "it has critical options, which host certificates may not have"
    return None


def _utc(seconds: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(min(seconds, 2**37)))


def verify_host_key(
    *,
    alias: str,
    known_hosts_name: str,
    server_key: paramiko.PKey,
    known_hosts: KnownHosts,
    accept_new: bool,
    hash_new: bool = False,
    allow_changed: bool = False,
    portless_name: str | None = None,
    ask: Callable[[str], str | None] | None = None,
    certificate_name: str | None = None,
    other_names: tuple[str, ...] = (),
    ssh_args: str | None = None,
    config_host: str | None = None,
    host_key_alias: str | None = None,
    verify_host_key_dns: bool = False,
) -> str | None:
    """Return if the key is known (or newly accepted); raise HostKeyError otherwise.

    `ssh_args` are the arguments of an `ssh` that reaches the host and files its key under
    `known_hosts_name`, for the refusal's hint (default: the host and port of known_hosts_name,
    right only for a host reached directly, filed in ~/.ssh/known_hosts, with no HostKeyAlias).

    `other_names` (the alias the user gave, the address connected to) are names ssh(1) does
    not look the key up under either; an unknown key filed under one of them is named in the
    refusal, so "not in known_hosts" does not send the user hunting a key that is right there.
    `config_host` is the name ssh config blocks match for the host, which the hint to set a
    HostKeyAlias names: an inventory host's is its address (ansible_host), as for Ansible's ssh(1),
    not its inventory name, so "for this host" read as `Host lab01` was a block never applied.
    `host_key_alias` is the HostKeyAlias the host already has (known_hosts_name is then it), which
    that hint says to change rather than to set.

    A host certificate (the server proved a `*-cert-v01@openssh.com` key) is accepted when a
    host CA known_hosts trusts for the host (`@cert-authority`) signed it for `certificate_name`
    (the host name or HostKeyAlias, without port), as ssh(1) accepts it; else the plain key
    inside it is checked as any other.

    `hash_new` (ssh_config HashKnownHosts yes) files an accepted key under the hash of the
    name, as ssh(1) then does, so known_hosts does not list the fleet's host names in clear.
    `allow_changed` (StrictHostKeyChecking no/off) connects despite a changed key or one marked
    `@revoked`, as ssh(1) does, and returns the warning to show; ssh(1) then disables password and
    keyboard-interactive logins, so only a key can log in (openssh-portable: sshconnect.c,
    check_host_key, HOST_CHANGED: only SSH_STRICT_HOSTKEY_OFF goes on). The changed key is
    not filed: known_hosts keeps the old one, as ssh(1) leaves it.
    `portless_name` (SSHTarget.known_hosts_portless_name): when nothing is filed under
    `[host]:port`, the same key filed under the bare host name is trusted, as ssh(1) trusts it.
    `ask` (StrictHostKeyChecking ask, someone at a terminal): puts ssh(1)'s question about an
    unknown key and returns the answer, or None when no one answers; see _confirmed.
    `verify_host_key_dns` (VerifyHostKeyDNS yes or ask): ssh(1) may trust an unknown key from
    the host's SSHFP records in DNS (openssh-portable: sshconnect.c, verify_host_key); we do not
    look them up, and the refusal says so rather than leave the difference to be guessed.
    """
    try:
        certificate = host_certificate_of(server_key)
    except ValueError as exc:
        raise HostKeyError(f"{alias}: {known_hosts_name} sent a malformed host certificate ({exc})") from None
    revoked = _revoked(known_hosts.revoked_for(known_hosts_name), server_key, certificate, known_hosts_name)
    if revoked is not None:
        if allow_changed:
            # ssh(1) goes on here too, with key logins only (sshconnect.c, check_host_key,
            # HOST_REVOKED: any setting but SSH_STRICT_HOSTKEY_OFF fails, off goes to continue_unsafe).
            return (
                f"{alias}: WARNING: REVOKED HOST KEY: {revoked} is marked @revoked in known_hosts; "
                "connecting anyway because of StrictHostKeyChecking no (only key logins, and no agent forwarding, as "
                "ssh(1) does): a stolen key may be impersonating the host"
            )
        raise HostKeyError(
            f"{alias}: {revoked} is marked @revoked in known_hosts; refusing to connect",
            hint="the key was revoked on purpose: ask the host's owner; do not remove the @revoked line to get in",
        )
    if certificate is not None:
        problem = _certificate_problem(certificate, known_hosts, known_hosts_name, portless_name, certificate_name)
        if problem is None:
            return None
        # ssh(1) then checks the plain key (openssh-portable: sshconnect.c, check_host_key,
        # "cert->key downgrade"); a host known by its own key gets in, else the reason is said.
        known_plain = known_hosts.keys_for(known_hosts_name).get(server_key.get_name(), [])
        if not any(key == server_key for key in known_plain):
            raise HostKeyError(
                f"{alias}: the host certificate of {known_hosts_name} ({describe_key(server_key)}, id "
                f"{certificate.key_id!r}) is not accepted: {problem}",
                hint="ask the host's owner to re-sign the host key (ssh-keygen -s CA -h -n NAME), or fix the "
                "@cert-authority line in known_hosts",
            )
    known = known_hosts.keys_for(known_hosts_name)
    if not known and portless_name is not None and _known_under(known_hosts, portless_name, server_key):
        return None
    if not known:
        changed = _changed_in_passwd_home(known_hosts, known_hosts_name, server_key)
        if changed is not None:
            path, entry, home = changed
            raise HostKeyError(
                f"{alias}: host key for {known_hosts_name} is not in known_hosts (server offered {describe_key(server_key)}), "
                f"but {path}:{entry.line}, under this account's home in the passwd database, which ssh(1) reads, files "
                f"another key for it ({describe_key(entry.key)}): ssh(1) refuses the host as HOST KEY CHANGED; refusing "
                "to connect (possible man-in-the-middle)" + (", --accept-new or not" if accept_new else ""),
                hint=(f"check the fingerprint with the host's owner; if the host was reinstalled, remove the old key with "
                      f"`ssh-keygen -R '{known_hosts_name}' -f {path}` and rerun with --accept-new (spec-debug reads "
                      f"~/.ssh/known_hosts under $HOME ({home}), ssh(1) the passwd home's)"),
            )
        if accept_new or (ask is not None and not known_hosts.authorities_for(known_hosts_name)
                          and _confirmed(alias, known_hosts_name, server_key, ask)):
            unwritten = _append_known_host(known_hosts.write_file, known_hosts_name, server_key, hashed=hash_new)
            if unwritten is not None:
                # ssh(1) says "Failed to add the host to the list of known hosts" and goes on
                # (openssh-portable: sshconnect.c, check_host_key); silent, every later run
                # trusted the host afresh and nobody learnt why it was never filed.
                print(_unfiled_key_warning(alias, known_hosts_name, known_hosts.write_file, unwritten), file=sys.stderr, flush=True)
            return None
        if known_hosts.authorities_for(known_hosts_name):
            # We ask for a certificate first where a host CA is trusted (see preferred_key_types):
            # this host has none, so "not in known_hosts" alone would send the user looking
            # for a fault in the CA line.
            raise HostKeyError(
                f"{alias}: known_hosts trusts {known_hosts_name} through an @cert-authority line, but the host "
                f"presented no host certificate, and its own key ({describe_key(server_key)}) is not in known_hosts",
                # `ssh-keyscan HOST` was named: it prints the key under the name it scanned, not
                # under a HostKeyAlias (and cannot resolve the alias itself), follows no ProxyJump,
                # and files nothing. The ssh that reaches the host as the run does asks to file
                # the plain key, as it does for any unknown key when the host offers no
                # certificate (openssh-portable: sshconnect.c, check_host_key, HOST_NEW).
                hint=(
                    "check that fingerprint with the host's owner, then rerun with --accept-new to add the host's own key "
                    f"to {known_hosts.write_file} (or run `ssh {ssh_args or _ssh_args(known_hosts_name)}` once and answer yes); "
                    "or ask the owner to give sshd its HostCertificate"
                ),
            )
        elsewhere = _filed_under_other_name(known_hosts, server_key, other_names)
        if elsewhere is not None:
            raise HostKeyError(
                f"{alias}: host key for {known_hosts_name} is not in known_hosts, but the same key "
                f"({describe_key(server_key)}) is filed under {elsewhere.patterns!r} ({elsewhere.source}:{elsewhere.line}), "
                f"a name ssh(1) does not look {known_hosts_name} up under either",
                hint=(
                    f"rerun with --accept-new to file it under {known_hosts_name} too"
                    + (_host_key_alias_hint(elsewhere.patterns, host_key_alias, config_host)
                       if not elsewhere.patterns.startswith(("|", "[")) and "," not in elsewhere.patterns else "")
                ),
            )
        unchecked_dns = (" (spec-debug does not check the host's SSHFP records in DNS, as VerifyHostKeyDNS in your "
                         "ssh config has ssh(1) do: only known_hosts vouches for a key here)") if verify_host_key_dns else ""
        raise HostKeyError(
            f"{alias}: host key for {known_hosts_name} is not in known_hosts "
            f"(server offered {describe_key(server_key)}){unchecked_dns}",
            hint=_filed_in_passwd_home(known_hosts, known_hosts_name, server_key)
            or _unknown_key_hint(known_hosts.write_file, ssh_args or _ssh_args(known_hosts_name)),
        )
    same_type = known.get(server_key.get_name(), [])
    if any(key == server_key for key in same_type):
        return None
    old = same_type or [key for keys in known.values() for key in keys]
    if allow_changed:
        return (
            f"{alias}: WARNING: HOST KEY CHANGED for {known_hosts_name}: server offered {describe_key(server_key)}, "
            f"known_hosts has {describe_key(old[0])}; connecting anyway because of StrictHostKeyChecking no "
            "(only key logins, and no agent forwarding, as ssh(1) does)"
        )
    offending = next(entry for entry in known_hosts.entries_for(known_hosts_name) if entry.marker is None and entry.key == old[0])
    raise HostKeyError(
        f"{alias}: HOST KEY CHANGED for {known_hosts_name}: server offered "
        f"{describe_key(server_key)}, known_hosts has {describe_key(old[0])} "
        f"({_where_filed(offending)}); refusing to connect (possible man-in-the-middle)",
        hint=_changed_key_hint(offending, known_hosts, known_hosts_name),
    )


def _revoked(
    revoked: list[paramiko.PKey], server_key: paramiko.PKey, certificate: HostCertificate | None, name: str,
) -> str | None:
    """What of the server's key known_hosts marks @revoked: the key itself, or the CA that signed
    its certificate. Either makes the host revoked, with no fallback to a plain key filed beside
    (openssh-portable: hostfile.c, check_key_not_revoked; sshconnect.c, check_host_key, `fail:`)."""
    if any(key == server_key for key in revoked):
        return f"the host key of {name} ({describe_key(server_key)})"
    if certificate is not None and any(key.asbytes() == certificate.signature_key for key in revoked):
        signer = next(key for key in revoked if key.asbytes() == certificate.signature_key)
        return f"the CA ({describe_key(signer)}) that signed the host certificate of {name}"
    return None


def _host_key_alias_hint(filed_as: str, host_key_alias: str | None, config_host: str | None) -> str:
    """The HostKeyAlias that looks the key up where it is filed. Where the host already has one,
    that line must change: ssh(1) takes the first value it meets for a keyword (ssh_config(5)),
    so a `HostKeyAlias` added under another `Host` line, as was said, was never read."""
    if host_key_alias:
        return (f", or change its `HostKeyAlias {host_key_alias}` to `HostKeyAlias {filed_as}` where your ssh config "
                "(or inventory) sets it")
    return f", or set `HostKeyAlias {filed_as}` " + (f"under `Host {config_host}`" if config_host else "for this host") + " in your ssh config"


def _filed_in_passwd_home(known_hosts: KnownHosts, name: str, server_key: paramiko.PKey) -> str | None:
    """Where the passwd home's known_hosts files the key, when the default ~/.ssh/known_hosts
    was read under a $HOME that is not that home. ssh(1) expands `~` in UserKnownHostsFile's
    default with the passwd database's home (openssh-portable ssh.c, main: getpwuid; readconf.c,
    fill_default_options: _PATH_SSH_USER_HOSTFILE): a CI container that sets HOME (GitHub Actions:
    /github/home), whose `ssh-keyscan >> ~/.ssh/known_hosts` ran as root, filed the key there and
    `ssh` connects, while the refusal said only to rerun with --accept-new (trusting blind)."""
    found = _passwd_home_entries(known_hosts, name)
    if found is None:
        return None
    home, passwd_home, entries = found
    for path, entry in entries:
        if entry.key == server_key:
            return (f"the same key is filed in {path}:{entry.line}, under this account's home in the passwd database, "
                    f"which ssh(1) reads; spec-debug reads ~/.ssh/known_hosts under $HOME ({home}): set "
                    f"`UserKnownHostsFile {path}` for the host in your ssh config (or run with HOME={passwd_home})")
    return None


def _changed_in_passwd_home(
        known_hosts: KnownHosts, name: str, server_key: paramiko.PKey) -> tuple[Path, KnownHostsEntry, str] | None:
    """The passwd home's known_hosts line that files another key of the server key's type for
    name, where the default ~/.ssh/known_hosts was read under a $HOME that is not that home
    and nothing there files the key itself: ssh(1), which reads that file (see
    _filed_in_passwd_home), refuses the host as changed (openssh-portable sshconnect.c,
    check_host_key, HOST_CHANGED; StrictHostKeyChecking accept-new refuses it too), where
    spec-debug met a key it had never seen and said to trust it with --accept-new."""
    found = _passwd_home_entries(known_hosts, name)
    if found is None:
        return None
    home, _passwd_home, entries = found
    other: tuple[Path, KnownHostsEntry] | None = None
    for path, entry in entries:
        if entry.key == server_key:
            return None  # filed there: _filed_in_passwd_home names it
        if other is None and entry.key.get_name() == server_key.get_name():
            other = (path, entry)
    return (*other, home) if other is not None else None


def _passwd_home_entries(
        known_hosts: KnownHosts, name: str) -> tuple[str, str, list[tuple[Path, KnownHostsEntry]]] | None:
    """($HOME, the passwd database's home, the (file, line) entries its default known_hosts files
    hold for name, markers left out), where the default ~/.ssh/known_hosts was read under a $HOME
    that is not that home; None otherwise (the one reading both passwd-home checks above share)."""
    if known_hosts.user_files != DEFAULT_KNOWN_HOSTS_FILES:
        return None
    homes = passwd_home_elsewhere()
    if homes is None:
        return None
    home, passwd_home = homes
    entries = [(path, entry)
               for path in (Path(passwd_home, file.removeprefix("~/")) for file in DEFAULT_KNOWN_HOSTS_FILES)
               for entry in read_known_hosts(path)
               if entry.marker is None and host_matches(entry.patterns, name)]
    return home, passwd_home, entries


def _unknown_key_hint(write_file: Path, ssh_args: str) -> str:
    """How to get an unknown key filed. Where the file new keys go to keeps nothing
    (`UserKnownHostsFile /dev/null`, half of a lab config's pair whose other half,
    `StrictHostKeyChecking no`, is missing), "add it to /dev/null" and "run ssh once" left the
    next run meeting the key as new again, as ssh(1) does on every login."""
    check = "check the fingerprint with the host's owner, then "
    if write_file.is_char_device():
        return (f"{check}remove `UserKnownHostsFile {write_file}` for this host from your ssh config (or inventory) so "
                "its key is kept; the file keeps no key, so every run meets it as new: --accept-new (or "
                "`StrictHostKeyChecking accept-new` for the host) then trusts whatever key it is offered")
    return f"{check}rerun with --accept-new to add it to {write_file}, or run `ssh {ssh_args}` once"


def _filed_under_other_name(known_hosts: KnownHosts, server_key: paramiko.PKey, names: tuple[str, ...]) -> KnownHostsEntry | None:
    """The known_hosts line that files `server_key` under one of `names`, if any."""
    for name in names:
        for entry in known_hosts.entries_for(name):
            if entry.marker is None and entry.key == server_key:
                return entry
    return None


def _where_filed(entry: KnownHostsEntry) -> str:
    """`Offending key in FILE:LINE`, as ssh(1) names the line that holds the old key
    (openssh-portable: sshconnect.c, check_host_key, "Offending %s key in %s:%lu")."""
    if entry.source == "KnownHostsCommand":
        return f"offending key from KnownHostsCommand, line {entry.line} of its output"
    return f"offending key in {entry.source}:{entry.line}"


def _changed_key_hint(entry: KnownHostsEntry, known_hosts: KnownHosts, known_hosts_name: str) -> str:
    """How to drop the old key where it is filed. `ssh-keygen -R -f` on the user's file was
    said for every changed key: where the old key sat in a second UserKnownHostsFile or the
    system-wide /etc/ssh/ssh_known_hosts, running it removed nothing and the next run failed
    the same way."""
    reinstalled = "if the host was reinstalled (check the new fingerprint with its owner), "
    if entry.source == "KnownHostsCommand":
        return f"{reinstalled}the key service your KnownHostsCommand asks still lists the old key: have it updated"
    if entry.source in (os.path.expanduser(file) for file in known_hosts.global_files):
        return (f"{reinstalled}the old key is in the system-wide {entry.source} (line {entry.line}), which ssh(1) "
                f"trusts for every user: ask its admin to update it (as root: `ssh-keygen -R '{known_hosts_name}' -f {entry.source}`)")
    return f"{reinstalled}remove the old key with `ssh-keygen -R '{known_hosts_name}' -f {entry.source}` and rerun with --accept-new"


def _confirmed(alias: str, known_hosts_name: str, server_key: paramiko.PKey, ask: Callable[[str], str | None]) -> bool:
    """ssh(1)'s question about an unknown host key, as StrictHostKeyChecking ask (its default)
    puts it on a terminal: `yes` or the key's fingerprint accepts it, `no` or no answer refuses
    it, anything else asks again (openssh-portable: sshconnect.c, confirm). Without this a
    first run on a new host always stopped at "not in known_hosts", where `ssh` would ask."""
    question = (
        f"({alias}) The authenticity of host '{known_hosts_name}' can't be established. "
        f"{server_key.algorithm_name} key fingerprint is {server_key.fingerprint}. "
        "Are you sure you want to continue connecting (yes/no/[fingerprint])? "
    )
    for _ in range(3):
        answer = ask(question)
        if answer is None:
            return False
        answer = answer.strip()
        if answer.lower() == "yes" or answer == server_key.fingerprint:
            return True
        if answer.lower() == "no":
            return False
        question = f"({alias}) Please type 'yes', 'no' or the fingerprint: "
    return False


def _known_under(known_hosts: KnownHosts, name: str, server_key: paramiko.PKey) -> bool:
    """Whether `server_key` is filed under `name` and not revoked there."""
    if any(key == server_key for key in known_hosts.revoked_for(name)):
        return False
    return any(key == server_key for keys in known_hosts.keys_for(name).values() for key in keys)


def _unfiled_key_warning(alias: str, name: str, path: Path, error: OSError) -> str:
    return (
        f"{alias}: warning: could not add the host key of {name} to {path} ({error.strerror or error}); "
        f"it is trusted for this run only: make {path} writable, or set UserKnownHostsFile to a writable file"
    )


def _append_known_host(path: Path, name: str, key: paramiko.PKey, *, hashed: bool = False) -> OSError | None:
    """File the accepted key; if known_hosts cannot be written (a read-only home), the key is
    still accepted for this run, as ssh(1) does after "Failed to add the host to the list of
    known hosts" (openssh-portable: sshconnect.c); the error is returned for the caller to say.

    A file whose last line has no newline (written with `printf '%s' "$KNOWN_HOSTS"` from a CI
    secret, or by an editor) gets one first: glued onto that line, the new entry would break
    both, the old host's key included. A name another host thread filed with the same key
    while we checked (two aliases or two users of one machine) is not filed twice.
    """
    # A hashed name is `|1|base64(salt)|base64(HMAC-SHA1(salt, name))`, a fresh random salt
    # per entry (openssh-portable: hostfile.c, host_hash); paramiko's hash_host makes the same.
    field = paramiko.HostKeys.hash_host(name) if hashed else name
    line = f"{field} {key.get_name()} {key.get_base64()}\n".encode()
    with _KNOWN_HOSTS_WRITE_LOCK:
        try:
            if any(e.marker is None and e.key == key and host_matches(e.patterns, name) for e in read_known_hosts(path)):
                return None
            if path.parent.exists() and not path.parent.is_dir():
                # mkdir would say "File exists", which reads as if known_hosts were in the way.
                raise NotADirectoryError(errno.ENOTDIR, f"{path.parent} is not a directory", str(path.parent))
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with open(path, "a+b") as handle:
                size = handle.seek(0, os.SEEK_END)
                if size:
                    handle.seek(size - 1)
                    if handle.read(1) != b"\n":
                        line = b"\n" + line
                handle.write(line)  # one write, appended (O_APPEND), as ssh(1) appends
        except OSError as exc:
            return exc
    return None


def _ssh_args(known_hosts_name: str) -> str:
    if known_hosts_name.startswith("["):
        host, _, port = known_hosts_name[1:].rpartition("]:")
        return f"-p {port} {host}"
    return known_hosts_name
