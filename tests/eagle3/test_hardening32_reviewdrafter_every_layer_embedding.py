"""SD402 on an unnamed dump of every layer of the verifier (transformers' output_hidden_states:
the embedding output first), probed against a speculators draft: slot 0 is exactly
embed_tokens[token_ids] because it is one of the dump's layers, yet the finding said "training
used cat([embed, ...])", a fault the dump does not show. That line is kept for a dump of the
aux slots (and the embedding) alone."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.drafter import check_layout  # noqa: E402
from spec_debug.eagle3.api import probe_layout  # noqa: E402
from tests.eagle3.speculators_world import NL, save_informative_world  # noqa: E402
from tests.eagle3.test_hardening32_drafter_every_layer_dump import _every_layer_dump  # noqa: E402


@pytest.fixture(scope="module")
def every_layer(tmp_path_factory):
    """(root, the world's samples as a dump of all NL + 1 hidden states plus the final slot)."""
    from transformers import LlamaForCausalLM

    tmp = tmp_path_factory.mktemp("every_layer_embedding")
    root = save_informative_world(tmp / "world", seed=1)
    verifier = LlamaForCausalLM.from_pretrained(str(root / "target")).eval()
    return root, _every_layer_dump(root, verifier, tmp / "data", range(0, NL + 1))


def test_the_embedding_slot_of_an_every_layer_dump_is_not_called_training_input(every_layer):
    root, data = every_layer
    report = probe_layout(root / "draft", data, root / "target", max_samples=1)
    assert report["embedding_slots"] == [0] and report["best"] == [2, 4, 5]

    # hardening74: with no served layout, SD402 compares the best with the slots holding the
    # config's ids ([2, 4, 5], config_slots), not eval's guess [0, 1, 2]: this draft fits its
    # config, and SD402 ("another layout fits clearly better") was a false error here
    assert report["config_slots"] == [2, 4, 5] and check_layout(report) == []
    # served the dump's first three slots (the guess), SD402 stands, with its embedding line
    [finding] = check_layout(report, [0, 1, 2])
    assert finding.code == "SD402"
    [line] = [e for e in finding.evidence if "embedding output" in e]
    assert "cat([embed, ...])" not in line
    assert line == ("slot 0 of the data is exactly the embedding output (embed_tokens[token_ids]), "
                    f"one of the {NL + 1} aux slots of a dump of more layers than the draft takes")

    # a dump of the aux slots with the embedding output beside them (4 slots and the final
    # one, as the embedding check reads them): the line stands
    aux_only = {"ranked": [{"layout": [1, 2, 3], "full_accuracy0": 0.71},
                           {"layout": [0, 1, 2], "full_accuracy0": 0.18}],
                "best": [1, 2, 3], "configured": [0, 1, 2], "embedding_slots": [0],
                "slot_checks": report["slot_checks"][:5]}
    [finding] = check_layout(aux_only)
    assert any(e.endswith(": a draft trained on this data was fed cat([embed, ...])") for e in finding.evidence)
