"""SGLang's n-gram speculation never reads SGLANG_SIMULATE_ACC_LEN.

The simulated accept index is drawn in the EAGLE verify path (speculative/spec_utils.py
SIMULATE_ACC_LEN, read by eagle_info's verify; DFLASH's too); NgramVerifyInput.verify
(speculative/ngram_info.py) runs verify_tree_greedy / tree_speculative_sampling_target_only on the
target's logits and imports no simulation. A server with `--speculative-algorithm NGRAM` and the
variable left in its environment logs its real accept length; the audit said it was the knob's,
which tells the reader to ignore a real n-gram acceptance.
"""

from __future__ import annotations

from tests.diagnose.test_hardening32_diagnose_simulated_acceptance import SGLANG, _audit

NGRAM = ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm NGRAM "
         "--speculative-num-draft-tokens 8")


def test_ngram_acceptance_is_not_said_to_be_simulated() -> None:
    assert "SD004" not in [f.code for f in _audit("SGLANG_SIMULATE_ACC_LEN=2 " + NGRAM)]
    assert "SD004" not in [f.code for f in _audit(NGRAM, server_env={"SGLANG_SIMULATE_ACC_LEN": "2"})]
    # an EAGLE-3 server with the same variable still gets the line
    (note,) = _audit("SGLANG_SIMULATE_ACC_LEN=2 " + SGLANG)
    assert note.code == "SD004" and "simulates acceptance" in note.evidence[0]
