"""`analyze --help` listed the 19 `--input-format` names "(default auto: detected)" while the
README says analyze reads Aider chat history, Cline and Roo Code tasks and CI job logs, none of
them a name there: a user could not tell whether their source was read at all. The help now says
those sources are detected and read by one of the names (docs/analyze.md says which)."""

from __future__ import annotations

import os
import re

from tests.conftest import run_cli


def _help(command: str) -> str:
    result = run_cli(command, "--help", env={**os.environ, "COLUMNS": "1000", "NO_COLOR": "1", "TERM": "dumb"})
    assert result.code == 0, result.stderr
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stdout).split())


def test_analyze_and_distill_help_say_other_sources_are_detected():
    for command in ("analyze", "distill"):
        said = _help(command)
        assert ("(default auto: detected from the first lines; a source with no name here, such as Aider, Cline, "
                "Roo Code or a CI job log, is read by one of them and detected: docs/analyze.md lists which).") in said, said
