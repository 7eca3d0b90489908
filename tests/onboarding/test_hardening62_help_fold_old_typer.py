"""`--help` still shows when Typer's private help helpers are missing or renamed.

spec_debug.cli_help patches typer.rich_utils' private `_make_rich_text` so long words fold;
Typer releases before 0.12.4 spell it `_make_rich_rext`. Without the guard, the first help page
raised AttributeError in fold_long_words instead of printing any help."""

from __future__ import annotations

import pytest


def test_fold_long_words_leaves_a_typer_without_the_helper_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer import rich_utils

    from spec_debug import cli_help

    highlighter = rich_utils.highlighter
    monkeypatch.delattr(rich_utils, "_make_rich_text")  # restored by monkeypatch after the test
    monkeypatch.setattr(cli_help, "_folding", False)
    cli_help.fold_long_words()  # raised AttributeError before the guard
    assert rich_utils.highlighter is highlighter  # nothing half-patched
    assert getattr(rich_utils, "_make_rich_text", None) is None
