"""A t2d cut short at its end (e.g. saved from a tokenizer shorter than the target's vocab) beside
a d2t engines can serve, in a draft speculators saved. The t2d lines said it (length, count), but
d2t_offsets failed too with "SD302 arange(DV) + d2t differs from t2d.nonzero() at 0 of 128 draft
ids": d2t blamed for t2d's length, at no id. And a t2d that only lacks ids read "against d2t ...
it holds lacks 28 that d2t maps"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import DV, save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("t2d_cut")
    save_verifier_and_draft(root)
    return root


def _broken(saved: Path, tmp_path: Path, edit) -> tuple[Path, dict]:
    draft = tmp_path / "draft"
    shutil.copytree(saved / "draft", draft)
    state = load_file(draft / "model.safetensors")
    edit(state)
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    return draft, state


def _issues(draft: Path, target: Path) -> list[dict]:
    report = check_drafter_vocab(draft, target)
    return [dict(issue, check=check["name"]) for check in report["checks"] for issue in check["issues"]]


def test_a_t2d_cut_short_is_not_blamed_on_d2t(saved, tmp_path):
    def cut(state):
        state["t2d"] = state["t2d"][:200].contiguous()

    draft, state = _broken(saved, tmp_path, cut)
    lost = int(state["t2d"].sum())
    assert lost < DV  # the cut drops selected ids
    issues = _issues(draft, saved / "target")
    assert "d2t_t2d_mismatch" not in [i["kind"] for i in issues], issues
    assert {i["check"] for i in issues} == {"t2d"}, issues
    assert any(f"it lacks {DV - lost} that d2t maps" in i["message"] for i in issues), issues
    assert not any("holds lacks" in i["message"] for i in issues), issues


def test_a_t2d_that_only_lacks_an_id_says_so_in_words(saved, tmp_path):
    def one_less(state):
        state["t2d"] = state["t2d"].clone()
        state["t2d"][int(state["t2d"].nonzero()[3])] = False

    draft, state = _broken(saved, tmp_path, one_less)
    issues = _issues(draft, saved / "target")
    assert [i["kind"] for i in issues] == ["t2d_count"], issues
    assert "(a consistent map of 128 ids, what engines serve) it lacks 1 that d2t maps" \
        in issues[0]["message"], issues
