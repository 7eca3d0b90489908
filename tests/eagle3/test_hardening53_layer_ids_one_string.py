"""A draft config whose aux layer ids are one comma-joined string ("2,4,5", a shell variable
pasted into the JSON) rather than a list: speculators 0.9.0 refuses the config (pydantic
`list[int] | None`: "Input should be a valid list"; it coerces ["2", "4", "5"] but not this),
SGLang's `[val + 1 for val in layer_ids]` walks the characters (TypeError), vLLM's
tuple(layer_ids) holds characters, no int layer index. The configs step said SD004 ("could not
be read") at info with the generic "pass a --var" fix; it now raises SD707 naming the list to
write, and the drafter's own reader says the same in its hint. The draft is saved by the real
speculators library, then its config edited."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening41_wrapped_draft_unservable import SGLANG  # noqa: E402

from spec_debug.eagle3.config import CheckpointError, load_draft_config  # noqa: E402


def _joined(tmp_path, world):
    root = tmp_path / "joined"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    ids = config["eagle_aux_hidden_state_layer_ids"]
    config["eagle_aux_hidden_state_layer_ids"] = ",".join(str(i) for i in ids)
    path.write_text(json.dumps(config, indent=2))
    return root, ids


def test_speculators_itself_refuses_the_joined_string(tmp_path, world):
    from speculators.models.eagle3.config import Eagle3SpeculatorConfig

    root, _ = _joined(tmp_path, world)
    with pytest.raises(Exception, match="valid list"):
        Eagle3SpeculatorConfig.from_dict(json.loads((root / "draft" / "config.json").read_text()))


@pytest.mark.parametrize("host", [VLLM, SGLANG, {}], ids=["vllm", "sglang", "unknown"])
def test_ids_in_one_string_are_sd707_with_the_list_to_write(tmp_path, world, host):
    root, ids = _joined(tmp_path, world)
    found = _configs(root, host)
    [finding] = [f for f in found if f.code == "SD707"]
    assert finding.severity == "error"
    joined = ",".join(str(i) for i in ids)
    assert finding.evidence == [
        f"eagle_aux_hidden_state_layer_ids is the string \"{joined}\", not a JSON list: "
        "speculators refuses the config (\"Input should be a valid list\"), SGLang adds 1 to each "
        "character and does not start (TypeError), vLLM reads its characters as the layer ids and "
        "captures no target layer"]
    assert finding.remediation == ("Write the ids as a JSON list of integers in the draft's "
                                   f"config.json: \"eagle_aux_hidden_state_layer_ids\": "
                                   f"{json.dumps(ids)}, then restart the server.")


def test_the_drafter_reader_refusal_names_the_list_to_write(tmp_path, world):
    root, ids = _joined(tmp_path, world)
    with pytest.raises(CheckpointError) as refused:
        load_draft_config(root / "draft")
    assert refused.value.hint == ("write it as a JSON list of integers: "
                                  f"\"eagle_aux_hidden_state_layer_ids\": {json.dumps(ids)}")
