"""Hidden states and aux-layer configs that do not fit the draft the way real hand-made dumps
and copied configs do not: states stacked slots first, aux layer ids written for a deeper
target. The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py) and each
test runs the `spec-debug drafter` command a user types.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import NL, save_informative_world

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("hardening8-data"), seed=18)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def test_states_stacked_slots_first_are_named_as_such(world, tmp_path):
    """A dumper that wrote `torch.stack(layer_states)` ([slots, tokens, hidden]). Before:
    "token_ids has 15 entries, hidden_states 4", as if a file were cut. Now the error says the
    axes are swapped and how to save them."""
    root = _copy(world, tmp_path)
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        state = load_file(path)
        state["hidden_states"] = state["hidden_states"].transpose(0, 1).contiguous()
        save_file(state, str(path))
    for command in ("eval", "layout"):
        result = _run(command, "--model", str(root / "draft"), "--data", str(root / "data"),
                      "--target", str(root / "target"))
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert "slots first (4 states of 14 tokens); speculators' format is [tokens, slots, " \
               "hidden]" in text
        assert "hint: save hidden_states.transpose(0, 1)" in text


def test_aux_ids_of_a_deeper_target_are_named(world, tmp_path):
    """The config's ids copied from a 32-layer target's draft ([2, 16, 29], EAGLE's default
    there) onto this 8-layer one of the same width: the dump (made from layers 2, 4, 5) still
    scores, and before this nothing said the ids cannot be served on this target."""
    root = _copy(world, tmp_path)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["eagle_aux_hidden_state_layer_ids"] = [2, 16, 29]
    path.write_text(json.dumps(config))
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 0, result.output
    notes = json.loads(result.output)["notes"]
    assert any(f"name layer(s) [16, 29] beyond the target's {NL}" in n for n in notes), notes
    clean = _run("eval", "--model", str(world / "draft"), "--data", str(world / "data"),
                 "--target", str(world / "target"))
    assert not any("beyond the target" in n for n in json.loads(clean.output)["notes"])
