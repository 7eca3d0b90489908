"""Findings the runner itself raises (SD001-SD005), and catalog defaults for playbook findings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_debug.record import Finding, Severity


@dataclass(frozen=True)
class FindingDefaults:
    severity: Severity
    title: str
    remediation: str
    references: tuple[str, ...] = ()


RUNNER_CODES: dict[str, FindingDefaults] = {
    "SD001": FindingDefaults("error", "A step's expectation failed", "Read the step's evidence and its why; the step's own findings say what it means."),
    "SD002": FindingDefaults("warning", "A step timed out (its process tree was killed)", "Raise the step's timeout, or find what hangs on the host (a busy GPU, a stuck NFS mount)."),
    "SD003": FindingDefaults("warning", "A step could not run or its output could not be read", "Fix the cause in the evidence (a missing file, a probe error, a template error); the check it guards did not run."),
    "SD004": FindingDefaults("info", "Steps were skipped because an input was not provided", "Pass the named --var to run these checks."),
    "SD005": FindingDefaults("error", "The host could not be reached or the connection dropped", "Check that `ssh HOST` works with the same config; the one-line cause says what failed."),
}


def catalog_defaults(code: str) -> FindingDefaults:
    if code in RUNNER_CODES:
        return RUNNER_CODES[code]
    from spec_debug.diagnose.catalog import CATALOG

    doc = CATALOG.get(code)
    if doc is None:  # a playbook's own code (e.g. SD9xx): the template must say everything
        return FindingDefaults("warning", "", "")
    return FindingDefaults(doc.severity, doc.title, doc.fix, tuple(doc.sources))


def runner_finding(
    code: str, *, host: str | None, step: str | None, evidence: list[str], facts: dict[str, Any] | None = None, title: str | None = None
) -> Finding:
    defaults = RUNNER_CODES[code]
    return Finding(
        code=code,
        severity=defaults.severity,
        title=title or defaults.title,
        host=host,
        step=step,
        evidence=evidence,
        remediation=defaults.remediation,
        references=list(defaults.references),
        facts=facts or {},
    )
