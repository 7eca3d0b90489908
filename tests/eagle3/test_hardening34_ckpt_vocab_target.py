"""`drafter vocab` and the target it checks against, on speculators 0.9.0 drafts whose config
was then edited. Before: without a target (--no-verifier, a verifier that is not here) every
check read "ok" against the draft's own vocab_size with no word of it, and the missing
verifier's note spoke of scoring ("scored against the data's next tokens"), which vocab does
not do; a config whose hidden_size disagrees with the weights made the right verifier read as
the wrong one ("has hidden_size 32, the draft takes 64-wide states: not used")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import H, save_verifier_and_draft  # noqa: E402

OWN_VOCAB = "the maps and embedding were checked against the draft config's own vocab_size"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("saved")
    save_verifier_and_draft(root)
    return root


def _edited(saved: Path, tmp_path: Path, edit) -> Path:
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    config = json.loads((draft / "config.json").read_text())
    edit(config)
    (draft / "config.json").write_text(json.dumps(config, indent=2))
    return draft


def test_without_a_target_the_report_says_what_it_checked_against(saved):
    report = check_drafter_vocab(saved / "draft", find_verifier=False)
    assert report["ok"] is True and report["target"] is None
    assert [note for note in report["notes"] if OWN_VOCAB in note] == [
        f"no target: {OWN_VOCAB}, not a target's; pass --target DIR (the target's config.json "
        "will do) to check them against the vocabulary the draft is served with"]


def test_a_verifier_that_is_not_here_is_not_said_to_score(saved, tmp_path):
    draft = _edited(saved, tmp_path, lambda c: c["speculators_config"]["verifier"].update(
        name_or_path=str(tmp_path / "gone" / "Llama-3.1-8B-Instruct")))
    report = check_drafter_vocab(draft)
    [note] = [note for note in report["notes"] if "names its verifier" in note]
    assert "scored" not in note
    assert note.endswith(f"nor in the Hugging Face cache: {OWN_VOCAB}, not a target's; pass "
                         "--target DIR (the target's config.json will do) to check them "
                         "against the vocabulary the draft is served with")


def test_a_config_wider_than_its_weights_still_uses_the_verifier_that_fits_them(saved, tmp_path):
    draft = _edited(saved, tmp_path, lambda c: c["transformer_layer_config"].update(
        hidden_size=2 * H))
    report = check_drafter_vocab(draft)
    assert report["target_source"] == "speculators_config.verifier"
    assert report["target"] == str(saved / "target")
    assert not [note for note in report["notes"] if "not used" in note]


def test_a_target_of_another_width_given_as_target_is_named(saved, tmp_path):
    """A draft trained for a wider member of the family (one tokenizer, another hidden size)
    served with the narrower one: every vocab check passes, and eval refuses the pair. Before:
    nothing said it."""
    other = tmp_path / "other"
    other.mkdir()
    config = json.loads((saved / "target" / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "hidden_size": 2 * H}))
    report = check_drafter_vocab(saved / "draft", other)
    assert report["ok"] is True
    assert f"the target {other} has hidden_size {2 * H}, the draft takes {H}-wide target states " \
           "(fc.weight): it was trained for another target; only its vocabulary was checked " \
           "against this one" in report["notes"]


def test_a_config_with_the_datagen_final_slot_in_its_aux_ids_still_uses_the_verifier(saved,
                                                                                      tmp_path):
    # the aux ids are what is wrong there (fc takes 3 states of the configured width, not 4)
    draft = _edited(saved, tmp_path, lambda c: c.update(
        eagle_aux_hidden_state_layer_ids=[*c["eagle_aux_hidden_state_layer_ids"], 7]))
    report = check_drafter_vocab(draft)
    assert report["target_source"] == "speculators_config.verifier"
    assert not [note for note in report["notes"] if "not used" in note]
