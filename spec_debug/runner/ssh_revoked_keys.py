"""Host keys ssh(1) refuses whatever known_hosts says: those RevokedHostKeys (ssh_config(5))
lists, in public keys or a Key Revocation List that `ssh-keygen -k` wrote, and RSA keys
shorter than RequiredRSASize.

ssh(1) checks the file before anything else about the host key (openssh-portable:
sshconnect.c, verify_host_key, sshkey_check_revoked), and refuses the host when the key is in
it, when the file cannot be read, and when it cannot be parsed ("Error checking host key ... in
revoked keys file"). A fleet that ships RevokedHostKeys in /etc/ssh/ssh_config (a leaked or
retired host key) had spec-debug log in to a host `ssh` refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field

import paramiko

from spec_debug.errors import HostKeyError
from spec_debug.runner.ssh_hostkeys import _WireReader, describe_key, host_certificate_of

# PROTOCOL.krl (openssh-portable): the header's magic and format version, and the section types.
_KRL_MAGIC = b"SSHKRL\n\0"
_KRL_FORMAT_VERSION = 1
_SECTION_CERTIFICATES, _SECTION_EXPLICIT_KEY, _SECTION_SHA1, _SECTION_SIGNATURE, _SECTION_SHA256 = 1, 2, 3, 4, 5
_CERT_SERIAL_LIST, _CERT_SERIAL_RANGE, _CERT_SERIAL_BITMAP, _CERT_KEY_ID = 0x20, 0x21, 0x22, 0x23


@dataclass
class _CertificateRevocations:
    """What a KRL revokes among the certificates one CA signed (an empty CA: any CA, key ids only)."""

    serials: set[int] = field(default_factory=set)
    serial_ranges: list[tuple[int, int]] = field(default_factory=list)
    key_ids: set[str] = field(default_factory=set)

    def revokes(self, serial: int, key_id: str) -> bool:
        # Serial 0 is what a CA gives when told none, and is never revoked by serial (krl.c, is_cert_revoked).
        by_serial = serial != 0 and (serial in self.serials or any(low <= serial <= high for low, high in self.serial_ranges))
        return by_serial or key_id in self.key_ids


@dataclass
class RevokedKeys:
    """A RevokedHostKeys file as ssh(1) reads it: plain public key blobs, their SHA-1 and
    SHA-256 digests (KRL only), and certificate revocations by CA."""

    blobs: set[bytes] = field(default_factory=set)
    sha1s: set[bytes] = field(default_factory=set)
    sha256s: set[bytes] = field(default_factory=set)
    certificates: dict[bytes, _CertificateRevocations] = field(default_factory=dict)

    def revokes_plain(self, blob: bytes) -> bool:
        return (blob in self.blobs or hashlib.sha1(blob).digest() in self.sha1s
                or hashlib.sha256(blob).digest() in self.sha256s)


def parse_revoked_keys(data: bytes) -> RevokedKeys:
    """A KRL when it starts with the KRL magic, else a list of public keys, one a line
    (openssh-portable: authfile.c, sshkey_check_revoked). ValueError names what ssh(1) cannot read."""
    if data.startswith(_KRL_MAGIC):
        return _parse_krl(data)
    return _parse_key_list(data)


def _parse_key_list(data: bytes) -> RevokedKeys:
    """Blank lines and `#` comments skipped, any other line a `TYPE BASE64 [comment]` key
    (authfile.c, sshkey_in_file with sshkey_read): a line that is not one fails the check."""
    revoked = RevokedKeys()
    for number, raw in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        line = raw.lstrip(" \t")
        if not line or line.startswith("#"):
            continue
        words = line.split()
        try:
            blob = base64.b64decode(words[1], validate=True) if len(words) > 1 else b""
        except binascii.Error:
            blob = b""
        if not blob or _WireReader(blob).string().decode("ascii", "replace") != words[0]:
            raise ValueError(f"line {number} is not a public key")
        revoked.blobs.add(blob)
    return revoked


def _parse_krl(data: bytes) -> RevokedKeys:
    """A binary KRL (PROTOCOL.krl; openssh-portable: krl.c, ssh_krl_from_blob)."""
    reader = _WireReader(data)
    reader.take(len(_KRL_MAGIC))
    if reader.uint(4) != _KRL_FORMAT_VERSION:
        raise ValueError("unsupported KRL format version")
    reader.take(8 * 3)  # KRL version, generation date, flags
    reader.string()  # reserved
    reader.string()  # comment
    revoked = RevokedKeys()
    while reader.at < len(data):
        section_type, section = reader.uint(1), _WireReader(reader.string())
        if section_type == _SECTION_CERTIFICATES:
            _parse_certificate_section(section, revoked)
        elif section_type in (_SECTION_EXPLICIT_KEY, _SECTION_SHA1, _SECTION_SHA256):
            into = {_SECTION_EXPLICIT_KEY: revoked.blobs, _SECTION_SHA1: revoked.sha1s, _SECTION_SHA256: revoked.sha256s}
            while section.at < len(section.data):
                into[section_type].add(section.string())
        elif section_type != _SECTION_SIGNATURE:  # signatures are not checked by ssh(1) either
            raise ValueError(f"unsupported KRL section {section_type}")
    return revoked


def _parse_certificate_section(section: _WireReader, revoked: RevokedKeys) -> None:
    authority = section.string()
    section.string()  # reserved
    by_ca = revoked.certificates.setdefault(authority, _CertificateRevocations())
    while section.at < len(section.data):
        kind, part = section.uint(1), _WireReader(section.string())
        while part.at < len(part.data):
            if kind == _CERT_SERIAL_LIST:
                by_ca.serials.add(part.uint(8))
            elif kind == _CERT_SERIAL_RANGE:
                by_ca.serial_ranges.append((part.uint(8), part.uint(8)))
            elif kind == _CERT_SERIAL_BITMAP:
                offset, bitmap = part.uint(8), int.from_bytes(part.string(), "big")
                by_ca.serials.update(offset + bit for bit in range(bitmap.bit_length()) if bitmap >> bit & 1)
            elif kind == _CERT_KEY_ID:
                by_ca.key_ids.add(part.string().decode("utf-8", "replace"))
            else:
                raise ValueError(f"unsupported KRL certificate section {kind:#x}")


def why_revoked(server_key: paramiko.PKey, revoked: RevokedKeys) -> str | None:
    """Which of the host's keys the file revokes, or None: the key itself, and for a host
    certificate also its CA's key and the certificate by serial or key id (krl.c,
    ssh_krl_check_key; a plain list names the CA as a revoked key: authfile.c, sshkey_in_file)."""
    if revoked.revokes_plain(server_key.asbytes()):
        return f"its host key ({describe_key(server_key)})"
    try:
        certificate = host_certificate_of(server_key)
    except ValueError:
        return None  # refused as malformed by verify_host_key
    if certificate is None:
        return None
    if revoked.revokes_plain(certificate.signature_key):
        return "the CA key that signed its host certificate"
    for authority in (certificate.signature_key, b""):
        by_ca = revoked.certificates.get(authority)
        if by_ca is not None and by_ca.revokes(certificate.serial if authority else 0, certificate.key_id):
            return f"its host certificate (id {certificate.key_id!r}, serial {certificate.serial})"
    return None


def refuse_if_short_rsa(alias: str, server_key: paramiko.PKey, required_bits: int) -> None:
    """Raise HostKeyError for an RSA host key shorter than RequiredRSASize, which ssh(1) 9.1+
    refuses before any other check ("Bad server host key: Invalid key length":
    openssh-portable: sshconnect2.c, verify_host_key_callback, sshkey_check_rsa_length).
    RHEL's and Fedora's crypto policy sets RequiredRSASize 2048 for every user: a BMC or an
    old appliance with a 1024-bit host key, which `ssh` refuses there, was logged in to."""
    if not isinstance(server_key, paramiko.RSAKey) or server_key.get_bits() >= required_bits:
        return
    raise HostKeyError(
        f"{alias}: the host key ({describe_key(server_key)}) has {server_key.get_bits()} bits, fewer than RequiredRSASize "
        f"{required_bits}; refusing to connect, as ssh(1) does (Bad server host key: Invalid key length)",
        hint="ask the host's owner for a stronger host key (ssh-keygen -t ed25519, or -t rsa -b 3072), or lower "
        "RequiredRSASize for this host in your ssh config (a system crypto policy may set it: "
        "/etc/crypto-policies/back-ends/openssh.config)",
    )


def refuse_if_revoked(alias: str, server_key: paramiko.PKey, path: str) -> None:
    """Raise HostKeyError where ssh(1) would refuse the host for RevokedHostKeys `path`."""
    try:
        with open(path, "rb") as handle:
            revoked = parse_revoked_keys(handle.read())
    except OSError as exc:
        raise HostKeyError(
            f"{alias}: cannot check the host key against RevokedHostKeys {path}: {exc.strerror or exc}; refusing to "
            "connect, as ssh(1) does",
            hint="fix or restore that file, or remove the RevokedHostKeys line from your ssh config",
        ) from None
    except ValueError as exc:
        raise HostKeyError(
            f"{alias}: cannot read RevokedHostKeys {path} ({exc}); refusing to connect, as ssh(1) does",
            hint="the file must be a key revocation list (ssh-keygen -k) or public keys, one a line",
        ) from None
    reason = why_revoked(server_key, revoked)
    if reason is not None:
        raise HostKeyError(
            f"{alias}: {reason} is revoked by RevokedHostKeys {path}; refusing to connect",
            hint="the key was revoked on purpose: ask the host's owner for its new host key",
        )
