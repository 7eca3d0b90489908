"""The EAGLE repo's state_<epoch> folder without its weights: accelerate's optimizer.bin.

The EAGLE repo's trainers (SafeAILab/EAGLE eagle/train*/main*.py) save each epoch with
accelerate's save_state(output_dir=f"{cpdir}/state_{epoch}"), which writes the model's
weights and, beside them, optimizer.bin, scheduler.bin, sampler.bin, scaler.pt and
random_states_0.pkl (huggingface/accelerate src/accelerate/checkpointing.py). A copy that
took the config and the state files but not the weights was told "only torch.save file(s)
under other names: optimizer.bin, sampler.bin, scheduler.bin" with the hint to convert them to
model.safetensors: they hold an optimizer's and a sampler's state, not weights. They are now
named as a trainer's state, weights missing, as transformers' optimizer.pt already was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402

# The EAGLE repo's EAGLE-3 config (a LlamaConfig with draft_vocab_size), tiny
CONFIG = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 32,
          "intermediate_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2,
          "num_hidden_layers": 1, "vocab_size": 256, "draft_vocab_size": 128,
          "rms_norm_eps": 1e-6, "max_position_embeddings": 128, "torch_dtype": "float32"}


def _state_folder(out: Path) -> Path:
    """state_3 as accelerate's save_state writes it, less the model's weights."""
    out.mkdir()
    (out / "config.json").write_text(json.dumps(CONFIG))  # main.py copies it in
    layer = torch.nn.Linear(4, 4)
    optimizer = torch.optim.AdamW(layer.parameters())
    layer(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    torch.save(optimizer.state_dict(), out / "optimizer.bin")
    torch.save(torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0).state_dict(),
               out / "scheduler.bin")
    torch.save({"epoch": 3, "step": 0}, out / "sampler.bin")
    torch.save({"scale": 65536.0}, out / "scaler.pt")
    torch.save({"torch_manual_seed": torch.get_rng_state()}, out / "random_states_0.pkl")
    return out


def test_accelerates_state_files_are_a_trainers_state_not_weights(tmp_path):
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(_state_folder(tmp_path / "state_3"))])
    output = " ".join(result.output.split())
    assert result.exit_code != 0 and "Traceback" not in output
    assert "only a trainer's optimizer/scheduler state (optimizer.bin" in output
    assert "the weights were not saved or not copied here" in output
    assert "save it as model.safetensors" not in output and "under other names" not in output
