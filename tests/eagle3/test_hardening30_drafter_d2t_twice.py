"""A speculators draft whose d2t maps two draft ids to one target id (draft id 5 given draft id
4's target: an edited or merged map). speculators' from_pretrained loads it without a word
(load_vocab_mappings checks nothing) and engines serve i + d2t[i] as it is. `drafter vocab`
said only "arange(DV) + d2t is not strictly increasing (the training recipes sort the
selected ids)", which reads as a sort to redo; sorting would not mend it. Now the line names
the two draft ids and the target id, and what serving does with it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def test_two_draft_ids_on_one_target_id_are_named(tmp_path):
    save_verifier_and_draft(tmp_path)
    draft = tmp_path / "twice"
    shutil.copytree(tmp_path / "draft", draft)
    tensors = load_file(str(draft / "model.safetensors"))
    d2t = tensors["d2t"].clone()
    target_of_4 = 4 + int(d2t[4])
    d2t[5] = target_of_4 - 5
    save_file(tensors | {"d2t": d2t}, str(draft / "model.safetensors"), {"format": "pt"})
    report = check_drafter_vocab(draft, tmp_path / "target")
    [check] = [c for c in report["checks"] if c["name"] == "d2t_offsets"]
    [issue] = [i for i in check["issues"] if i["kind"] == "d2t_not_increasing"]
    assert issue["message"] == (
        "arange(DV) + d2t is not strictly increasing (the training recipes sort the selected "
        f"ids); draft ids 4 and 5 both map to target id {target_of_4} (1 target id(s) named "
        "twice): that token is proposed from two lm_head rows and 1 selected id(s) are never "
        "proposed; save d2t again from the training's vocab map")
    assert issue["facts"] == {"named_twice": 1}


def test_an_unsorted_map_without_a_repeat_says_only_the_sort():
    from spec_debug.eagle3.vocab import check_d2t_offsets

    [issue] = check_d2t_offsets([1, -1, 0, 0], 10).issues  # target ids 1, 0, 2, 3
    assert issue.message == ("arange(DV) + d2t is not strictly increasing (the training "
                             "recipes sort the selected ids)")
    assert issue.facts == {"named_twice": 0}
