"""`--help` in an 80-column terminal (or piped, where rich assumes 80) cut words: Typer's rich
help puts each option's text in a table cell whose overflow is rich's "ellipsis", so a word
wider than the cell lost its end: `run --help` said "(like StrictHostKeyChecking=accept…"
(the value that is the whole point of --accept-new), `drafter eval --help`
"(speculators_config.verifier…". At 60 columns option names went too: "--connect-time…",
"--artifact-lim…". A word too wide now goes on at the start of the next line (fold)."""

from __future__ import annotations

import re

import pytest
import typer

from spec_debug.cli import app
from tests.conftest import run_cli


def _command_paths(command, path: tuple[str, ...] = ()):
    yield path
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not sub.hidden:
            yield from _command_paths(sub, (*path, name))


COMMANDS = list(_command_paths(typer.main.get_command(app)))


def _cells(text: str) -> str:
    """The help page with its box and cell edges taken out and folded words joined again."""
    return re.sub(r"\s*│\s*", "", text)


@pytest.mark.parametrize("columns", ["60", "80"])
@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "spec-debug")
def test_no_word_of_any_help_page_is_cut(path: tuple[str, ...], columns: str) -> None:
    result = run_cli(*path, "--help", env={"COLUMNS": columns})
    assert result.code == 0, result.stderr
    assert "…" not in result.stdout


@pytest.mark.parametrize(("path", "word"), [
    (("run",), "StrictHostKeyChecking=accept-new"),
    (("drafter", "eval"), "(speculators_config.verifier)"),
])
def test_the_long_word_reads_whole_at_80_columns(path: tuple[str, ...], word: str) -> None:
    result = run_cli(*path, "--help", env={"COLUMNS": "80"})
    assert result.code == 0
    assert word in _cells(result.stdout)


def _option_names(text: str) -> list[str]:
    """The option-name column of the help's panels, a name folded over two lines joined again."""
    names: list[str] = []
    at = None
    for line in text.splitlines():
        if not line.startswith("│"):
            at = None
            continue
        if at is None and (first := re.search(r"(?<= )--\w", line)) is not None:
            at = first.start()
        if at is None or line[at - 1] != " " or line[at] == " ":
            continue
        word = line[at:].split()[0]
        if word.startswith("--") or not names:
            names.append(word)
        else:
            names[-1] += word
    return names


def test_option_names_read_whole_at_60_columns() -> None:
    result = run_cli("run", "--help", env={"COLUMNS": "60"})
    assert result.code == 0
    names = _option_names(result.stdout)
    for name in ("--connect-timeout", "--artifact-limit", "--capture-limit", "--known-hosts", "--retry-failed"):
        assert name in names
