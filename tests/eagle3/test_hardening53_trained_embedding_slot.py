"""A draft trained with its own embedding (speculators `embed_requires_grad: true`: the
copied verifier table is trained on, so the saved embed_tokens drifts from the target's),
evaluated on a dump that starts at the embedding output (the incident's cat([embed, layer3,
layer31])). The dump holds the TARGET's embedding output; eval compared its slots with the
draft's own table, which never matched, so the fed embedding slot got no word, while
`drafter layout` (which reads the target's table) named it. Now eval compares with the
target's rows when the target was read. The draft is saved by speculators 0.9.0, its
embedding then moved as training it would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401
from tests.eagle3.test_hardening52_fed_embedding_slot import SAID, _with_embedding

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h53_trained_embedding", seed=3)


def _trained_embedding_draft(world: Path) -> Path:
    from safetensors.torch import load_file, save_file

    out = world / "draft_trained_embed"
    if not out.exists():
        shutil.copytree(world / "draft", out)
        [weights] = sorted(out.glob("*.safetensors"))
        tensors = load_file(str(weights))
        assert "embed_tokens.weight" in tensors
        generator = torch.Generator().manual_seed(53)
        table = tensors["embed_tokens.weight"]
        tensors["embed_tokens.weight"] = (table.float() + 0.02 * table.float().std() * torch.randn(
            table.shape, generator=generator)).to(table.dtype)
        save_file(tensors, str(weights), metadata={"format": "pt"})
        config = json.loads((out / "config.json").read_text())
        config["embed_requires_grad"] = True
        (out / "config.json").write_text(json.dumps(config, indent=2))
    return out


def _notes(world: Path, draft: Path, data: Path, *extra: str) -> list[str]:
    result = runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data", str(data),
                                         "--target", str(world / "target"), "--steps", "2",
                                         "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["notes"]


def test_the_embedding_slot_is_named_for_a_draft_with_its_own_embedding(world):
    draft = _trained_embedding_draft(world)
    data = _with_embedding(world, "data_embed_incident", [0, 1, 3])  # embed, 2, 4, final
    [said] = [n for n in _notes(world, draft, data) if SAID in n]
    assert said.startswith("slot 0 (fed to fc as layer 2) is exactly the embedding output")
    assert "the draft's aux layers are [2, 4, 5]" in said


def test_the_dump_as_captured_still_gets_no_note(world):
    draft = _trained_embedding_draft(world)
    assert not any(SAID in n for n in _notes(world, draft, world / "data"))
