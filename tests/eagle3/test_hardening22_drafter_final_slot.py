"""A hidden-state dump that stores the target's final layer in another slot than the last
([final, l2, l4, l5] as a hand-written dumper or HF's `hidden_states[-1]` put first writes
it) is read by speculators' loader as aux = every slot but the last, final = the last
(src/speculators/train/data.py). Scored that way the draft reads ~0 accuracy, and the layout
probe said the configured layout "matches" at 0.024. Now eval and layout name the slot that
holds the final layer and the reorder that fixes the dump; a dump in speculators' order gets
no such word. Built with the real library: speculators 0.9.0's Eagle3DraftModel over a
transformers Llama verifier, states captured as vLLM captures them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.diagnose.checks.drafter import check_layout  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

runner = CliRunner()


def _reordered(root: Path, name: str, order: list[int]) -> Path:
    out = root / name
    out.mkdir()
    for path in sorted((root / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": tensors["hidden_states"][:, order].contiguous()},
                  str(out / path.name))
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/, draft/ and data/ (slots [l2, l4, l5, final]); data_final_first/ holds the
    same states as [final, l2, l4, l5]."""
    root = save_informative_world(tmp_path_factory.mktemp("h22_final_slot"), seed=3)
    _reordered(root, "data_final_first", [3, 0, 1, 2])
    return root


def _run(root: Path, command: str, data: str) -> dict:
    args = [command, "--model", str(root / "draft"), "--data", str(root / data),
            "--target", str(root / "target"), "--json"]
    result = runner.invoke(drafter_app, args + (["--steps", "1"] if command == "eval" else []))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_layout_names_the_slot_that_holds_the_final_layer(world):
    out = _run(world, "layout", "data_final_first")
    check = out["final_slot_check"]
    assert check["final_slot"] == 0 and check["layout"] == [1, 2, 3]
    assert check["order"] == [1, 2, 3, 0]
    assert check["final_slot_accuracy0"] > 0.5 > 0.1 > check["accuracy0"]
    assert out["verdict"].startswith("slot 0 holds the target's final layer, not slot 3")
    assert "hidden_states[:, [1, 2, 3, 0]]" in out["verdict"]
    assert "the draft matches this dump's layout" not in out["verdict"].split(";")[0]
    # ranked against slot 0's targets, the draft's own aux slots come first
    assert out["best"] == [1, 2, 3]
    assert out["configured_accuracy0"] == check["accuracy0"]
    # the playbook's SD402 says the dump is at fault, not only that another layout fits
    findings = check_layout(out)
    assert [f.code for f in findings] == ["SD402"]
    assert any("slot 0 of the data holds the target's final layer" in e
               for e in findings[0].evidence), findings[0].evidence


def test_eval_notes_the_final_layer_in_slot_0(world):
    out = _run(world, "eval", "data_final_first")
    assert out["full_accuracy"][0] < 0.1  # scored as speculators' loader reads the dump
    notes = [n for n in out["notes"] if "holds the target's final layer" in n]
    assert len(notes) == 1, out["notes"]
    assert notes[0].startswith("slot 0 holds the target's final layer, not slot 3")
    assert "(step 0 on the first 3 sample(s))" in notes[0]


def test_a_dump_in_speculators_order_gets_no_word(world):
    layout = _run(world, "layout", "data")
    assert layout["final_slot_check"] is None
    assert layout["verdict"].startswith("configured layout slots [0, 1, 2] scores best")
    evaluated = _run(world, "eval", "data")
    assert evaluated["full_accuracy"][0] > 0.5
    assert not [n for n in evaluated["notes"] if "final layer" in n], evaluated["notes"]


def test_the_final_layer_in_a_middle_slot_is_named(world, tmp_path):
    moved = _reordered(world, "data_final_second", [0, 3, 1, 2])
    out = _run(world, "layout", moved.name)
    assert out["final_slot_check"]["final_slot"] == 1
    assert out["final_slot_check"]["order"] == [0, 2, 3, 1]
    assert out["best"] == [0, 2, 3]
