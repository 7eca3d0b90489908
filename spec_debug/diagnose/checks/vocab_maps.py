"""SD301-SD303: the draft-to-target vocabulary maps (EAGLE3.md sections 1 and 6.7); SD710:
the draft's stale weight index the same `drafter vocab` report names.

Input: the report of spec_debug.eagle3.vocab (`VocabReport.to_dict()`: checks with issues,
each issue carrying the code it feeds). One finding per code; a missing d2t (SD301) makes the
offset checks (SD302) moot, so they are not reported twice.
"""

from __future__ import annotations

from typing import Any, Mapping

from spec_debug.diagnose.checks.common import Where
from spec_debug.record import Finding


def check_vocab_report(report: Mapping[str, Any], at: Where = Where()) -> list[Finding]:
    by_code: dict[str, list[dict[str, Any]]] = {}
    for check in report.get("checks", []):
        for issue in check.get("issues", []):
            by_code.setdefault(issue["code"], []).append(issue)
    facts = {"target_vocab_size": report.get("target_vocab_size"),
             "draft_vocab_size": report.get("draft_vocab_size"),
             "issues": sorted({i["kind"] for issues in by_code.values() for i in issues})}
    findings: list[Finding] = []
    if "SD301" in by_code:
        findings.append(at.finding("SD301", [i["message"] for i in by_code["SD301"]], facts))
    elif "SD302" in by_code:
        findings.append(at.finding("SD302", [i["message"] for i in by_code["SD302"]], facts))
    if "SD303" in by_code:
        findings.append(at.finding("SD303", [i["message"] for i in by_code["SD303"]], facts))
    if "SD710" in by_code:  # the draft's files, checked by the same `drafter vocab` run
        findings.append(at.finding("SD710", [i["message"] for i in by_code["SD710"]],
                                   {"index": by_code["SD710"][0]["facts"].get("index")}))
    return findings
