"""Pieces every spec-debug command shares: shell completers, one-line errors, --format/--json."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from spec_debug.errors import SpecDebugError, UsageError

err_console = Console(stderr=True)

REPORT_FORMATS = ("md", "html", "json")


def complete_playbooks(incomplete: str) -> list[str]:
    from spec_debug.playbook.loader import shipped_playbook_names

    return [n for n in shipped_playbook_names() if n.startswith(incomplete)]


def complete_codes(incomplete: str) -> list[str]:
    from spec_debug.diagnose.catalog import CATALOG

    return [c for c in sorted(CATALOG) if c.startswith(incomplete.upper())]


def print_error(exc: SpecDebugError) -> None:
    """What, where and how to fix, on one line (plus a hint line)."""
    err_console.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False)
    if exc.hint:
        err_console.print(f"  [dim]hint:[/] {escape(exc.hint)}", highlight=False)


def fail(exc: SpecDebugError) -> NoReturn:
    print_error(exc)
    raise typer.Exit(exc.exit_code)


def output_format(fmt: str, as_json: bool) -> str:
    """--format md|html|json, with --json as a shorthand for json."""
    fmt = "json" if as_json else fmt
    if fmt not in REPORT_FORMATS:
        raise UsageError(f"--format {fmt!r}: choose {', '.join(REPORT_FORMATS)}")
    return fmt
