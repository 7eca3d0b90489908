"""The built-in check of what a session found by hand, as distill's steps.

A session that found the vocab map broken (SD302) did so with an ad hoc ``python -c
'...print(d2t[:6])'``; the playbook distill writes keeps that command, and adds the check
spec-debug ships for the same codes (the ``vocab_maps`` probe reads d2t, t2d and the head rows
against the target vocabulary; ``model_configs`` the aux layers, norm flags, RoPE and config
against weights), on the checkpoints the session's server was launched with. The launch-flag
codes have their own step (distill's launch audit)."""

from __future__ import annotations

from typing import Protocol

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.errors import UsageError
from spec_debug.probes.registry import get_probe
from spec_debug.session.analysis import SessionAnalysis
from spec_debug.session.records import CommandRecord, FindingRecord

_CHECKS = (
    # (probe, step title, timeout in seconds, as perf_regression runs it)
    ("model_configs", "Draft and target config checks", 120),
    ("vocab_maps", "Vocabulary maps", 300),
)


class VarNames(Protocol):
    def name(self, preferred: str, value: str) -> str:
        """A var with default ``value`` (the same var for the same value)."""

    def empty(self, preferred: str) -> str:
        """A var of its own with an empty default."""


def checked_findings(analysis: SessionAnalysis) -> list[FindingRecord]:
    """The session's findings a built-in check of :data:`_CHECKS` covers, in seq order."""
    return sorted((f for probe, _, _ in _CHECKS for f in _found_by(analysis, probe)), key=lambda f: f.seq)


def _found_by(analysis: SessionAnalysis, probe: str) -> list[FindingRecord]:
    """The session's findings of ``probe``'s codes, in seq order."""
    codes = get_probe(probe).codes
    return sorted((f for f in analysis.findings if f.code in codes), key=lambda f: f.seq)


def builtin_check_steps(analysis: SessionAnalysis, names: VarNames, ids: set[str], primary: str | None,
                        audited: bool) -> list[dict]:
    """One step per probe whose codes the session found. ``names`` names the playbook's vars;
    ``ids`` holds the step ids taken; ``audited``: the playbook has a launch audit step, which
    finds the checkpoints of the server running on the host (``facts.resolved_draft_model``)."""
    steps = []
    served = draft = target = None
    for probe, title, timeout in _CHECKS:
        found = _found_by(analysis, probe)
        if not found:
            continue
        if served is None:  # one pair of vars for every check: one --var draft_model=DIR points them all
            served = _served_models(analysis.commands, primary)
            draft = names.name("draft_model", served[0]) if served[0] else names.empty("draft_model")
            target = names.name("target_model", served[1]) if served[1] else names.empty("target_model")
        step_id = probe if probe not in ids else f"{probe}_check"
        ids.add(step_id)
        said = "; ".join(f"{f.code} [msg {f.seq}]: {f.title}" for f in found[:4])
        if any(served):
            where = (f"on the draft and target the session's server was launched with ({served[0] or '?'}, "
                     f"{served[1] or '?'}); --var {draft}=DIR and --var {target}=DIR point it at other checkpoints")
        elif audited:
            where = (f"on the draft and target of the server running on the host, as the launch audit finds them; "
                     f"--var {draft}=DIR and --var {target}=DIR name others")
        else:
            where = (f"on the checkpoints --var {draft}=DIR and --var {target}=DIR name (the session launched no "
                     "server that names them)")
        why = (f"The session found {said}. This step runs spec-debug's own check for "
               f"{'it' if len(found) == 1 else 'them'} ({get_probe(probe).summary}) {where}.")
        steps.append({"id": step_id, "title": f"{title} (spec-debug's check of {', '.join(f.code for f in found)})",
                      "why": why, "probe": probe,
                      "with": {"draft_model": "{{ " + draft + " or facts.resolved_draft_model | default('') }}",
                               "target_model": "{{ " + target + " or facts.resolved_target_model | default('') }}"},
                      "timeout": timeout,
                      "provenance": {"session": found[0].session, "seq": found[0].seq, "agent": found[0].agent}})
    return steps


def _served_models(commands: list[CommandRecord], primary: str | None) -> tuple[str, str]:
    """The draft and target paths of the session's last server launch (on the playbook's host
    where it launched one there); ("", "") where no launch names them."""
    launches = [c for c in commands if c.category == "launch_server"]
    launches = [c for c in launches if c.host == primary] or launches
    for c in reversed(launches):
        try:
            cfg = parse_launch_command(c.inner or c.command)
        except (UsageError, ValueError):
            continue  # a launch line the session cut, or not a server's: the next one back
        if cfg.draft_model or cfg.target_model:
            return cfg.draft_model or "", cfg.target_model or ""
    return "", ""

