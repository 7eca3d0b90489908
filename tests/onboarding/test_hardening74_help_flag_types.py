"""Typer 0.29's rich help wrote a type after every option, `<bool>` after a flag:
`--json <bool>`, `--step <bool>`, `--show-output -v <bool>`, `--help <bool>`. Read as options that
want a value, `--json true` is click's "Got unexpected extra argument (true)". A flag now shows
no type, as click's own help and Typer's plain help write it; options that take a value keep
theirs (`--forks <int range>`, `--capture-limit <int>`)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import run_cli


def _row(help_text: str, option: str) -> str:
    rows = [line for line in help_text.splitlines() if re.search(rf"│ {re.escape(option)}\s", line)]
    assert len(rows) == 1, help_text
    return re.sub(r"\s+", " ", rows[0].strip("│ "))


@pytest.mark.parametrize("command", [[], ["run"], ["report"], ["analyze"], ["findings"], ["explain"],
                                     ["demo"], ["drafter", "eval"], ["playbooks", "validate"]])
def test_no_help_page_gives_a_flag_a_type(command: list[str]) -> None:
    result = run_cli(*command, "--help")
    assert result.code == 0, result.stderr
    assert "<bool>" not in result.stdout
    help_rows = [re.sub(r"\s+", " ", line) for line in result.stdout.splitlines() if re.search(r"│\s+--help\s", line)]
    assert help_rows == ["│ --help Show this message and exit. │"]


def test_run_help_flags_and_valued_options() -> None:
    text = run_cli("run", "--help").stdout
    assert _row(text, "--json") == "--json Print the final run.json to stdout."
    assert _row(text, "--step") == "--step Step through interactively: run / skip / quit before each step."
    assert _row(text, "--show-output") == "--show-output -v Stream the steps' output lines live."
    assert _row(text, "--forks") == "--forks -f <int range> [x>=1] Hosts run in parallel. [default: 16]"
    assert _row(text, "--capture-limit").startswith("--capture-limit <int> Bytes of each stream kept in run.json")
