"""A speculators draft saved with hidden_size 48 (target_hidden_size unset, so fc takes 3 x 48)
over a target of hidden_size 32, and a dump of that target (32 wide). Eval blamed the dump:
"the hidden states are 32 wide, the draft's fc takes 3 x 48 (target_hidden_size 48); this
dump comes from another target model, or the draft config's target_hidden_size is wrong",
though --target is 32 wide as the dump is, and the config sets no target_hidden_size.
speculators' from_pretrained refuses the draft (load_verifier_weights: the verifier's 32-wide
embeddings into its 48-wide ones). Now the draft is named: made for another target, and the
config's target_hidden_size is said to be unset."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import AUX, DV, V, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig
    from transformers import LlamaConfig

    root = save_informative_world(tmp_path_factory.mktemp("hidden_size"), seed=1)
    layer = LlamaConfig(num_hidden_layers=1, vocab_size=V, hidden_size=48, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer, draft_vocab_size=DV, eagle_aux_hidden_state_layer_ids=AUX,
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(root / "target"))))
    draft = Eagle3DraftModel(config)
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[:DV] = True
    draft.load_vocab_mappings(t2d, torch.zeros(DV, dtype=torch.long))
    draft.eval().save_pretrained(root / "draft48")
    return root


def test_speculators_itself_refuses_the_draft(world):
    from speculators.models.eagle3 import Eagle3DraftModel

    with pytest.raises(RuntimeError, match="size mismatch"):
        Eagle3DraftModel.from_pretrained(str(world / "draft48"))


def test_eval_names_the_draft_not_the_dump(world):
    with pytest.raises(CheckpointError) as caught:
        evaluate_drafter(world / "draft48", world / "data", world / "target")
    message = caught.value.message
    assert message.startswith("the draft's fc takes 3 x 48-wide states (target_hidden_size "
                              "unset: the draft's hidden_size 48)")
    assert "are 32 wide: the draft was made for another target (one of hidden size 48)" in message
    assert "\n" not in message


def test_without_the_target_the_dump_is_still_the_one_named(world, tmp_path):
    # no target to side with: either may be wrong, as before, with the config read right
    with pytest.raises(Exception) as caught:
        evaluate_drafter(world / "draft48", world / "data", None, find_verifier=False)
    assert "the hidden states are 32 wide, the draft's fc takes 3 x 48 (target_hidden_size " \
           "unset: the draft's hidden_size 48)" in str(caught.value)
