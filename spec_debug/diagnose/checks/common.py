"""What every check shares: where a finding was made, and small formatting helpers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spec_debug.diagnose.catalog import make_finding
from spec_debug.record import Finding, Severity


@dataclass(frozen=True)
class Where:
    host: str | None = None
    step: str | None = None

    def finding(self, code: str, evidence: list[str], facts: dict[str, Any], *,
                severity: Severity | None = None, title: str | None = None,
                remediation: str | None = None) -> Finding:
        return make_finding(code, host=self.host, step=self.step, evidence=evidence, facts=facts,
                            severity=severity, title=title, remediation=remediation)


def pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def explained_by(codes: list[str]) -> str:
    return f"explained by {', '.join(codes)} (reported as the root cause); shown as info"
