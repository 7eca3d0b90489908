"""`spec-debug --help` lists each command with its one-line summary.

Typer's rich help keeps a single newline of a docstring's first paragraph (typer
rich_utils._make_command_help removes them only outside rich markup mode), so a summary
wrapped in the source showed in the command list as a line cut short, the rest of it on the
next line after a run of spaces: `explain` did, in the first screen a newcomer reads."""

from __future__ import annotations

import inspect
import re

import typer

from spec_debug.cli import app
from tests.conftest import run_cli


def _commands(command, path: str):
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, f"{path} {name}")


def test_every_command_summary_is_one_paragraph_line() -> None:
    wrapped = []
    for path, command in _commands(typer.main.get_command(app), "spec-debug"):
        summary = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        if "\n" in summary:
            wrapped.append(path)
    assert wrapped == []


def test_explain_row_of_the_command_list_reads_on_one_line() -> None:
    result = run_cli("--help")
    assert result.code == 0
    rows = [line for line in result.stdout.splitlines() if re.match(r"│ (explain|\s{2,}\S)", line)]
    explain_at = next(i for i, line in enumerate(rows) if line.startswith("│ explain"))
    # At COLUMNS=200 the summary fits its row: no continuation row under it.
    assert not (explain_at + 1 < len(rows) and rows[explain_at + 1].startswith("│            ")), rows[explain_at:explain_at + 2]
    assert "finding code" in rows[explain_at]
