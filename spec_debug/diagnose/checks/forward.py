"""SD601: the reference eagle3 forward and the engine's, read from their sources on the host.

The host probe (spec_debug.probes.forward_source) extracts, with Python's `ast`, the op
order of each forward and which norm flags the file implements; this compares the two.
"""

from __future__ import annotations

from typing import Any, Mapping

from spec_debug.diagnose.checks.common import Where, explained_by
from spec_debug.record import Finding


def _cat_kind(args: list[str]) -> str | None:
    """'embed-first' / 'hidden-first' for a two-way cat of the embedding and the hidden state."""
    if len(args) != 2:
        return None
    first, second = (a.lower() for a in args)
    if "embed" in first and "embed" not in second:
        return "embed-first"
    if "embed" in second and "embed" not in first:
        return "hidden-first"
    return None


def forward_differences(reference: Mapping[str, Any], engine: Mapping[str, Any],
                        flags: Mapping[str, bool]) -> list[str]:
    """Differences in steps this checkpoint uses (flags set to True, and the concat order)."""
    diffs = []
    for flag, on in flags.items():
        if not on:
            continue
        if reference.get("flags", {}).get(flag) and not engine.get("flags", {}).get(flag):
            diffs.append(f"{flag}=True: the reference implements it "
                         f"({', '.join(reference.get('flag_sites', {}).get(flag, [])[:2]) or 'found'}); "
                         f"{engine.get('file', 'the engine')} never mentions it")
    ref_kinds = {k for k in (_cat_kind(c) for c in reference.get("cat_orders", [])) if k}
    eng_kinds = {k for k in (_cat_kind(c) for c in engine.get("cat_orders", [])) if k}
    if ref_kinds and eng_kinds and not (ref_kinds & eng_kinds):
        diffs.append(f"concatenation order: reference {sorted(ref_kinds)}, engine {sorted(eng_kinds)}")
    return diffs


def check_forward_sources(reference: Mapping[str, Any] | None, engine: Mapping[str, Any] | None,
                          flags: Mapping[str, bool], engine_name: str, *,
                          root_causes: list[str] | None = None, side_by_side: list[str] | None = None,
                          at: Where = Where()) -> list[Finding]:
    if not reference or not engine or not reference.get("found") or not engine.get("found"):
        return []
    diffs = forward_differences(reference, engine, flags)
    if not diffs:
        return []
    evidence = [f"reference: {reference.get('package')} {reference.get('version') or '(version unknown)'} "
                f"({reference.get('file')})",
                f"engine: {engine_name} {engine.get('version') or '(version unknown)'} ({engine.get('file')})", *diffs,
                *(["first decoder layer, op order side by side:", *side_by_side[:40]] if side_by_side else [])]
    facts = {"differences": diffs}
    if root_causes:
        evidence.append(explained_by(root_causes))
        return [at.finding("SD601", evidence, facts, severity="info",
                           title="Engine source confirms the forward-pass divergence")]
    return [at.finding("SD601", evidence, facts)]
