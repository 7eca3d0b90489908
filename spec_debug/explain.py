"""`spec-debug explain PLAYBOOK`: a newcomer's walkthrough, written from the playbook and the catalog.

Nothing here is written by hand per playbook: each step's `why`, its expectations, the codes
it can raise (from its finding templates and its probe's declared codes) and the catalog's
explanation of each code (with the incident or public issue that taught it) are assembled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spec_debug.playbook.loader import LoadedPlaybook
from spec_debug.playbook.models import Step


@dataclass
class CodeExplanation:
    code: str
    severity: str
    title: str
    detects: str = ""
    why: str = ""
    fix: str = ""
    example: str = ""
    sources: list[str] = field(default_factory=list)


@dataclass
class StepExplanation:
    number: int
    id: str
    title: str
    why: str
    action: str
    """What runs: the command template, the probe and its purpose, or the files fetched."""
    runs_when: list[str]
    healthy: list[str]
    failing: list[str]
    codes: list[CodeExplanation]


def _explain_code(code: str, template_title: str | None = None, template_severity: str | None = None) -> CodeExplanation:
    from spec_debug.diagnose.catalog import CATALOG

    doc = CATALOG.get(code)
    if doc is not None:
        return CodeExplanation(
            code=code, severity=template_severity or doc.severity, title=doc.title, detects=doc.detects,
            why=doc.why, fix=doc.fix, example=doc.example, sources=list(doc.sources),
        )
    return CodeExplanation(code=code, severity=template_severity or "warning", title=template_title or "(defined by this playbook)")


def _step_codes(step: Step) -> list[CodeExplanation]:
    seen: dict[str, CodeExplanation] = {}
    templates = [e.finding for e in step.expect if e.finding] + list(step.findings)
    for template in templates:
        if template and template.code not in seen:
            seen[template.code] = _explain_code(template.code, template.title, template.severity)
    if step.probe:
        from spec_debug.probes.registry import all_probes

        spec = all_probes().get(step.probe)
        for code in spec.codes if spec else ():
            seen.setdefault(code, _explain_code(code))
    return list(seen.values())


def _action(step: Step) -> str:
    if step.run is not None:
        return f"runs on the host: `{step.run.strip()}`"
    if step.probe is not None:
        from spec_debug.probes.registry import all_probes

        spec = all_probes().get(step.probe)
        summary = f" — {spec.summary}" if spec else ""
        args = ", ".join(f"{k}={v}" for k, v in step.with_.items())
        return f"runs the built-in probe `{step.probe}`{summary}" + (f" (with {args})" if args else "")
    assert step.fetch is not None
    return f"copies from the host into the run's artifacts: {', '.join(step.fetch.sources())}"


def explain_playbook(loaded: LoadedPlaybook) -> dict[str, Any]:
    playbook = loaded.playbook
    steps: list[StepExplanation] = []
    for number, step in enumerate(playbook.steps, start=1):
        runs_when = []
        if step.requires:
            runs_when.append("needs " + ", ".join(f"`--var {r}=...`" for r in step.requires) + " (skipped with a note otherwise)")
        if step.when:
            runs_when.append(f"only when `{step.when}`")
        if step.timeout:
            runs_when.append(f"stopped after {step.timeout:g} s")
        if step.retries:
            runs_when.append(f"retried up to {step.retries} time(s)")
        healthy = [e.describe() for e in step.expect] or (
            ["the probe's checks raise no finding"] if step.probe else ["the command exits with code 0"]
        )
        codes = _step_codes(step)
        failing = [f"{c.code} ({c.severity}): {c.title}" for c in codes] or ["the step is marked failed (SD001)"]
        captures = [c.name or ", ".join(_group_names(c.regex)) for c in step.capture]
        if captures:
            healthy.append("captures " + ", ".join(f"`{c}`" for c in captures if c))
        steps.append(
            StepExplanation(
                number=number, id=step.id, title=step.title or step.id, why=step.why.strip(), action=_action(step),
                runs_when=runs_when, healthy=healthy, failing=failing, codes=codes,
            )
        )
    return {
        "name": playbook.name,
        "description": playbook.description.strip(),
        "path": loaded.path,
        "vars": playbook.vars,
        "steps": steps,
    }


def _group_names(regex: str | None) -> list[str]:
    import re

    return list(re.compile(regex).groupindex) if regex else []


def render_explanation(loaded: LoadedPlaybook, fmt: str = "md") -> str:
    from spec_debug.report.render import make_environment

    env = make_environment()
    return env.get_template(f"walkthrough.{fmt}.j2").render(**explain_playbook(loaded))
