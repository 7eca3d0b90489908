"""`--vocab-mapping vocab_mapping.pt` that is no torch.save file at all (the Hub's HTML page
for the file, fetched with wget from a /blob/ URL instead of /resolve/): the line quoted
torch.load's weights_only advice ("Weights only load failed. In PyTorch 2.6, we changed the
default value of the `weights_only` argument ..."), which points at the wrong fix."""

from __future__ import annotations

import pytest

pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def test_an_html_page_saved_as_the_vocab_mapping(tmp_path):
    save_verifier_and_draft(tmp_path)
    mapping = tmp_path / "vocab_mapping.pt"
    mapping.write_text("<!DOCTYPE html>\n<html><head><title>vocab_mapping.pt</title>")
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(tmp_path / "draft"),
                                              "--target", str(tmp_path / "target"),
                                              "--vocab-mapping", str(mapping)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output, result.output
    message = " ".join(result.output.split())
    assert f"{mapping}: cannot read the vocab mapping: not a torch.save file" in message, message
    assert "<!DOCTYPE html>" in message and "weights_only" not in message, message
