"""A speculators 0.9.0 draft whose config.json was edited by hand and left invalid: a comment
or a trailing comma. Before: the drafter gave the bare decoder message ("Expecting property
name enclosed in double quotes: line 68 column 3"), which for a trailing comma names the line
after it; now the fault is named where it is (as the host probe names it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.test_hardening34_ckpt_vocab_target import saved  # noqa: E402,F401


def _vocab_error(saved: Path, tmp_path: Path, edit) -> str:
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    (draft / "config.json").write_text(edit((draft / "config.json").read_text()))
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(draft)])
    assert result.exit_code == 2
    return " ".join(result.output.split())


def test_a_trailing_comma_is_named_on_its_own_line(saved, tmp_path):
    lines = (saved / "draft" / "config.json").read_text().splitlines()
    # the last key of transformer_layer_config, as a hand edit that removed the key after it
    comma_line = 1 + next(i for i, line in enumerate(lines) if line.strip() == '"vocab_size": 256')
    error = _vocab_error(saved, tmp_path, lambda text: text.replace('"vocab_size": 256\n',
                                                                    '"vocab_size": 256,\n'))
    assert f"a trailing comma at the end of line {comma_line}; the engine refuses it too: " \
           "remove it" in error


def test_a_comment_is_named_as_one(saved, tmp_path):
    error = _vocab_error(saved, tmp_path, lambda text: text.replace(
        '"draft_vocab_size": 128,', '// pruned to the 128 most frequent tokens\n  "draft_vocab_size": 128,'))
    assert "a comment, which JSON does not allow; the engine refuses it too: remove it" in error
