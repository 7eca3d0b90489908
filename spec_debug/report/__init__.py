"""Reports: views of run.json rendered with Jinja2 templates."""

from spec_debug.report.render import render_report, write_reports

__all__ = ["render_report", "write_reports"]
