"""forward_source reads the eagle3 file the engine runs the served draft with (round 26).

vLLM >= 0.24 runs a Qwen3 draft with model_executor/models/qwen3_eagle3.py
(Eagle3Qwen3ForCausalLM in registry.py's _SPECULATIVE_DECODING_MODELS) and an MLA draft
(Eagle3DeepseekV2ForCausalLM, the Kimi-K2 eagle3-mla heads) with deepseek_eagle3.py, as does
SGLang (python/sglang/srt/models/deepseek_eagle3.py, whose MLA layer reads no norm flag). The
probe read llama_eagle3.py whatever the draft, so a norm flag the served file never reads was
found "implemented" and SD601 stayed silent."""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.checks.forward import forward_differences
from spec_debug.eagle3 import engines
from spec_debug.probes import forward_source

# A Llama file that reads every flag, and MLA / Qwen3 files that read none of fc_norm:
# the shapes of the real files are cited above; these are tiny stand-ins.
LLAMA = ("import torch\n\nclass LlamaDecoderLayer:\n    def forward(self, embeds, hidden_states):\n"
         "        if self.config.fc_norm:\n            hidden_states = self.fc_norm(hidden_states)\n"
         "        return torch.cat([embeds, hidden_states], dim=-1)\n")
OTHER = ("import torch\n\nclass {name}DecoderLayer:\n    def forward(self, embeds, hidden_states):\n"
         "        return torch.cat([embeds, hidden_states], dim=-1)\n")


def _engine(tmp_path, package, models, *stems):
    root = tmp_path / package
    (root / models).mkdir(parents=True)
    (root / models / "llama_eagle3.py").write_text(LLAMA)
    for stem in stems:
        (root / models / f"{stem}.py").write_text(OTHER.format(name=stem.title().replace("_", "")))
    return root


def _draft(tmp_path, config):
    folder = tmp_path / "draft"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config))
    return str(folder)


def _described(monkeypatch, package, root, draft_dir):
    monkeypatch.setattr(forward_source, "package_dir", lambda name: (root, "0.30.0"))
    draft = forward_source._served_draft_config({"draft_model": draft_dir}, lambda: [])
    return forward_source.describe(package, None, None, draft_config=draft)


QWEN3_SPECULATORS = {"speculators_model_type": "eagle3", "architectures": ["Eagle3Speculator"],
                     "transformer_layer_config": {"model_type": "qwen3", "hidden_size": 16}, "fc_norm": True}
MLA = {"architectures": ["Eagle3DeepseekV2ForCausalLM"], "model_type": "deepseek_v3", "fc_norm": True}


@pytest.mark.parametrize("package, models, stem, config", [
    ("vllm", "model_executor/models", "qwen3_eagle3", QWEN3_SPECULATORS),
    ("vllm", "model_executor/models", "deepseek_eagle3", MLA),
    ("sglang", "srt/models", "deepseek_eagle3", MLA),
])
def test_the_served_drafter_file_is_read_and_its_missing_flag_is_a_difference(
        tmp_path, monkeypatch, package, models, stem, config):
    root = _engine(tmp_path, package, models, stem)
    described = _described(monkeypatch, package, root, _draft(tmp_path, config))
    assert described["file"] == str(root / models / f"{stem}.py")
    reference = {"flags": {"fc_norm": True}, "flag_sites": {"fc_norm": ["core.py line 1: fc_norm"]}}
    diffs = forward_differences(reference, described, {"fc_norm": True})
    assert diffs and diffs[0].startswith("fc_norm=True") and stem in diffs[0]


def test_a_release_without_the_drafter_file_reads_llama_eagle3(tmp_path, monkeypatch):
    # vLLM 0.23 ran a Qwen3 draft with llama_eagle3.py: no qwen3_eagle3.py there
    root = _engine(tmp_path, "vllm", "model_executor/models")
    described = _described(monkeypatch, "vllm", root, _draft(tmp_path, QWEN3_SPECULATORS))
    assert described["file"].endswith("llama_eagle3.py") and described["flags"]["fc_norm"] is True


def test_a_llama_draft_and_no_draft_read_llama_eagle3(tmp_path, monkeypatch):
    root = _engine(tmp_path, "vllm", "model_executor/models", "qwen3_eagle3")
    llama = _draft(tmp_path, {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama"})
    assert _described(monkeypatch, "vllm", root, llama)["file"].endswith("llama_eagle3.py")
    assert forward_source.describe("vllm", None, None)["file"].endswith("llama_eagle3.py")


def test_the_draft_is_found_in_the_running_servers_speculative_config(tmp_path):
    draft_dir = _draft(tmp_path, MLA)
    argv = ["vllm", "serve", "moonshotai/Kimi-K2", "--speculative-config",
            json.dumps({"method": "eagle3", "model": draft_dir})]
    assert forward_source._served_draft_config({}, lambda: argv) == MLA
    assert engines.drafter_module("sglang", MLA) == "deepseek_eagle3"


def test_a_draft_folder_that_cannot_be_entered_reads_the_default_file(monkeypatch):
    def denied(name, with_tensors=None):
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(forward_source, "describe_model", denied)
    assert forward_source._served_draft_config({"draft_model": "/root/draft"}, lambda: []) is None
