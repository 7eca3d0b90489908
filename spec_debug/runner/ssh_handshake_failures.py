"""What a failed SSH handshake means, as one line and a fix: a server that printed text instead
of its banner (MaxStartups, PerSourcePenalties, another service), or one that shares no
algorithm with us (paramiko/transport.py, _parse_kex_init; openssh-portable: kex.c)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import paramiko

from spec_debug.runner.ssh_config import SSHTarget
from spec_debug.runner.ssh_errors import HandshakeError

if TYPE_CHECKING:  # ssh_transport reads _OFFER_LINES from here
    from spec_debug.runner.ssh_transport import _SignalAwareTransport


class _ClosedBeforeBanner(HandshakeError):
    """sshd accepted TCP and closed it at once, before its banner."""


# What a server may print instead of its banner when it turns a connection away: OpenSSH's
# sshd writes "Exceeded MaxStartups" (openssh-portable: sshd.c, drop_connection), and since
# 9.8 "Not allowed at this time" to an address it penalises (PerSourcePenalties).
_MAX_STARTUPS_SAID = "maxstartups"
_PENALTY_SAID = "not allowed at this time"


def _not_a_banner(transport: _SignalAwareTransport) -> Callable[[SSHTarget, str], HandshakeError] | None:
    """The error for a server that printed text instead of an SSH banner, or None if it said nothing.

    paramiko skips the lines before the banner (RFC 4253, section 4.2 allows them) and then
    reports only "Error reading SSH protocol banner"; what was said tells a busy sshd from a
    web or mail server on the port, which would otherwise read as MaxStartups and be retried.
    """
    lines = [line for line in transport.pre_banner if line.strip()]
    if not lines:
        return None
    said = lines[0].strip()[:120]
    if any(_MAX_STARTUPS_SAID in line.lower() for line in lines):
        return lambda target, where: _ClosedBeforeBanner(
            f"{target.alias}: {where} turned us away before the SSH banner (sshd said {said!r})",
            hint="too many unauthenticated connections at once (sshd MaxStartups): lower --forks, "
            "or reach many hosts through one shared ProxyJump",
        )
    if any(_PENALTY_SAID in line.lower() for line in lines):
        return lambda target, where: HandshakeError(
            f"{target.alias}: {where} refuses connections from this address for now (sshd said {said!r})",
            hint="sshd's PerSourcePenalties (OpenSSH 9.8+) blocks an address after failed or aborted logins; "
            "wait for the penalty to expire, or ask the host's owner to exempt it (PerSourcePenaltyExemptList)",
        )
    return lambda target, where: HandshakeError(
        f"{target.alias}: {where} is not an SSH server: it answered {said!r} instead of an SSH banner",
        hint="check Port and HostName in your ssh config or inventory; another service listens on that port",
    )


# paramiko's "Incompatible ssh peer (no acceptable X)" and "Incompatible ssh server (no
# acceptable ciphers|macs)" (paramiko/transport.py, _parse_kex_init): X, the line of the
# server's offer paramiko logs, and where our own list is. The plural two were written
# singular here, never matched, and a cipher-locked sshd read "SSH handshake failed" bare.
_NEGOTIATED = {
    "kex algorithm": ("key exchange algorithm", "kex algos", "kex"),
    "host key": ("host key type", "server key", "key_types"),
    "ciphers": ("cipher", "server encrypt", "ciphers"),
    "macs": ("MAC", "server mac", "digests"),
}
# A cipher or MAC list with none of paramiko's (chacha20-poly1305 or umac only, from a
# hardening guide; arcfour or blowfish on an old box) is the host's sshd_config to widen.
_SSHD_LIST_HINT = (
    "the host's sshd allows only {what}s spec-debug (paramiko) lacks: ask its admin to add one of the accepted ones "
    "to {keyword} in sshd_config (such as {example}, in every OpenSSH since 6.2)"
)
_OLD_SSHD_HINT = (
    "the host's sshd offers only SHA-1 era algorithms (ssh-rsa host keys, diffie-hellman-group1-sha1), refused "
    "by paramiko as by OpenSSH 8.8+: update openssh-server there, or give it an ed25519 host key (ssh-keygen -A)"
)
# A host that offers only key exchanges newer than paramiko's (sntrup761x25519-sha512, the
# post-quantum hybrid OpenSSH 9.0+ puts first; a hardening guide's list cut to it) is no old
# host: it was told it "offers only SHA-1 era algorithms" and to update openssh-server.
_NEWER_KEX_HINT = (
    "the host's sshd offers only key exchanges this spec-debug's paramiko {version} lacks (none of them SHA-1 era; "
    "ssh(1) may reach it): ask its admin to add curve25519-sha256 (OpenSSH 7.4+) to KexAlgorithms in sshd_config, "
    "or run spec-debug with a paramiko that implements one of those it offers"
)


def _kex_hint(transport: _SignalAwareTransport) -> str:
    """The hint for a host sharing no key exchange with us: an old host's SHA-1 ones, or newer ones."""
    offer = transport.server_offer.get("kex algos", "").split(", ")
    if any("sha1" in name for name in offer):
        return _OLD_SSHD_HINT
    return _NEWER_KEX_HINT.format(version=paramiko.__version__)


