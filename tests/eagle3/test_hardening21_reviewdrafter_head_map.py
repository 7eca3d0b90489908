"""The lm_head/map check (SD302 d2t_misaligns_lm_head, spec_debug/eagle3/head_map.py) on the
heads real targets have, and in `drafter vocab` and the playbook's vocab step as in eval.

speculators 0.9.0 copies the draft's lm_head from the verifier rows t2d selects and freezes it
(src/speculators/model.py DraftVocabMixin), so a map of another selection sends every draft id
to another token; the worlds here are saved by speculators itself (speculators_world.py)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.diagnose.checks.vocab_maps import check_vocab_report  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
# the map of another selection and the note's start, as the check's first tests build them
from tests.eagle3.test_hardening21_drafter_head_map import NOTE, _other_selection  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h21_review_head_map"), seed=5)


@pytest.fixture
def world(base, tmp_path) -> Path:
    root = tmp_path / "case"
    shutil.copytree(base, root)
    return root


def _rewrite(path: Path, change) -> None:
    tensors = load_file(str(path))
    change(tensors)
    save_file(tensors, str(path), metadata={"format": "pt"})


def _eval_notes(root: Path) -> list[str]:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["notes"]


def _vocab(root: Path) -> tuple[int, list[dict]]:
    result = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                         str(root / "target"), "--json"])
    issues = [i for c in json.loads(result.output)["checks"] for i in c["issues"]]
    return result.exit_code, issues


def test_the_playbook_vocab_step_names_the_misaligned_map(world):
    """The host probe of the vocab step runs check_drafter_vocab: the map of another selection
    is the step's SD302 finding, with the rows it read."""
    d2t, t2d = _other_selection()
    _rewrite(world / "draft" / "model.safetensors", lambda s: s.update(d2t=d2t, t2d=t2d))
    report = vocab_maps.run({"draft_model": str(world / "draft"),
                             "target_model": str(world / "target")})["report"]
    [finding] = check_vocab_report(report)
    assert finding.code == "SD302" and any(NOTE in line for line in finding.evidence)
    assert finding.facts["issues"] == ["d2t_misaligns_lm_head"]


@pytest.mark.parametrize("fill", ["zeros", "shared"])
def test_rows_equal_to_many_target_rows_say_nothing(world, fill):
    """Real heads hold identical rows for unused and special tokens (zeros, or one shared
    init row). A draft whose lm_head rows are such a row (here an incomplete copy, all zeros,
    or rows of that shared vector) matches many target tokens at once: which one it was copied
    from is unknown, so no map is named misaligned."""
    t2d = load_file(str(world / "draft" / "model.safetensors"))["t2d"]
    unused = (~t2d.bool()).nonzero().reshape(-1)

    def target(state):
        row = torch.zeros_like(state["lm_head.weight"][0]) if fill == "zeros" \
            else torch.full_like(state["lm_head.weight"][0], 0.05)
        state["lm_head.weight"][unused] = row

    _rewrite(world / "target" / "model.safetensors", target)
    shared = load_file(str(world / "target" / "model.safetensors"))["lm_head.weight"][unused[0]]
    _rewrite(world / "draft" / "model.safetensors",
             lambda s: s.update({"lm_head.weight": shared.expand_as(s["lm_head.weight"]).clone()}))
    assert not [note for note in _eval_notes(world) if NOTE in note]
    assert "d2t_misaligns_lm_head" not in [i["kind"] for i in _vocab(world)[1]]


def _fp8_head(state: dict) -> None:
    """The target's lm_head in FP8 as llm-compressor stores it (float8_e4m3fn with a
    per-row `weight_scale`), dequantized on read: rows differ from the bf16 copy by ~3%."""
    fp8_max = torch.finfo(torch.float8_e4m3fn).max
    weight = state["lm_head.weight"].float()
    scale = weight.abs().amax(1, keepdim=True) / fp8_max  # [V, 1]
    state["lm_head.weight"] = (weight / scale).to(torch.float8_e4m3fn)
    state["lm_head.weight_scale"] = scale


def test_an_fp8_target_head_keeps_the_check(base, world):
    """The same draft against the FP8 release of its target: its own map gets no word, a map
    of another selection is still named (with 1% room the dequantized rows matched nothing)."""
    _rewrite(world / "target" / "model.safetensors", _fp8_head)
    assert not [note for note in _eval_notes(world) if NOTE in note]
    d2t, t2d = _other_selection()
    _rewrite(world / "draft" / "model.safetensors", lambda s: s.update(d2t=d2t, t2d=t2d))
    assert [note for note in _eval_notes(world) if NOTE in note]
    code, issues = _vocab(world)
    assert code == 1 and [i["kind"] for i in issues] == ["d2t_misaligns_lm_head"]


def test_a_target_of_config_only_is_not_said_to_pass(world):
    """A target directory holding only config.json (the vocab check takes it for the vocab
    size) has no head to compare the draft's rows with: the check is skipped, not passed."""
    (world / "target" / "model.safetensors").unlink()
    result = runner.invoke(drafter_app, ["vocab", "--model", str(world / "draft"), "--target",
                                         str(world / "target"), "--json"])
    assert result.exit_code == 0, result.output
    [check] = [c for c in json.loads(result.output)["checks"] if c["name"] == "lm_head_map"]
    assert check["skipped"] and check["ok"]
