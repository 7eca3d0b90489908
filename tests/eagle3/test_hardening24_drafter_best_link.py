"""`--model <output>/checkpoint_best`, the link speculators' trainer makes to the best
epoch's directory (Checkpointer.update_best_symlink: a relative link to `<epoch>`),
copied without that directory (rsync -a / tar keep the link) or left after the epoch was
removed. The drafter said "draft checkpoint directory not found" of a path that is there as
a link; it now names the link, what it points to, and the fix."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402

runner = CliRunner()


@pytest.mark.parametrize("relative", [False, True])
def test_a_best_link_to_a_missing_epoch_is_named(tmp_path, monkeypatch, relative):
    from speculators.train.checkpointer import SingleGPUCheckpointer

    output = tmp_path / "output"
    (output / "3").mkdir(parents=True)
    SingleGPUCheckpointer(output).update_best_symlink(3)
    copy = tmp_path / "copy" / "output"
    copy.mkdir(parents=True)
    best = SingleGPUCheckpointer(output).best_path().name
    shutil.copy2(output / best, copy / best, follow_symlinks=False)  # rsync -a of the link
    model = str(copy / best)
    if relative:  # `output/checkpoint_best` also reads as a Hub id (org/name)
        monkeypatch.chdir(copy.parent)
        model = f"output/{best}"
    result = runner.invoke(drafter_app, ["eval", "--model", model, "--data", str(tmp_path)])
    assert result.exit_code != 0
    assert f"{best}: a link to 3, which is not here" in result.output
    assert "cp -rL" in result.output
    assert "Traceback" not in result.output
