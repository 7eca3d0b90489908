"""Reference forward vs engine forward, read from their sources on the host (SD601)."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.checks.forward import check_forward_sources
from spec_debug.diagnose.steps.common import not_checked, raised, record, target_mtp_line, where
from spec_debug.eagle3 import engines
from spec_debug.record import Finding

NS = "forward"
WIDTH = 64


def _first_layer(functions: dict[str, list[str]]) -> tuple[str | None, list[str]]:
    """The eagle3 first decoder layer's forward: where the split/cat and the norms happen."""
    for key in sorted(functions):
        if key.endswith(".forward") and ("FirstLayer" in key or "DecoderLayer" in key):
            return key, functions[key]
    return None, []


def side_by_side(reference: dict[str, Any], engine: dict[str, Any]) -> list[str]:
    ref_name, ref_ops = _first_layer(reference.get("functions") or {})
    eng_name, eng_ops = _first_layer(engine.get("functions") or {})
    lines = [f"{(ref_name or 'reference'):<{WIDTH}} | {eng_name or 'engine'}", "-" * (2 * WIDTH + 3)]
    for i in range(max(len(ref_ops), len(eng_ops))):
        left = ref_ops[i] if i < len(ref_ops) else ""
        right = eng_ops[i] if i < len(eng_ops) else ""
        lines.append(f"{left[:WIDTH]:<{WIDTH}} | {right[:WIDTH]}")
    return lines


def _summary(part: dict[str, Any]) -> dict[str, Any]:
    return {k: part.get(k) for k in ("package", "version", "found", "reason", "file", "flags", "cat_orders",
                                     "flag_sites", "functions")}


def parse(host: dict[str, Any]) -> dict[str, Any]:
    reference, engine = host.get("reference") or {}, host.get("engine") or {}
    facts = {"reference": _summary(reference), "engine": _summary(engine)}
    if reference.get("found") and engine.get("found"):
        facts["side_by_side"] = side_by_side(reference, engine)
    return {NS: facts}


def check(ctx: Any) -> list[Finding]:
    fwd = ctx.facts.get(NS, {})
    reference, engine = fwd.get("reference") or {}, fwd.get("engine") or {}
    findings: list[Finding] = []
    mtp = target_mtp_line(ctx)
    if mtp is not None:
        # a server drafting with its target's MTP module(s) (or a lookup): the EAGLE-3 forward
        # sources compared here are not what it runs, and "--var python=... --var engine=..."
        # sent its user after an interpreter that would not change that
        return record(ctx.facts, NS, [mtp])
    if not reference.get("found"):
        findings.append(not_checked(ctx, f"reference forward not read: {reference.get('reason')}",
                                    "--var python=the interpreter that has speculators (e.g. ~/ml-env/bin/python)"))
    if not engine.get("found"):
        # an engine already named (the launch command, --var engine) needs only the interpreter:
        # "--var engine=sglang|vllm" next to "sglang is not installed in this Python" asked the
        # user (and the demo's reader) for an input they had given, not the one that was missing
        package = engine.get("package")
        findings.append(not_checked(ctx, f"engine forward not read: {engine.get('reason')}",
                                    f"--var python=the server's interpreter (the one {package} is installed in)"
                                    if package in ("sglang", "vllm") else
                                    "--var python=the server's interpreter, and --var engine=sglang|vllm"))
    if findings:
        return record(ctx.facts, NS, findings)
    draft_raw = (ctx.host_facts.get("configs", {}).get("draft_config")
                 or ctx.host_facts.get("launch", {}).get("draft_config") or {})
    flags = engines.reference_norm_flags(draft_raw)
    findings = check_forward_sources(reference, engine, flags, engine.get("package") or "engine",
                                     root_causes=raised(ctx.host_facts, ("SD701",)),
                                     side_by_side=fwd.get("side_by_side"), at=where(ctx))
    return record(ctx.facts, NS, findings)
