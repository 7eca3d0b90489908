"""report.md shows a playbook path and host names in code spans as written.

The table cells put `md_cell`'s text (a `_`, `*` or `<` escaped with a backslash for prose)
inside backticks, where CommonMark keeps backslashes literally (0.31, section 6.1): a playbook
at `ops/__pb__.yaml` read `ops/\\_\\_pb\\_\\_.yaml`, a path that does not exist. They now use
the code-span filter, which escapes only the | a GFM table cell needs.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from spec_debug.record import HostRecord, PlaybookRef, RunRecord, StepRecord
from spec_debug.report import render_report


def test_a_path_and_hosts_in_code_spans_are_shown_as_written():
    hosts = ["gpu_<a>_1", "gpu__b__2"]
    record = RunRecord(
        run_id="20261201T000000000Z-p-00000000", started_at="2026-12-01T00:00:00.000Z", status="error",
        finished_at="2026-12-01T00:00:01.000Z",
        playbook=PlaybookRef(name="p", path="ops/__pb__*x*.yaml", sha256="0" * 64),
        hosts=[HostRecord(name=hosts[0], status="passed"), HostRecord(name=hosts[1], status="error", error="refused")],
        steps=[StepRecord(id="one", host=hosts[0], status="passed", exit_code=0)],
    )
    report = render_report(record, "md")
    codes = [t.content for token in MarkdownIt("commonmark").enable("table").parse(report) if token.children
             for t in token.children if t.type == "code_inline"]
    assert "ops/__pb__*x*.yaml" in codes, codes
    assert all(host in codes for host in hosts) and not any("\\_" in code or "\\<" in code for code in codes), codes
