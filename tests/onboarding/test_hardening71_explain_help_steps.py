"""`spec-debug explain --help` said TOPIC is "a playbook file or shipped name, a finding code ...,
or a concept": nothing of the steps, though explain takes a shipped step alone (`explain
hidden_layout`, as the demo and the README name it) and a step of the playbook named first
(`explain hidden_state_format hidden_layout`, its WORDS argument hidden from the help). The
help now names both forms, and each form it names answers."""

from __future__ import annotations

import re

from tests.conftest import run_cli


def _help_text() -> str:
    text = run_cli("explain", "--help").stdout
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text))


def test_the_help_names_the_step_forms() -> None:
    said = _help_text()
    assert "one of its steps: explain hidden_state_format hidden_layout" in said
    assert "a shipped step (hidden_layout)" in said


def test_the_forms_it_names_answer() -> None:
    own = run_cli("explain", "hidden_state_format", "hidden_layout")
    assert own.code == 0, own.stderr
    assert own.stdout.startswith("# Walkthrough: `hidden_state_format`, step `hidden_layout`")
    shipped = run_cli("explain", "hidden_layout")
    assert shipped.code == 0, shipped.stderr
    assert shipped.stdout.startswith("# Walkthrough: `perf_regression`, step `hidden_layout`")
