"""A speculators 0.9.0 draft (fc.weight [32, 96]: 3 aux states of its 32-wide target) whose
config.json was edited to target_hidden_size 48. Eval refuses it with one line naming both
widths. `drafter vocab` took the stated 48 as the width the draft was trained on, since 96 is
a whole number of 48s: with --target it said the right target "has hidden_size 32, the draft
takes 48-wide target states (fc.weight): it was trained for another target", and without it
refused the config's own verifier ("not used; pass --target DIR") and checked the vocab
against the draft's own config. It now reads the width as eval does (fc.weight's fan-in over
the aux count), keeps the verifier, and says what the config gets wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

STATED = ("fc.weight takes 96 inputs = 3 aux states of 32, but the config's target_hidden_size "
          "is 48 (3 x 48 = 144): the draft was trained on 32-wide target states; set "
          "target_hidden_size to 32 (or null: it is the draft's own hidden_size)")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("stated_width")
    save_verifier_and_draft(root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["target_hidden_size"] = 48
    path.write_text(json.dumps(config, indent=2))
    return root


def test_eval_refuses_the_stated_width_naming_both(world):
    with pytest.raises(CheckpointError) as raised:
        load_draft(world / "draft")
    assert STATED in raised.value.message


def test_vocab_with_the_target_does_not_call_it_another_models(world):
    out = check_drafter_vocab(world / "draft", world / "target")
    assert out["notes"] == [STATED + ": vLLM and SGLang build fc from the config and fail to "
                                     "load fc.weight"]


def test_vocab_keeps_the_configs_verifier_that_fits_the_weights(world):
    out = check_drafter_vocab(world / "draft")
    assert out["target_source"] == "speculators_config.verifier"
    assert out["target"] == str(world / "target")
    assert not any("not used" in note or "own vocab_size" in note for note in out["notes"])


def test_the_draft_as_saved_has_no_width_note(world, tmp_path):
    shutil.copytree(world, tmp_path / "saved")
    path = tmp_path / "saved" / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["target_hidden_size"] = None
    path.write_text(json.dumps(config))
    out = check_drafter_vocab(tmp_path / "saved" / "draft", tmp_path / "saved" / "target")
    assert out["notes"] == []
