"""KexAlgorithms, Ciphers and MACs from the ssh config applied to a paramiko transport, as
ssh(1) reads them (`+`, `-`, `^` or a list; ssh_config(5))."""

from __future__ import annotations

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_hostkeys import SHA1_KEX, allow_sha1_kex, configured_key_types


def _configure_algorithms(transport: paramiko.Transport, target: SSHTarget) -> None:
    """KexAlgorithms, Ciphers and MACs from the ssh config, read as ssh(1) reads them (`+`, `-`,
    `^` or a list; ssh_config(5)). They were ignored: a host that ssh(1) reached with
    `KexAlgorithms +diffie-hellman-group14-sha1` (an appliance, an sshd older than 6.5) failed
    here with "offers no key exchange algorithm we accept", and a list meant to narrow the
    choice was not honoured either."""
    _know_rfc8731_curve25519(transport)
    security = transport.get_security_options()
    for keyword, spec, attribute, named_only in (
        ("KexAlgorithms", target.kex_algorithms, "kex", tuple(SHA1_KEX)),
        ("Ciphers", target.ciphers, "ciphers", ()),
        ("MACs", target.macs, "digests", ()),
    ):
        if not (spec or "").strip():
            continue
        try:
            chosen = configured_key_types(
                _with_paramiko_names(str(spec)), list(getattr(security, attribute)), named_only=named_only, keyword=keyword
            )
        except ValueError as exc:
            transport.close()
            raise UsageError(f"{target.alias}: ssh config: {exc}", hint="list algorithms paramiko supports, or remove the line") from None
        if any(name in SHA1_KEX for name in chosen):
            allow_sha1_kex(transport)
        setattr(security, attribute, chosen)


# curve25519-sha256 (RFC 8731) is the exchange paramiko knows by its older name only; hardened
# configs (ssh-audit's guides) list the new one, which must not leave paramiko nothing to offer.
_PARAMIKO_NAMES = {"curve25519-sha256": "curve25519-sha256@libssh.org"}
_LIBSSH_CURVE25519 = "curve25519-sha256@libssh.org"
_RFC8731_CURVE25519 = "curve25519-sha256"


def _know_rfc8731_curve25519(transport: paramiko.Transport) -> None:
    """Let this transport agree on `curve25519-sha256`, offered right before its @libssh.org name
    as ssh(1) offers the two (openssh-portable: myproposal.h, KEX_CLIENT_KEX). RFC 8731 (section 1)
    defines it as the same exchange under a new name, and the name is not hashed into the
    session keys (RFC 4253, section 8), so paramiko's engine serves both. A host hardened to
    `KexAlgorithms curve25519-sha256` (ssh-audit's guides; sshd_config(5) lists it first) shared
    no exchange with paramiko, and was told it offered only SHA-1 era algorithms."""
    engine = transport._kex_info.get(_LIBSSH_CURVE25519)  # type: ignore[attr-defined]
    if engine is None:  # a paramiko built without X25519 in its cryptography
        return
    transport._kex_info = {**transport._kex_info, _RFC8731_CURVE25519: engine}  # type: ignore[attr-defined]
    security = transport.get_security_options()
    ours = [name for name in security.kex if name != _RFC8731_CURVE25519]
    if _LIBSSH_CURVE25519 in ours:
        ours.insert(ours.index(_LIBSSH_CURVE25519), _RFC8731_CURVE25519)
    security.kex = ours


def _with_paramiko_names(spec: str) -> str:
    """`spec` with each name paramiko knows under another name followed by that name."""
    prefix = spec.strip()[:1] if spec.strip()[:1] in "+-^" else ""
    names = [name.strip() for name in spec.strip()[len(prefix):].split(",")]
    return prefix + ",".join(f"{name},{_PARAMIKO_NAMES[name]}" if name in _PARAMIKO_NAMES else name for name in names)
