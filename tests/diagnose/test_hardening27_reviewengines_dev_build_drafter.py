"""forward_source on a vLLM source build between releases (review of round 27).

The round made engine_files take the release: vLLM before 0.24.0 runs a Qwen3 draft with
llama_eagle3.py. A build from main after 0.23.0 (0.23.1.dev120+g...) that holds
qwen3_eagle3.py (vllm#43132 added the file, its registry entry and the speculators routing
together) was then read in llama_eagle3.py, code that never runs the draft; before the round
the file on disk decided, and for a source build it still does."""

from __future__ import annotations

from spec_debug.probes import forward_source

QWEN3_DRAFT = {"speculators_model_type": "eagle3", "architectures": ["Eagle3Speculator"],
               "transformer_layer_config": {"model_type": "qwen3", "hidden_size": 16}}


def _root(tmp_path, *stems):
    models = tmp_path / "vllm" / "model_executor" / "models"
    models.mkdir(parents=True)
    for stem in stems:
        (models / f"{stem}.py").write_text("class M:\n    pass\n")
    return tmp_path / "vllm"


def test_a_source_build_with_the_file_reads_it(tmp_path):
    root = _root(tmp_path, "llama_eagle3", "qwen3_eagle3")
    assert forward_source.engine_files("vllm", root, QWEN3_DRAFT, "0.23.1.dev120+g3f2a9c1")[0].name == "qwen3_eagle3.py"
    assert forward_source.engine_files("vllm", root, QWEN3_DRAFT, "0.23.0")[0].name == "llama_eagle3.py"


def test_a_source_build_without_the_file_reads_llama_eagle3(tmp_path):
    root = _root(tmp_path, "llama_eagle3")
    assert forward_source.engine_files("vllm", root, QWEN3_DRAFT, "0.22.1.dev40+gabc")[0].name == "llama_eagle3.py"
