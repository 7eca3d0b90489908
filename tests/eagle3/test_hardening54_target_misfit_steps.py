"""A speculators draft audited with `spec-debug run perf_regression --host local` against a
target it was not made for: a 64-wide Llama (the draft's fc takes 3 x 32), or a draft whose
vocabulary is 320 tokens over a 256-token target. The configs step said SD204, the vocab step
SD303; then hidden_layout and drafter_eval each failed as a step that could not run (SD003
warnings, "CheckpointError ... hint: --target must be the model the draft was trained for"),
two more warnings for the one fault. They now say, as info lines, that they did not run
because the draft does not fit this target, naming SD204 / SD303 as reported above. The
worlds are saved by speculators 0.9.0 and transformers; the second's draft is then widened."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

from tests.eagle3.speculators_world import save_informative_world  # noqa: E402
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run  # noqa: E402


def _wider_target(root):
    from transformers import LlamaConfig, LlamaForCausalLM

    config = json.loads((root / "target" / "config.json").read_text())
    keep = {k: v for k, v in config.items() if k not in ("architectures", "transformers_version", "dtype",
                                                         "torch_dtype", "head_dim")}
    torch.manual_seed(1)
    LlamaForCausalLM(LlamaConfig(**{**keep, "hidden_size": 64, "intermediate_size": 128})).save_pretrained(
        str(root / "target64"))
    return root / "target64"


def _larger_vocab(root):
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["vocab_size"] = 320
    path.write_text(json.dumps(config, indent=2))
    weights = load_file(str(root / "draft" / "model.safetensors"))
    embed = weights["embed_tokens.weight"]
    weights["embed_tokens.weight"] = torch.cat([embed, torch.randn(64, embed.shape[1])])
    weights["t2d"] = torch.cat([weights["t2d"], torch.zeros(64, dtype=torch.bool)])
    save_file(weights, str(root / "draft" / "model.safetensors"))
    return root / "target"


@pytest.mark.parametrize("fault, cause", [(_wider_target, "SD204"), (_larger_vocab, "SD303")])
def test_the_steps_that_run_the_draft_name_the_misfit_once(cli, tmp_path, fault, cause):
    root = save_informative_world(tmp_path / "w", seed=0)
    target = fault(root)
    out = tmp_path / "runs"
    result = cli("run", "perf_regression", "--host", "local", "--out", str(out),
                 "--var", f"draft_model={root / 'draft'}", "--var", f"target_model={target}",
                 "--var", f"hidden_states={root / 'data'}", "--var", "engine=vllm",
                 "--var", "engine_version=0.12.0",
                 cwd=tmp_path, timeout=300)
    assert_clean_cli(result)
    _, record = load_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["hidden_layout"]["status"] == steps["drafter_eval"]["status"] == "passed"
    assert "SD003" not in {f["code"] for f in record["findings"]}
    assert [f["severity"] for f in record["findings"] if f["code"] == cause] == ["error"]
    for step, what in (("hidden_layout", "layout probe not run"), ("drafter_eval", "standalone accuracy not measured")):
        [line] = [f for f in record["findings"] if f["step"] == step and cause in f["title"]]
        assert (line["code"], line["severity"]) == ("SD004", "info")
        assert line["evidence"][0].startswith(f"{what}: the draft does not fit this target ({cause}, reported above): ")
