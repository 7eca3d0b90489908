"""`--format HTML` (what a user types after reading "HTML report") was refused: explain and
report said "choose md, html, json", analyze's enum said "'HTML' is not one of". Every
`--format` now takes the name in any case; an unknown name is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.cli_common import output_format
from spec_debug.errors import UsageError
from tests.conftest import run_cli

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "data" / "transcripts"


@pytest.mark.parametrize("typed, meant", [("HTML", "html"), ("Json", "json"), ("MD", "md")])
def test_output_format_takes_any_case(typed, meant):
    assert output_format(typed, False, None) == meant


def test_any_case_of_json_agrees_with_the_json_flag():
    assert output_format("JSON", True, None) == "json"


def test_an_unknown_format_is_still_refused():
    with pytest.raises(UsageError, match="--format 'pdf': choose md, html, json"):
        output_format("pdf", False, None)


def test_analyze_writes_html_for_format_in_capitals(tmp_path):
    out = tmp_path / "postmortem.html"
    proc = run_cli("analyze", str(TRANSCRIPTS), "--format", "HTML", "-o", str(out))
    assert proc.code == 0, proc.stdout + proc.stderr
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")


def test_explain_writes_html_for_format_in_capitals(tmp_path):
    out = tmp_path / "walkthrough.html"
    proc = run_cli("explain", "host_smoke", "--format", "Html", "-o", str(out))
    assert proc.code == 0, proc.stdout + proc.stderr
    assert out.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")
