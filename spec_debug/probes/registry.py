"""The probe registry: name -> where the host code lives and how the controller reads it.

After pyinfra's facts: a probe is the code that runs on the host (a module with
`run(args) -> dict`) plus pure controller-side functions: `parse` (host JSON -> facts) and
`check` (facts -> findings).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, Callable

from spec_debug.errors import PlaybookError
from spec_debug.record import Finding


@dataclass
class ProbeContext:
    step_id: str
    host: str
    args: dict[str, Any]
    facts: dict[str, Any]
    """This probe's facts (after parse). A check may add derived facts to this dict (e.g. the
    codes it raised, a predicted tok/s): the runner records this same dict as the step's facts."""
    host_facts: dict[str, Any]
    """Every fact captured on this host so far, this probe's included."""
    vars: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProbeSpec:
    name: str
    summary: str
    module: str
    parse: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    check: Callable[[ProbeContext], list[Finding]] | None = None
    needs_torch: bool = False
    codes: tuple[str, ...] = ()
    """Finding codes the check can raise (for explain and the docs)."""
    args: tuple[str, ...] | None = None
    """The `with:` keys the probe (its host module, parse and check) reads, besides `python`,
    which every probe takes (the host's interpreter); None: not declared, any key is taken."""


PROBES: dict[str, ProbeSpec] = {}


def register(spec: ProbeSpec) -> ProbeSpec:
    PROBES[spec.name] = spec
    return spec


def get_probe(name: str) -> ProbeSpec:
    _load_builtins()
    try:
        return PROBES[name]
    except KeyError:
        close = difflib.get_close_matches(name, sorted(PROBES), n=1)
        raise PlaybookError(
            f"unknown probe {name!r}",
            hint=f"did you mean {close[0]!r}?" if close else f"known probes: {', '.join(sorted(PROBES))}",
        ) from None


def all_probes() -> dict[str, ProbeSpec]:
    _load_builtins()
    return dict(PROBES)


_loaded = False


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    register(
        ProbeSpec(
            name="host_info",
            summary="Python, OS, GPUs and which engines (sglang, vllm, speculators, torch) are installed",
            module="spec_debug.probes.host_info",
            args=(),
        )
    )
    try:
        import spec_debug.probes.builtin  # noqa: F401  (registers the diagnostic probes)
    except ModuleNotFoundError as exc:
        if exc.name != "spec_debug.probes.builtin":
            raise
