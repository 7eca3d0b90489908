"""`draft_vocab_coverage` of `drafter eval` against a target: the share of the target's own
greedy tokens that the draft vocabulary holds.

speculators builds t2d/d2t from token frequencies and reuses an existing frequency file
without recounting (src/speculators/train/vocab_mapping.py warns: "The d2t/t2d vocab mappings
derived from it will reflect the dataset and tokenizer of the run that wrote that file"). Such
a draft trains against the verifier's argmax restricted to its vocabulary
(`verifier_lm_head = lm_head[t2d]`), so its training accuracy looks fine while the engine
rejects every token the target picks outside it. Before: with a target the coverage was
counted on that restricted argmax, a draft id at every row, so it read 1.0 for any map (also
for one that holds none of the target's tokens). Now it is the share of the target's
unrestricted argmax inside the draft vocabulary, as with data tokens.
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

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import DV, V, save_verifier_and_draft, vllm_style_states  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = tmp_path_factory.mktemp("coverage")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(68)
    for i in range(3):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (18 + i,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root, verifier


def _target_greedy_tokens(root: Path, verifier) -> torch.Tensor:
    """The verifier's argmax at every scored row (rows 1..T-1 of each file: no loss mask),
    from the dump's final (pre-norm) slot through the verifier's own norm and lm_head."""
    tokens = []
    with torch.no_grad():
        for path in sorted((root / "data").glob("hs_*.safetensors")):
            final = load_file(path)["hidden_states"][1:, -1].float()
            tokens.append(verifier.lm_head(verifier.model.norm(final)).argmax(-1))
    return torch.cat(tokens)


def _eval(root: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_coverage_is_the_share_of_the_targets_tokens_in_the_draft_vocab(world):
    root, verifier = world
    t2d = load_file(root / "draft" / "model.safetensors")["t2d"]
    greedy = _target_greedy_tokens(root, verifier)
    expected = int(t2d[greedy].sum()) / greedy.numel()
    assert 0.2 < expected < 0.8  # a random half of the vocabulary: neither all nor none
    out = _eval(root)
    assert out["reference"] == "target_argmax"
    assert out["tokens"] == greedy.numel()  # the rows scored: every one (no loss mask)
    assert out["draft_vocab_coverage"] == pytest.approx(expected, abs=1e-12)


def test_a_map_holding_none_of_the_targets_tokens_covers_nothing(world, tmp_path):
    """A vocab map built from another run's frequencies: the draft vocabulary is DV tokens the
    target never picks on this dump; no served token can be accepted."""
    base, verifier = world
    root = tmp_path / "stale"
    shutil.copytree(base, root)
    greedy = _target_greedy_tokens(root, verifier)
    unused = torch.ones(V, dtype=torch.bool)
    unused[greedy] = False
    selected = unused.nonzero().reshape(-1)[:DV]
    assert selected.numel() == DV
    path = root / "draft" / "model.safetensors"
    tensors = load_file(path)
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    tensors.update(t2d=t2d, d2t=(selected - torch.arange(DV)).to(tensors["d2t"].dtype))
    save_file(tensors, str(path), metadata={"format": "pt"})

    out = _eval(root)
    assert out["draft_vocab_coverage"] == 0.0
    assert out["target_acceptance"] == [0.0, 0.0]


def test_the_table_says_the_share(world, tmp_path):
    """Said beside the table too: its full acc is training's metric (the restricted argmax),
    and nothing there told why target accept stays far below it."""
    root, verifier = world
    t2d = load_file(root / "draft" / "model.safetensors")["t2d"]
    greedy = _target_greedy_tokens(root, verifier)
    share = int(t2d[greedy].sum()) / greedy.numel()
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(root / "data"), "--target", str(root / "target"),
                                         "--steps", "2"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert (f"draft vocabulary holds {share:.1%} of the target's greedy tokens scored; the "
            "engine can accept no other") in result.output


def test_a_target_with_more_tokens_than_the_draft(world, tmp_path):
    """A target whose embedding and lm_head have rows past the draft's vocabulary (the draft
    built for another revision, SD303): its greedy tokens past them are outside the draft
    vocabulary, and the evaluation still runs."""
    base, verifier = world
    root = tmp_path / "bigger"
    shutil.copytree(base, root)
    path = root / "target" / "model.safetensors"
    tensors = load_file(path)
    generator = torch.Generator().manual_seed(5)
    for name in ("model.embed_tokens.weight", "lm_head.weight"):
        extra = torch.randn(44, tensors[name].shape[1], generator=generator) * 0.02
        tensors[name] = torch.cat([tensors[name], extra.to(tensors[name].dtype)]).contiguous()
    save_file(tensors, str(path), metadata={"format": "pt"})
    config = json.loads((root / "target" / "config.json").read_text())
    (root / "target" / "config.json").write_text(json.dumps({**config, "vocab_size": V + 44}))

    t2d = load_file(root / "draft" / "model.safetensors")["t2d"]
    greedy = []
    with torch.no_grad():
        for sample in sorted((root / "data").glob("hs_*.safetensors")):
            final = verifier.model.norm(load_file(sample)["hidden_states"][1:, -1].float())
            greedy.append((final @ tensors["lm_head.weight"].float().T).argmax(-1))
    greedy = torch.cat(greedy)
    assert 0 < int((greedy >= V).sum()) < greedy.numel()  # some rows pick a token past the draft's ids
    inside = greedy[greedy < V]
    expected = int(t2d[inside].sum()) / greedy.numel()
    assert expected > 0

    out = _eval(root)
    assert {issue["code"] for issue in out["vocab_issues"]} == {"SD303"}
    assert out["draft_vocab_coverage"] == pytest.approx(expected, abs=1e-12)
