"""`drafter eval --json` keeps raw per-step sums in `counts` so results of several hosts or
shards add up; `draft_vocab_coverage` was a bare ratio with no sums beside it, so two shards'
coverages could only be averaged (wrong when the shards score different row counts). Now
`counts` holds draft_vocab_rows (rows scored) and draft_vocab_hits (those whose reference
token the draft vocabulary holds), one entry each."""

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

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import V, save_verifier_and_draft, vllm_style_states  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("coverage-counts")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(69)
    for i, length in enumerate((12, 30, 17)):  # shards of unequal row counts
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (length,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root, verifier


def _eval(root: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(data), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _greedy_in_vocab(root: Path, verifier, files: list[Path]) -> tuple[int, int]:
    """(rows scored, rows whose target argmax the draft's t2d holds): rows 1..T-1 of each file."""
    t2d = load_file(root / "draft" / "model.safetensors")["t2d"]
    hits = rows = 0
    with torch.no_grad():
        for path in files:
            final = load_file(path)["hidden_states"][1:, -1].float()
            greedy = verifier.lm_head(verifier.model.norm(final)).argmax(-1)
            hits += int(t2d[greedy].sum())
            rows += greedy.numel()
    return rows, hits


def test_coverage_sums_add_up_across_shards(world, tmp_path):
    root, verifier = world
    files = sorted((root / "data").glob("hs_*.safetensors"))
    shards = [tmp_path / "a", tmp_path / "b"]
    for shard, part in zip(shards, (files[:1], files[1:])):
        shard.mkdir()
        for path in part:
            shutil.copy(path, shard / path.name)

    whole = _eval(root, root / "data")
    parts = [_eval(root, shard) for shard in shards]
    for out, part in zip(parts + [whole], (files[:1], files[1:], files)):
        rows, hits = _greedy_in_vocab(root, verifier, part)
        assert (out["counts"]["draft_vocab_rows"], out["counts"]["draft_vocab_hits"]) == (
            [float(rows)], [float(hits)])
        assert out["draft_vocab_coverage"] == pytest.approx(hits / rows, abs=1e-12)
    # the shards' sums give the whole's coverage; their mean coverage does not
    rows = sum(p["counts"]["draft_vocab_rows"][0] for p in parts)
    hits = sum(p["counts"]["draft_vocab_hits"][0] for p in parts)
    assert hits / rows == pytest.approx(whole["draft_vocab_coverage"], abs=1e-12)
    assert rows == whole["counts"]["draft_vocab_rows"][0]
    # the per-step sums are still per step, and add up likewise
    for key in ("full_correct", "full_total", "target_correct"):
        assert [a + b for a, b in zip(parts[0]["counts"][key], parts[1]["counts"][key])] == \
            whole["counts"][key], key
