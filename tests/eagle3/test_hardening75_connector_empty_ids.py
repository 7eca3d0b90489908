"""A raw vLLM hidden-states connector folder whose requests were sent as prompt_embeds.

vLLM's extract_hidden_states connector saves `token_ids` as an empty tensor for a request that
has no prompt token ids (prompt_embeds only; vllm kv_connector/v1/
example_hidden_states_connector.py request_finished: "Saved token_ids will be empty"), beside
the [T, slots, hidden] states it took from the cache, and a `.lock` file per request. Before:
`drafter eval` skipped every file as "token_ids has 0 entries, hidden_states 14: the ids and
the states of this sample are of different sequences (one cut to a max length and not the
other, or another prompt's ids)", sending the user after a cut or a mix-up that never
happened. Now it says no ids were saved, as the connector writes for prompt_embeds requests,
and to send the prompts as token ids or text.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from tests.eagle3._world import drafter_error, informative_world  # noqa: E402

world = informative_world("hardening75-connector-empty-ids", seed=751)


def test_a_connector_dump_of_prompt_embeds_requests_is_said_to_lack_its_ids(world, tmp_path):
    raw = tmp_path / "connector"
    raw.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        # as the connector saves a prompt_embeds request: torch.tensor([], dtype=torch.long)
        save_file({"hidden_states": tensors["hidden_states"],
                   "token_ids": torch.tensor([], dtype=torch.long)},
                  str(raw / f"cmpl-{i}-0.safetensors"))
        (raw / f"cmpl-{i}-0.safetensors.lock").touch()
    error = drafter_error(world, raw)
    assert f"no usable samples (3 sample file(s) skipped; first: {raw}/cmpl-0-0.safetensors: " \
           "token_ids has 0 entries, hidden_states 14: no ids were saved with the states, as " \
           "vLLM's extract_hidden_states connector writes for a request sent as prompt_embeds " \
           "(it has no prompt token ids to save); send the prompts as token ids or text and " \
           "dump again" in error, error
    assert "different sequences" not in error