def _no_common_algorithm(transport: _SignalAwareTransport, text: str) -> str | None:
    """`offers no host key type we accept (it offers: ssh-rsa; we accept: ...)`, as ssh(1)'s
    "no matching host key type found. Their offer: ..." (openssh-portable: kex.c), or None."""
    lowered = text.lower()
    for reason, (what, offer_line, ours_attribute) in _NEGOTIATED.items():
        if f"(no acceptable {reason})" in lowered:
            # Without the markers that ride in the kex list (RFC 8308 ext-info, strict kex).
            offer = ", ".join(
                name for name in transport.server_offer.get(offer_line, "?").split(", ") if not name.startswith(("ext-info-", "kex-strict-"))
            )
            ours = ", ".join(getattr(transport.get_security_options(), ours_attribute))
            return f"offers no {what} we accept (it offers: {offer}; we accept: {ours})"
    return None


_OFFER_LINES = frozenset(offer_line for _, offer_line, _ in _NEGOTIATED.values())


# The ssh config keywords that narrow what we offer (ssh_algorithms), by the words of
# _no_common_algorithm's line: the keyword, the SSHTarget field, the server's offer line and
# paramiko's own list (paramiko/transport.py, Transport._preferred_*).
_CONFIGURED_LISTS = {
    "offers no key exchange algorithm": ("KexAlgorithms", "kex_algorithms", "kex algos", "_preferred_kex"),
    "offers no cipher": ("Ciphers", "ciphers", "server encrypt", "_preferred_ciphers"),
    "offers no MAC": ("MACs", "macs", "server mac", "_preferred_macs"),
}


def _left_out_by_config(transport: _SignalAwareTransport, target: SSHTarget, unshared: str) -> str | None:
    """The hint for a host that offers algorithms paramiko has, all of which the user's own
    `KexAlgorithms`/`Ciphers`/`MACs` line left out (a hardening guide's list copied into Host *).
    ssh(1) fails the same way ("no matching cipher found"), and the fix is that line: the hint
    said to update the host's openssh-server, or that paramiko lacks what it offers. None
    when the config sets no such list or the host offers nothing paramiko has."""
    for words, (keyword, field, offer_line, ours) in _CONFIGURED_LISTS.items():
        spec = (getattr(target, field) or "").strip()
        if not unshared.startswith(words) or not spec:
            continue
        supported = getattr(paramiko.Transport, ours)
        theirs = [name for name in transport.server_offer.get(offer_line, "").split(", ") if name in supported]
        if not theirs:
            continue
        # ssh(1) takes the first value of a keyword: a `+name` line below this one changes nothing.
        fix = (f"take {theirs[0]} out of it" if spec.startswith("-")
               else f"add one to it (`{keyword} {spec},{theirs[0]}`)")
        return f"your ssh config's `{keyword} {spec}` for this host leaves out every one it offers: {fix}, or remove the line"
    return None
