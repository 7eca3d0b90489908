"""User certificates offered with the key they certify, as ssh(1) offers them (FILE-cert.pub,
CertificateFile; openssh-portable: sshconnect2.c, pubkey_prepare; PROTOCOL.certkeys)."""

from __future__ import annotations

import copy
import ipaddress
import socket
import time

import paramiko

from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_hostkeys import _FOREVER, _utc, _WireReader, parse_certificate
from spec_debug.runner.ssh_key_files import _public_blobs, _short


def _with_certificates(key: paramiko.PKey, path: str, target: SSHTarget) -> list[tuple[paramiko.PKey, str]]:
    """`key` with each user certificate that certifies it, then `key` alone, as ssh(1) offers
    them: `FILE-cert.pub` beside the identity and CertificateFile entries (ssh_config(5),
    CertificateFile; openssh-portable: sshconnect2.c, pubkey_prepare). Before, fleets that log
    in by certificate (sshd TrustedUserCAKeys) failed: only the bare key was offered.
    """
    return _certified((path + "-cert.pub", *target.certificate_files), key, _short(path))


def _agent_offers(key: paramiko.PKey, files: list[str], target: SSHTarget) -> list[tuple[paramiko.PKey, str]]:
    """An agent key with the certificates of the identity files it is the key of, and the
    CertificateFile entries, then alone. ssh(1) signs a certificate's login with the agent's
    key (sshconnect2.c, pubkey_prepare): a key kept in the agent while a CA reissues its
    certificate file (Vault, step-ca: daily) logs in; we offered the agent key bare, were
    refused, and its encrypted file could not be opened under --batch."""
    beside = [path + "-cert.pub" for path in files if key.asbytes() in _public_blobs([path])]
    return _certified((*beside, *target.certificate_files), key, f"agent key {key.fingerprint}")


def _certified(certificates: tuple[str, ...], key: paramiko.PKey, label: str) -> list[tuple[paramiko.PKey, str]]:
    offers: list[tuple[paramiko.PKey, str]] = []
    for certificate in dict.fromkeys(certificates):
        try:
            blob = paramiko.PublicBlob.from_file(certificate)
        except (OSError, ValueError, IndexError, UnicodeDecodeError):
            continue  # none there (the usual case), or not a certificate
        if not _certifies(blob, key):
            continue
        certified = _copy_of(key)  # the cached key stays bare
        certified.load_certificate(certificate)
        offers.append((certified, f"{label} with certificate {_short(certificate)}"))
    bare = key
    if key.public_blob is not None:  # PKey.from_path loads FILE-cert.pub itself (paramiko/pkey.py)
        bare = copy.copy(key)
        bare.public_blob = None
    return [*offers, (bare, label)]


def _copy_of(key: paramiko.PKey) -> paramiko.PKey:
    """A copy to load a certificate into. An agent key is made anew from its blob: copy.copy
    of paramiko's AgentKey recurses without end in its __getattr__ (paramiko/agent.py)."""
    if isinstance(key, paramiko.AgentKey):
        return paramiko.AgentKey(key.agent, key.blob, getattr(key, "comment", ""))
    return copy.copy(key)


def _certifies(blob: paramiko.PublicBlob, key: paramiko.PKey) -> bool:
    """Whether a certificate is for `key`: after its type and nonce, a certificate carries the
    key's public fields as they follow the type in the key's own blob (PROTOCOL.certkeys)."""
    if not blob.key_type.endswith("-cert-v01@openssh.com") or not blob.key_type.startswith(key.get_name()):
        return False
    try:
        message = paramiko.Message(blob.key_blob)
        message.get_binary()  # type
        message.get_binary()  # nonce
        rest = message.get_remainder()
        own = paramiko.Message(key.asbytes())
        own.get_binary()  # type
        return rest.startswith(own.get_remainder())
    except (ValueError, IndexError, TypeError, paramiko.SSHException):
        return False


_USER_CERTIFICATE = 1  # SSH2_CERT_TYPE_USER
# The critical options sshd knows (openssh-portable: auth-options.c, cert_option_list;
# PROTOCOL.certkeys): any other makes it refuse the certificate.
_KNOWN_CRITICAL_OPTIONS = frozenset({"force-command", "source-address", "verify-required"})


