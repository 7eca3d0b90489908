"""A Markdown summary for $GITHUB_STEP_SUMMARY (GitHub Actions shows it on the run page)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.record import RunRecord
from spec_debug.report.views import unreachable_hosts, verdict
from spec_debug.store import RecordWriteError

_ICON = {"error": ":x:", "warning": ":warning:", "info": ":information_source:"}

SUMMARY_BUDGET = 900_000
"""UTF-8 bytes of findings' rows one summary writes at most. GitHub refuses a step's summary over
1 MiB whole ("$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k"), and
a fleet's findings (one row a host x step) passed it: the run page then showed nothing at all."""


def step_summary(record: RunRecord, run_dir: Path | None = None) -> str:
    from spec_debug.report.render import md_cell, md_code_span, md_escape
    from spec_debug.report.terminal import screen_text

    _, text = verdict(record)
    # A title rendered from a captured fact carries what the step printed: its bidi overrides
    # and control characters are marked as report.md marks them.
    # GitHub renders the summary as Markdown, as report.md is, and its texts are made alike: an
    # SD001 title quotes the expectation (`matches /.*ready.*/`, `contains '<ready>'`), whose
    # `*` turned into italics and whose `<ready>` GitHub dropped as an unknown tag.
    lines = [f"### spec-debug `{record.playbook.name}`: {record.status.upper()}", "", md_cell(screen_text(text)), ""]
    unreachable = unreachable_hosts(record)
    if unreachable["hosts"]:
        # The SD005 rows below name the host, not why: the cause is what the reader acts on.
        lines += [f"- {md_code_span(h['name'])}: {md_escape(' '.join(h['cause'].split()))}"
                  + (f" (hint: {md_escape(' '.join(h['hint'].split()))})" if h["hint"] else "") for h in unreachable["hosts"]]
        lines += [f"- and {unreachable['more']} more" if unreachable["more"] else "", ""]
    if record.findings:
        lines += ["| | code | title | host | step |", "|---|---|---|---|---|"]
        ordered = sorted(record.findings, key=lambda f: {"error": 0, "warning": 1, "info": 2}[f.severity])
        used = 0
        for index, f in enumerate(ordered):
            cells = [md_cell(" ".join(screen_text(v).split())) for v in (f.code, f.title, f.host or "", f.step or "")]
            row = f"| {_ICON[f.severity]} | " + " | ".join(cells) + " |"
            used += len(row.encode("utf-8", "backslashreplace")) + 1
            if used > SUMMARY_BUDGET:
                # the gravest first (sorted above); the rest are in report.md and run.json
                lines.append(f"| | | {len(ordered) - index} more findings: see the report | | |")
                break
            lines.append(row)
        lines.append("")
    if run_dir is not None:
        lines.append(f"Report: `{run_dir / 'report.md'}`")
    return "\n".join(lines) + "\n"


def append_step_summary(record: RunRecord, path: Path, run_dir: Path | None = None) -> None:
    try:
        # backslashreplace: a title rendered from a --var with a byte that is not UTF-8 (a PEP 383
        # surrogate from argv) must not end the run with a traceback after its record is written.
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(step_summary(record, run_dir))
    except OSError as exc:
        raise RecordWriteError(f"cannot append to GITHUB_STEP_SUMMARY {path}: {exc.strerror or exc}") from None
