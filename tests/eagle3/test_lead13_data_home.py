"""`--data "~/hs"` (quoted, so the shell left the `~`) is the home directory's folder, as
`--model "~/draft"` already was: before, "data directory not found"."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import save_informative_world


def test_a_quoted_tilde_in_data_is_the_home_directory(tmp_path, monkeypatch):
    world = save_informative_world(tmp_path / "world", seed=13)
    home = tmp_path / "home"
    shutil.copytree(world / "data", home / "hs")
    monkeypatch.setenv("HOME", str(home))
    args = ["eval", "--model", str(world / "draft"), "--target", str(world / "target"), "--json"]
    by_home = CliRunner().invoke(drafter_app, [*args, "--data", "~/hs"])
    assert by_home.exit_code == 0, by_home.output
    direct = CliRunner().invoke(drafter_app, [*args, "--data", str(home / "hs")])
    assert json.loads(by_home.output)["full_accuracy"] == json.loads(direct.output)["full_accuracy"]
