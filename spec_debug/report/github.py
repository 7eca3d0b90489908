"""A Markdown summary for $GITHUB_STEP_SUMMARY (GitHub Actions shows it on the run page)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.record import RunRecord
from spec_debug.report.views import verdict

_ICON = {"error": ":x:", "warning": ":warning:", "info": ":information_source:"}


def step_summary(record: RunRecord, run_dir: Path | None = None) -> str:
    _, text = verdict(record)
    lines = [f"### spec-debug `{record.playbook.name}`: {record.status.upper()}", "", text, ""]
    if record.findings:
        lines += ["| | code | title | host | step |", "|---|---|---|---|---|"]
        for f in sorted(record.findings, key=lambda f: {"error": 0, "warning": 1, "info": 2}[f.severity]):
            title = f.title.replace("|", "\\|")
            lines.append(f"| {_ICON[f.severity]} | {f.code} | {title} | {f.host or ''} | {f.step or ''} |")
        lines.append("")
    if run_dir is not None:
        lines.append(f"Report: `{run_dir / 'report.md'}`")
    return "\n".join(lines) + "\n"


def append_step_summary(record: RunRecord, path: Path, run_dir: Path | None = None) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(step_summary(record, run_dir))
