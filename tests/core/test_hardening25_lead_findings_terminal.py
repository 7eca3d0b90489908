"""`spec-debug findings CODE` on a terminal renders the entry as Markdown (round 25: rich.markdown,
which brings markdown-it, is imported only on that path; a pipe gets the Markdown source)."""

from __future__ import annotations

from rich.console import Console

from spec_debug.diagnose.findings_cli import findings_command


def test_a_terminal_gets_the_entry_rendered_and_a_pipe_its_markdown_source():
    terminal = Console(force_terminal=True, width=100, record=True)
    assert findings_command("sd101", False, console=terminal) == 0
    shown = terminal.export_text()
    assert "SD101: Speculation capped at one drafted token per round" in shown and "## SD101" not in shown
    pipe = Console(force_terminal=False, width=100, record=True)
    assert findings_command("SD101", False, console=pipe) == 0
    assert pipe.export_text().startswith("## SD101: Speculation capped")
