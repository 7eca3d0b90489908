"""A draft whose config lists one aux layer twice (eagle_aux_hidden_state_layer_ids [2, 2, 5])
and a dump captured with that list, without layer_ids metadata: slots 0 and 1 hold layer 2
both. Every file was refused as "one layer captured twice ... fix the capture", so eval ended
with "no usable samples" and blamed the capture, which did what the config said. vLLM and
SGLang capture each layer once (vllm models/llama.py `idx in self.aux_hidden_state_layers`,
sglang srt/models/llama.py `i in self.layers_to_capture`), so such a draft cannot be served:
the config is the fault. Now the files are scored as the draft reads them and the verdict is
the config's note, which says the engines cannot serve it and what to list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def test_a_dump_as_the_config_lists_it_is_scored_and_the_config_blamed(tmp_path):
    world = save_informative_world(tmp_path / "world", seed=1)
    config_path = world / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["eagle_aux_hidden_state_layer_ids"] = [2, 2, 5]
    config_path.write_text(json.dumps(config))
    dump = tmp_path / "as_listed"
    dump.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        tensors["hidden_states"][:, 1] = tensors["hidden_states"][:, 0]  # layer 2, as listed
        save_file(tensors, str(dump / path.name))
    result = evaluate_drafter(world / "draft", dump, world / "target")
    assert result["skipped"] == [] and result["samples"] == 3
    assert (
        "eagle_aux_hidden_state_layer_ids [2, 2, 5] names layer(s) [2] more than once: vLLM and "
        "SGLang capture each layer once, so fc would be served 2 states for its 3 (a shape "
        "error in fc: the draft cannot be served as configured); list 3 distinct layers, and "
        "capture and train again on them") in result["notes"]
