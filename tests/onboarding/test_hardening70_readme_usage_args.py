"""The README's command table said `spec-debug explain PLAYBOOK` while `explain --help` (and the
"Missing argument 'TOPIC'" error) name the argument TOPIC: explain takes a playbook, a step, a
finding code or a concept. Each row's argument is the one `--help` names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_cli

README = Path(__file__).resolve().parents[2] / "README.md"
_ROW = re.compile(r"^\| `spec-debug (\w+) ([^`]*)`")


def _readme_rows() -> dict[str, str]:
    """command -> its first argument as the README's table writes it (PLAYBOOK, [CODE], PATH\\|-)."""
    rows: dict[str, str] = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match and not match.group(2).startswith(("-", "(")):
            rows.setdefault(match.group(1), match.group(2).split()[0])
    return rows


def _argument_word(written: str) -> str:
    return re.split(r"\\?\|", written.strip("[]{}"))[0].upper()


def test_the_table_has_the_commands_that_take_an_argument() -> None:
    assert {"run", "report", "findings", "explain", "analyze", "distill"} <= set(_readme_rows())


@pytest.mark.parametrize("command", ["run", "report", "findings", "explain", "analyze", "distill"])
def test_each_rows_argument_is_the_one_help_names(command: str) -> None:
    usage = next(line for line in run_cli(command, "--help").stdout.splitlines() if "Usage:" in line)
    shown = usage.split("[OPTIONS]", 1)[1].split()[0]
    assert _argument_word(_readme_rows()[command]) == _argument_word(shown), (command, usage)


def test_explains_row_says_what_a_topic_is() -> None:
    row = next(line for line in README.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `spec-debug explain "))
    assert row.startswith("| `spec-debug explain TOPIC ")
    for kind in ("playbook", "step", "finding code", "concept"):
        assert kind in row
