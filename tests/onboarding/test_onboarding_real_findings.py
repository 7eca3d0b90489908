"""`spec-debug findings CODE` with codes as people paste them: from a report or log line
("[SD201]"), with a separator, lowercase, bare digits; and text that rich would read as markup."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["SD201", "sd201", "[SD201]", "SD-201", "sd 201", "201", " SD201. "])
def test_pasted_code_forms_find_the_entry(typed):
    result = run_cli("findings", "--json", typed)
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["code"] == "SD201"


@pytest.mark.parametrize("typed", ["[/x]", "[bold]SD9"])
def test_unknown_code_with_brackets_is_one_message(typed):
    # Before: "[/x]" was a rich MarkupError traceback, and "[bold]SD9" was printed as 'SD9'.
    result = run_cli("findings", typed)
    assert result.code == 2
    assert "Traceback" not in result.stderr
    assert f"unknown finding code {typed!r}" in result.stderr
