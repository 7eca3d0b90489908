"""How a terminal log reached the hosts it typed commands on, hop by hop.

An engineer logs in to a bastion (``ssh ops@bastion``), then from its prompt to the GPU host
(``ssh -p 2222 root@gpu01``); the commands typed at ``root@gpu01:~#`` ran on gpu01, reached
through the bastion on port 2222. The prompt names the host only; this keeps the port and the
jump hosts of each interactive login, so a command typed there, and an ssh typed on a host that
was itself logged in to, carry them as an ``ssh -J`` would (read by distill: ``--host`` alone
would not reach gpu01). Pure bookkeeping, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_debug.session.shell import Target


@dataclass(frozen=True, slots=True)
class Hop:
    port: int | None
    jump: str | None
    """The ``-J`` list that reaches the host (comma-separated, as ssh(1) writes it), or None."""
    spec: str
    """The host as a hop for the next login from it: ``user@host[:port]``."""


class LoginHops:
    __slots__ = ("hops",)

    def __init__(self) -> None:
        self.hops: dict[str, Hop] = {}

    def _hop(self, host: str | None) -> Hop | None:
        if not host:
            return None
        key = host.lower()
        return self.hops.get(key) or self.hops.get(short_name(key))

    def route(self, typed_on: str | None, target: Target) -> tuple[int | None, str | None]:
        """The port and jump hosts of a command typed in the shell on ``typed_on`` (the prompt's
        host) whose own target is ``target``."""
        via = self._hop(typed_on)
        if target.host is None and not target.unnamed:  # it ran in that shell (or a container of its host)
            return (via.port, via.jump) if via is not None else (target.port, target.jump)
        if via is None:
            return target.port, target.jump
        # an ssh from a host that was logged in to goes through it, after the hops to it
        return target.port, ",".join(j for j in (via.jump, via.spec, target.jump) if j)

    def opened(self, target: Target, jump: str | None) -> None:
        """An interactive login to ``target.host``, reached through ``jump``: the shell the next
        prompts of that host show."""
        host = target.host
        if not host:
            return
        spec = (f"{target.user}@{host}" if target.user else host) + (f":{target.port}" if target.port else "")
        hop = Hop(target.port, jump, spec)
        key = host.lower()
        self.hops[key] = hop
        if (short := short_name(key)) != key:
            self.hops[short] = hop  # a prompt shows `hostname -s`: "gpu01" for gpu01.cluster.local


def short_name(host: str) -> str:
    """The first label of a DNS name, as a prompt shows it (``hostname -s``); an IP address
    stays whole."""
    head = host.split(".", 1)[0]
    return host if head.isdigit() or ":" in host else head
