"""The configs step compares the draft's vocabulary tensors (d2t, t2d, embed_tokens, lm_head)
with its config and the target's vocab_size, from the safetensors headers alone.

Before: only the vocab step did, and it needs torch on the host (the drafter reads the maps'
values); on a serving host without the drafter's venv a draft built for another tokenizer, a
d2t cut short or a checkpoint exported without d2t (vLLM then serves draft id i as target id i:
NVIDIA-NeMo/Automodel#2447) passed the configs step without a word. The shapes are
speculators' (src/speculators/model.py load_vocab_mappings: t2d [V], d2t [DV]; embed_tokens
[V, H], lm_head [DV, H]). The world is a speculators 0.9.0 draft over its verifier; each
damage is written with safetensors' own save_file, or the configs edited as a user would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import DV, V  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

VOCAB_CODES = ("SD301", "SD302", "SD303")


def _vocab_lines(findings):
    return [(f.code, f.severity, f.evidence) for f in findings if f.code in VOCAB_CODES]


def _vocab_step(root):
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return _vocab_lines(vocab_step.check(context(vocab_step.parse(raw), VLLM)))


@pytest.fixture
def copy(tmp_path, world):
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _edit(path, **changes):
    config = json.loads(path.read_text())
    config.update(changes)
    path.write_text(json.dumps(config, indent=2))


def _rewrite_draft(root, change):
    from safetensors.torch import load_file, save_file

    weights = root / "draft" / "model.safetensors"
    tensors = load_file(weights)
    save_file(change(tensors), weights, metadata={"format": "pt"})


def test_the_draft_as_speculators_saved_it_has_no_vocab_finding(world):
    assert _vocab_lines(_configs(world, VLLM)) == []


def test_a_target_of_another_vocabulary_is_sd303_as_the_vocab_step_says(copy):
    _edit(copy / "target" / "config.json", vocab_size=V + 44)
    found = _vocab_lines(_configs(copy, VLLM))
    assert found == [("SD303", "error", [
        f"t2d has {V} entries, the target vocab is {V + 44} (t2d and embed_tokens agree on a "
        f"{V}-token vocabulary: the draft was built for another target or revision than this "
        f"{V + 44}-token one; pass the target it was trained on as --var target_model, or train "
        "the draft for this one)",
        f"embed_tokens has {V} rows, the target vocab is {V + 44} (the vocabulary t2d has: see "
        "that line)"])]
    # the same words the vocab step's drafter says from the tensors' values
    assert _vocab_step(copy) == found


def test_a_draft_saved_without_d2t_is_sd301(copy):
    _rewrite_draft(copy, lambda tensors: {k: v for k, v in tensors.items() if k != "d2t"})
    assert _vocab_lines(_configs(copy, VLLM)) == [("SD301", "error", [
        f"draft vocab {DV} < target vocab {V} but the checkpoint has no d2t: engines read draft "
        "id i as target id i"])]


def test_a_d2t_cut_short_is_sd302(copy):
    _rewrite_draft(copy, lambda tensors: {**tensors, "d2t": tensors["d2t"][:DV - 28].clone()})
    assert _vocab_lines(_configs(copy, VLLM)) == [("SD302", "error", [
        f"d2t has {DV - 28} entries, draft vocab is {DV}: vLLM loads d2t into its [{DV}] "
        "draft_id_to_target_id, whose loader asserts equal sizes, and does not start; SGLang loads "
        f"it as its hot-token map and breaks at the first draft id of {DV - 28} or more "
        "(hot_token_id[topk_index] out of range: a CUDA device-side assert)"])]


def test_a_draft_vocab_size_edited_away_from_lm_head_is_sd303_without_a_target(copy):
    _edit(copy / "draft" / "config.json", draft_vocab_size=DV - 28)
    expected = [("SD303", "error", [
        f"config draft_vocab_size is {DV - 28} but lm_head has {DV} rows: engines size lm_head "
        "from the config and fail to load it or drop rows"])]
    assert _vocab_lines(_configs(copy, VLLM)) == expected
    assert _vocab_step(copy) == expected


def test_the_configs_step_decides_it_without_torch(copy):
    """What the fix is for: the probe and the step run where torch cannot be imported."""
    _edit(copy / "target" / "config.json", vocab_size=V + 44)
    script = (
        "import sys, json\n"
        "sys.modules['torch'] = None\n"
        "from spec_debug.probes import model_configs\n"
        "from spec_debug.diagnose.steps import configs_step\n"
        "from tests.diagnose.test_steps import context\n"
        f"raw = model_configs.run({{'draft_model': {str(copy / 'draft')!r}, "
        f"'target_model': {str(copy / 'target')!r}}})\n"
        "found = configs_step.check(context(configs_step.parse(raw), "
        "{'engine': {'name': 'vllm', 'version': '0.12.0'}}))\n"
        "print(json.dumps(sorted({f.code for f in found})))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert json.loads(out.stdout.splitlines()[-1]) == ["SD303"]


def _configs_then_vocab(root):
    """Both steps in a run's order: the vocab step sees the configs step's facts."""
    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes import model_configs

    facts = configs_step.parse(model_configs.run({"draft_model": str(root / "draft"),
                                                  "target_model": str(root / "target")}))
    configs = _vocab_lines(configs_step.check(context(facts, VLLM)))
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    vocab = vocab_step.check(context(vocab_step.parse(raw), {**VLLM, **facts}))
    return configs, _vocab_lines(vocab)


def test_the_vocab_step_does_not_say_the_configs_steps_lines_again(copy):
    _edit(copy / "target" / "config.json", vocab_size=V + 44)
    configs, vocab = _configs_then_vocab(copy)
    assert [code for code, _, _ in configs] == ["SD303"]
    assert vocab == []


def test_the_vocab_step_keeps_a_line_that_says_more(copy):
    _rewrite_draft(copy, lambda tensors: {k: v for k, v in tensors.items() if k != "d2t"})
    configs, vocab = _configs_then_vocab(copy)
    assert [code for code, _, _ in configs] == ["SD301"]
    # the values show t2d selects the draft's ids: d2t rebuilt from it, a line the headers
    # cannot give
    assert vocab == [("SD301", "error", [
        f"draft vocab {DV} < target vocab {V} but the checkpoint has no d2t: engines read draft "
        f"id i as target id i; the checkpoint's t2d selects the {DV} draft ids: save d2t = "
        f"t2d.nonzero().squeeze(1) - arange({DV}) (int64) beside it"])]
