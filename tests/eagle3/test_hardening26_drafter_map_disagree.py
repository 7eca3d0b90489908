"""d2t and t2d of a draft speculators saved, broken against each other as exports break them.

A t2d with one True too many (or too few): speculators' load_vocab_mappings refuses it, and
engines read only d2t, which is still a consistent map. The check blamed d2t too ("SD302
arange(DV) + d2t differs from t2d.nonzero() first at draft id 0", every id after the extra one
shifted) and said nothing of how to fix either. Maps of the same count that name different ids
said where they first differ, not which ids, what it costs or how to fix it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("map_disagree")
    save_verifier_and_draft(root)
    return root


def _broken(saved: Path, tmp_path: Path, edit) -> Path:
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    state = load_file(draft / "model.safetensors")
    edit(state)
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    return draft


def _issues(draft: Path, target: Path) -> list[dict]:
    report = check_drafter_vocab(draft, target)
    return [issue for check in report["checks"] for issue in check["issues"]]


def test_a_t2d_with_one_true_too_many_is_named_alone_with_its_rebuild(saved, tmp_path):
    def one_more(state):
        state["t2d"] = state["t2d"].clone()
        state["t2d"][int((~state["t2d"]).nonzero()[0])] = True

    draft = _broken(saved, tmp_path, one_more)
    state = load_file(draft / "model.safetensors")
    from speculators.models.eagle3 import Eagle3DraftModel
    with pytest.raises(ValueError, match="non-zero values"):  # the reference refuses it
        Eagle3DraftModel.load_vocab_mappings(_VocabSizes(), state["t2d"], state["d2t"])
    issues = _issues(draft, saved / "target")
    assert [(i["code"], i["kind"]) for i in issues] == [("SD303", "t2d_count")], issues
    extra = int((state["t2d"] & ~_from_d2t(state["d2t"])).nonzero()[0])
    message = issues[0]["message"]
    assert f"1 target id(s) d2t does not map ({extra})" in message
    assert "t2d[arange(DV) + d2t] = True" in message


def test_maps_of_the_same_count_naming_other_ids_say_which_and_the_fix(saved, tmp_path):
    def shifted(state):
        state["d2t"] = state["d2t"].clone()
        state["d2t"][5] += 1

    draft = _broken(saved, tmp_path, shifted)
    state = load_file(draft / "model.safetensors")
    (issue,) = _issues(draft, saved / "target")
    assert issue["code"] == "SD302" and issue["kind"] == "d2t_t2d_mismatch"
    served, trained = 5 + int(state["d2t"][5]), int(state["t2d"].nonzero()[5])
    assert (f"at 1 of 128 draft ids, first at draft id 5 (d2t maps it to target id {served}, "
            f"t2d selects {trained})") in issue["message"]
    assert "d2t = t2d.nonzero() - arange(DV)" in issue["message"]


class _VocabSizes:
    """The attributes speculators' load_vocab_mappings reads (src/speculators/model.py)."""
    use_draft_vocab, verifier_vocab_size, draft_vocab_size = True, 256, 128


def _from_d2t(d2t):
    mask = torch.zeros(256, dtype=torch.bool)
    mask[torch.arange(d2t.shape[0]) + d2t] = True
    return mask


def test_a_target_of_another_vocab_is_named_as_such(saved, tmp_path):
    """The draft speculators saved, checked against a target revision with 64 more tokens
    (a tokenizer with added tokens): t2d and embed_tokens both have the old 256 entries."""
    from transformers import LlamaConfig, LlamaForCausalLM

    kw = {"hidden_size": 32, "intermediate_size": 64, "num_attention_heads": 4,
          "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 128}
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=8, vocab_size=320, **kw)).save_pretrained(
        tmp_path / "target")
    issues = {i["kind"]: i["message"] for i in _issues(saved / "draft", tmp_path / "target")}
    assert set(issues) == {"t2d_length", "embed_rows"}
    assert ("t2d and embed_tokens agree on a 256-token vocabulary: the draft was built for "
            "another target or revision than this 320-token one") in issues["t2d_length"]
    assert "pass the target it was trained on as --target" in issues["t2d_length"]
    assert issues["embed_rows"].endswith("(the vocabulary t2d has: see that line)")