def user_certificate_problem(key: paramiko.PKey, user: str) -> tuple[str, bool] | None:
    """Why sshd would refuse the user certificate `key` carries, by what it says of itself
    (`ssh-keygen -L -f`), or None (no certificate, or nothing wrong that it shows). sshd refuses
    an expired or not yet valid one, and, unless the host maps principals (AuthorizedPrincipalsFile),
    one not issued for the login user, with the same "Permission denied" as a wrong key
    (openssh-portable: auth2-pubkey.c, user_cert_trusted_ca; sshkey.c, sshkey_cert_check_authority):
    a certificate from Vault or step-ca that expired overnight read as a wrong key. With the
    reason, whether it alone refuses the login (not so for principals a host may map)."""
    certificate_blob = _certificate_blob(key)
    if certificate_blob is None:
        return None
    try:
        certificate = parse_certificate(certificate_blob)
    except ValueError:
        return None
    if certificate.cert_type != _USER_CERTIFICATE:
        return "it is a host certificate, not a user certificate", True
    now = int(time.time())
    if certificate.valid_before != _FOREVER and now >= certificate.valid_before:
        return f"it expired at {_utc(certificate.valid_before)}", True
    if now < certificate.valid_after:
        return f"it is not valid before {_utc(certificate.valid_after)} by this machine's clock", True
    if _signature_algorithm(certificate.signature) == "ssh-rsa":
        # OpenSSH 8.2 took ssh-rsa (RSA with SHA-1) out of sshd's CASignatureAlgorithms
        # (openssh-portable: myproposal.h, SSH_ALLOWED_CA_SIGALGS; auth2-pubkey.c,
        # user_cert_trusted_ca, sshkey_check_cert_sigtype; the 8.2 release notes): a CA that
        # still signs so (`ssh-keygen -s RSA_CA -t ssh-rsa`, ssh-keygen's own default before
        # 8.2) issues certificates every current sshd refuses, with the same "Permission denied"
        # as a wrong key.
        return ("its CA signed it with SHA-1 (ssh-rsa), which sshd refuses since OpenSSH 8.2 (CASignatureAlgorithms): "
                "the CA must sign with rsa-sha2-256 or rsa-sha2-512"), True
    try:
        unknown = [name for name in _critical_options(certificate.critical_options) if name not in _KNOWN_CRITICAL_OPTIONS]
    except ValueError:
        unknown = []
    if unknown:
        # PROTOCOL.certkeys: a critical option the validating side does not recognise makes it
        # refuse the certificate (openssh-portable: auth-options.c, cert_option_list, "is not
        # supported"): a CA role that adds its own (`-O critical:NAME=...`) issues certificates
        # sshd turns away with the same "Permission denied" as a wrong key.
        return (f"it carries the critical option {unknown[0]}, which OpenSSH's sshd does not know and so refuses "
                "the certificate"), True
    if certificate.principals and user not in certificate.principals:
        return (f"it is for {', '.join(certificate.principals)}, not for {user}, which sshd refuses unless the host "
                "maps principals to accounts (AuthorizedPrincipalsFile)"), False
    if not certificate.principals:
        # `ssh-keygen -s` without -n: sshd requires a principal for a certificate its
        # TrustedUserCAKeys trusts ("Certificate lacks principal list": auth2-pubkey.c,
        # user_cert_trusted_ca, require_principal), not for one an authorized_keys
        # `cert-authority` line trusts (sshd 9.2 lets that one in: not refused for this alone).
        return ("it names no principals (ssh-keygen -n), which sshd refuses for a certificate its TrustedUserCAKeys "
                "trusts (\"Certificate lacks principal list\")"), False
    return None


def source_address_problem(key: paramiko.PKey, transport: paramiko.Transport) -> str | None:
    """Why sshd refuses the user certificate `key` carries from this machine's address: its
    `source-address` critical option (`ssh-keygen -O source-address=...`; Netflix BLESS and
    Vault roles bind certificates to the bastion's address) lists the networks it may log in
    from, and sshd refuses it from any other with the same "Permission denied" as a wrong key
    (openssh-portable: auth2-pubkeyfile.c, auth_authorise_keyopts, addr_match_cidr_list on the
    remote address; its log alone says "not from a permitted source address"). Only for a direct
    TCP connection, whose local address is the one sshd sees (short of NAT): through a
    ProxyCommand or ProxyJump it is the last hop's, which this side does not know."""
    certificate_blob = _certificate_blob(key)
    sock = getattr(transport, "sock", None)
    if certificate_blob is None or not isinstance(sock, socket.socket):
        return None
    try:
        allowed = _critical_options(parse_certificate(certificate_blob).critical_options).get("source-address")
        if allowed is None:
            return None
        source = str(sock.getsockname()[0]).split("%", 1)[0]
        address = ipaddress.ip_address(source)
        networks = [ipaddress.ip_network(entry.strip(), strict=False) for entry in allowed.split(",")]
    except (ValueError, OSError, IndexError):
        return None  # a certificate sshd itself refuses as invalid, or no address: nothing to say
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if any(address.version == network.version and address in network for network in networks):
        return None
    return f"it allows logins only from {allowed} (its source-address option), not from {address}, this machine's address"


def forced_command(key: paramiko.PKey) -> str | None:
    """The command the user certificate `key` carries forces in place of every other: its
    `force-command` critical option (`ssh-keygen -O force-command=...`), which sshd runs as it
    runs ForceCommand (openssh-portable: auth-options.c, cert_option_list; session.c,
    do_exec). None without a certificate or the option."""
    certificate_blob = _certificate_blob(key)
    if certificate_blob is None:
        return None
    try:
        return _critical_options(parse_certificate(certificate_blob).critical_options).get("force-command")
    except (ValueError, IndexError):
        return None


def _critical_options(data: bytes) -> dict[str, str]:
    """A certificate's critical options by name: each a name, then its data, which holds the
    value as a string of its own (PROTOCOL.certkeys). ValueError when malformed."""
    reader = _WireReader(data)
    options: dict[str, str] = {}
    while reader.at < len(data):
        name = reader.string().decode("utf-8", "replace")
        value = reader.string()
        options[name] = _WireReader(value).string().decode("utf-8", "replace") if value else ""
    return options


def _signature_algorithm(signature: bytes) -> str | None:
    """The algorithm a certificate's CA signature names first (RFC 4253 6.6), None when malformed."""
    try:
        return _WireReader(signature).string().decode("ascii", "replace")
    except ValueError:
        return None


def _certificate_blob(key: paramiko.PKey) -> bytes | None:
    """The certificate a key offers: loaded into it from a file (its public_blob), or, for an
    identity ssh-agent holds as a certificate (`ssh-add` loads KEY-cert.pub beside KEY; `tsh
    login` and `step ssh login` add certificates themselves), the agent's blob."""
    suffix = "-cert-v01@openssh.com"
    if key.public_blob is not None and key.public_blob.key_type.endswith(suffix):
        return key.public_blob.key_blob
    if isinstance(key, paramiko.AgentKey) and key.get_name().endswith(suffix):
        return key.blob
    return None
