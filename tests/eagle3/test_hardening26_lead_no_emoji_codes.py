"""The drafter commands' errors and the findings catalog print a path as written: rich reads
':100:' as an emoji code by default (a checkpoint under 'runs/gpu:100:a' printed as 'runs/gpu💯a'),
as the run commands' consoles already do not (test_hardening26_reviewcore_no_emoji_codes)."""

from __future__ import annotations

import pytest
import typer

from spec_debug.eagle3 import commands
from spec_debug.errors import SpecDebugError


def test_a_drafter_error_keeps_colon_words(capsys):
    with pytest.raises(typer.Exit):
        with commands._one_line_errors():
            raise SpecDebugError("no config.json in runs/gpu:100:a/draft", hint="see runs/x:1234:y")
    err = capsys.readouterr().err
    assert "runs/gpu:100:a/draft" in err and "runs/x:1234:y" in err, err
