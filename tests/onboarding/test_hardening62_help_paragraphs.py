"""`spec-debug explain --help`, the page the README sends a newcomer to, broke a sentence in
two: "... a finding code gives its catalog" and, on the next line, "entry; `explain concepts`
lists the concepts." Typer's rich help keeps each newline of a docstring paragraph after the
first (hardening48 fixed the first paragraphs, the one-line summaries), so a paragraph wrapped
in the source is wrapped there, whatever the terminal's width."""

from __future__ import annotations

import inspect

import typer

from spec_debug.cli import app
from tests.conftest import run_cli


def _commands(command, path: str):
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, f"{path} {name}")


def test_every_paragraph_of_every_command_help_is_one_line() -> None:
    wrapped = [(path, n) for path, command in _commands(typer.main.get_command(app), "spec-debug")
               for n, paragraph in enumerate(inspect.cleandoc(command.help or "").split("\n\n"))
               if "\n" in paragraph and not paragraph.startswith("\b")]
    assert wrapped == []


def test_explain_help_reads_its_sentence_whole() -> None:
    result = run_cli("explain", "--help")
    assert result.code == 0
    assert "a finding code gives its catalog entry; `explain concepts` lists the concepts." in result.stdout
