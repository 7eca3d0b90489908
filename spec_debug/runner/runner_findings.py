"""Findings the runner itself raises (SD001-SD005), and catalog defaults for playbook findings.

Every code, the runner's included, is documented once: in the catalog (spec_debug/diagnose/codes.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_debug.diagnose.catalog import CATALOG, get_doc, make_finding
from spec_debug.record import Finding, Severity
from spec_debug.redact import cut_outside_secret

RUNNER_CODES = ("SD001", "SD002", "SD003", "SD004", "SD005")

CHECK_NOT_EVALUATED = "The playbook's check could not be evaluated"
"""The title of the SD003 of a check (`that:`, a templated `contains:`) that raised on the output
the step read: the playbook is what to fix. Followed by ": " and the check."""


def checks_not_evaluated(findings: list[Finding]) -> int:
    """How many of the playbook's own checks raised (their SD003): the console's verdict and the
    reports' count them alike."""
    return sum(1 for f in findings if f.code == "SD003" and f.title.startswith(CHECK_NOT_EVALUATED))


def said_checks_not_evaluated(count: int) -> str:
    """The words for ``count`` checks that could not be evaluated ('' for none)."""
    if not count:
        return ""
    return (f"{count} of the playbook's checks could not be evaluated" if count > 1
            else "1 of the playbook's checks could not be evaluated")

TITLE_LIMIT = 300
"""Characters of a finding's title: one line on the terminal and a heading in the report."""


@dataclass(frozen=True)
class FindingDefaults:
    severity: Severity
    title: str
    remediation: str
    references: tuple[str, ...] = ()


def catalog_defaults(code: str) -> FindingDefaults:
    doc = CATALOG.get(code)
    if doc is None:  # a playbook's own code (e.g. SD9xx): the template must say everything
        return FindingDefaults("warning", "", "")
    return FindingDefaults(doc.severity, doc.title, doc.fix, tuple(doc.sources))


def runner_finding(
    code: str, *, host: str | None, step: str | None, evidence: list[str], facts: dict[str, Any] | None = None, title: str | None = None,
    hint: str | None = None,
) -> Finding:
    """The catalog's finding for ``code``; ``hint`` (what the error that raised it says to do) goes
    before the catalog's generic fix."""
    assert code in RUNNER_CODES, code
    if title is not None and len(title) > TITLE_LIMIT:
        # A step's own finding templates are cut so (attempt.render_finding); SD001's title is the
        # step's message, which names every failed check and its values: 40 `contains:` checks
        # of a long line made a 10,000-character console line and report heading. The message
        # is the evidence's first item (else the title goes first): it stays whole there.
        if not (evidence and title.endswith(evidence[0])):
            evidence = [f"title: {title}", *evidence]
        cut = cut_outside_secret(title, TITLE_LIMIT)  # masked after: a token cut in two would show its first part
        title = f"{title[:cut]}… ({len(title) - cut:,} characters more: the whole text is its first evidence)"
    remediation = None
    if hint:
        said = hint[:1].upper() + hint[1:].rstrip(". ")
        # A hint that asks ("is sshd running and listening on that port?") ends its own sentence.
        remediation = f"{said}{'' if said.endswith(('?', '!')) else '.'} {get_doc(code).fix}"
    return make_finding(code, host=host, step=step, evidence=evidence, facts=facts or {}, title=title,
                        remediation=remediation)
