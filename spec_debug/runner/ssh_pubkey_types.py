"""Which user keys PubkeyAcceptedAlgorithms lets ssh(1) offer.

ssh(1) drops every key whose type the list leaves out before it offers any, from a file or from
ssh-agent ("Skipping ssh-ed25519 key ... - corresponding algo not in PubkeyAcceptedAlgorithms":
openssh-portable sshconnect2.c, pubkey_prepare). paramiko applies its preferred list to the
signature of an RSA key only (paramiko/auth_handler.py, _finalize_pubkey_algorithm), so an
ed25519 key the list left out was offered and logged in where `ssh` and Ansible are refused.
"""

from __future__ import annotations

import paramiko

from spec_debug.runner.ssh_hostkeys import configured_key_types

# ssh(1)'s default list (OpenSSH 9.2: `ssh -G -F /dev/null host | grep pubkeyacceptedalgorithms`;
# openssh-portable myproposal.h, KEX_DEFAULT_PK_ALG), which `+`, `-` and `^` lists start from.
_DEFAULT = (
    "ssh-ed25519-cert-v01@openssh.com", "ecdsa-sha2-nistp256-cert-v01@openssh.com",
    "ecdsa-sha2-nistp384-cert-v01@openssh.com", "ecdsa-sha2-nistp521-cert-v01@openssh.com",
    "sk-ssh-ed25519-cert-v01@openssh.com", "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
    "rsa-sha2-512-cert-v01@openssh.com", "rsa-sha2-256-cert-v01@openssh.com",
    "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com", "rsa-sha2-512", "rsa-sha2-256",
)
# Known to ssh(1) but off by default: a list's patterns match them too (kex_assemble_names
# matches against every algorithm it supports).
_OFF_BY_DEFAULT = ("ssh-rsa", "ssh-rsa-cert-v01@openssh.com", "ssh-dss", "ssh-dss-cert-v01@openssh.com")

# An RSA key is allowed by any of its signature algorithms (openssh-portable sshconnect2.c,
# key_type_allowed_by_config): its type is ssh-rsa though only rsa-sha2-* are listed.
_RSA_NAMES = {
    "ssh-rsa": ("ssh-rsa", "rsa-sha2-512", "rsa-sha2-256"),
    "ssh-rsa-cert-v01@openssh.com": (
        "ssh-rsa-cert-v01@openssh.com", "rsa-sha2-512-cert-v01@openssh.com", "rsa-sha2-256-cert-v01@openssh.com"
    ),
}


def key_type_name(key: paramiko.PKey) -> str:
    """The type a key is offered as: a certificate's type where it carries one."""
    blob = getattr(key, "public_blob", None)
    return blob.key_type if blob is not None else key.get_name()


_CERT_SUFFIX = "-cert-v01@openssh.com"


def accepted_algorithms(spec: str) -> list[str]:
    """ssh(1)'s list for a PubkeyAcceptedAlgorithms line, in its order; ValueError when it leaves none."""
    return configured_key_types(spec, list(_DEFAULT), named_only=_OFF_BY_DEFAULT, keyword="PubkeyAcceptedAlgorithms")


def signature_preferences(spec: str, paramiko_names: tuple[str, ...]) -> tuple[str, ...] | None:
    """What paramiko's preferred pubkey list should be for a PubkeyAcceptedAlgorithms line: the
    listed names paramiko signs with, a certificate type as its key's (paramiko adds the suffix
    itself: paramiko/auth_handler.py, _finalize_pubkey_algorithm), `ssh-rsa` kept for an old sshd.
    None where the line names none of them (only FIDO `sk-` types, which paramiko leaves to the
    agent): the list then picks no RSA signature, and left_out_by_config skips every RSA key.
    ValueError when the line leaves ssh(1) no algorithm at all.

    A certificate-only list (`PubkeyAcceptedAlgorithms ssh-ed25519-cert-v01@openssh.com`, as
    fleets that log in through a user CA write it) named none of paramiko's bare names, and was
    refused as leaving nothing, where ssh(1) logs in with the certificate."""
    known = (*paramiko_names, "ssh-rsa")
    bases = [name.removesuffix(_CERT_SUFFIX) for name in accepted_algorithms(spec)]
    chosen = tuple(dict.fromkeys(name for name in bases if name in known))
    return chosen or None


def left_out_by_config(key: paramiko.PKey, spec: str | None) -> bool:
    """True when the PubkeyAcceptedAlgorithms `spec` (None: the default) leaves the key's type out."""
    return type_left_out(key_type_name(key), spec)


def file_left_out_by_config(blob: bytes, spec: str | None) -> str | None:
    """The key type of an identity file's public key `blob` (from its .pub, or the clear part
    of an OpenSSH-format file) when `spec` leaves out the key and its certificates alike: ssh(1)
    skips such a file before opening it (pubkey_prepare), so no passphrase is asked for it."""
    try:
        name = paramiko.Message(blob).get_text()
    except Exception:  # noqa: BLE001 - a damaged blob: the key is opened and says so
        return None
    return name if type_left_out(name, spec) and type_left_out(f"{name}{_CERT_SUFFIX}", spec) else None


def type_left_out(name: str, spec: str | None) -> bool:
    """True when the PubkeyAcceptedAlgorithms `spec` (None: the default) leaves the type `name` out."""
    if not (spec or "").strip():
        return False
    try:
        allowed = accepted_algorithms(spec or "")
    except ValueError:
        return False  # a list that leaves nothing is refused as such when the connection is set up
    return not any(candidate in allowed for candidate in _RSA_NAMES.get(name, (name,)))
