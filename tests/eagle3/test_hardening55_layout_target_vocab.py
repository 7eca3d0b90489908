"""`drafter layout --target` naming a model of the draft's hidden size but another vocabulary
(another revision: Mistral-7B v0.1's 32000 tokens against v0.3's 32768, both 4096 wide):
every layout scores near zero against that target's argmax and the verdict sent the user to
the dump ("check that the dump is of the draft's own target"), with no word of the vocab
that `drafter eval` and `drafter vocab` report as SD303. The layout probe now carries the
same SD303 notes. The draft and dump are saved by speculators 0.9.0; the other target by
transformers."""

from __future__ import annotations

import json
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h55_layout_target_vocab", seed=3)


def _other_vocab_target(world: Path, vocab: int) -> Path:
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig.from_pretrained(str(world / "target"))
    config.vocab_size = vocab
    torch.manual_seed(7)
    out = world / f"target_{vocab}"
    LlamaForCausalLM(config).eval().save_pretrained(out)
    return out


def _layout(world: Path, target: Path) -> dict:
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(target), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_target_of_another_vocab_is_named_by_the_layout_probe(world):
    out = _layout(world, _other_vocab_target(world, 300))
    [t2d] = [n for n in out["notes"] if n.startswith("SD303: t2d has 256 entries, the target vocab is 300")]
    assert "the draft was built for another target or revision" in t2d
    assert any(n.startswith("SD303: embed_tokens has 256 rows, the target vocab is 300") for n in out["notes"])


def test_the_draft_s_own_target_has_no_vocab_note(world):
    out = _layout(world, world / "target")
    assert not [n for n in out["notes"] if "SD30" in n], out["notes"]
    assert "matches this dump" in out["verdict"]
