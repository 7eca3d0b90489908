"""Parallel drafting with one speculative token runs on the unpadded drafter batch.

vLLM adds input slots per request only when a drafter needs them (vllm/v1/spec_decode/eagle.py
SpecDecodeBaseProposer `__init__`: extra_slots_per_request = num_speculative_tokens for parallel
drafting, minus the one an EAGLE drafter passing hidden states reuses; needs_extra_input_slots =
that net count > 0). `_raise_if_padded_drafter_batch_disabled` is called only then, so a P-EAGLE
head asked for one token (net 0) starts with "disable_padded_drafter_batch": true. The audit
called it a refused start (SD102).
"""

from __future__ import annotations

from tests.diagnose.test_hardening32_diagnose_async_scheduling import _audit

PEAGLE = ("vllm serve openai/gpt-oss-120b --speculative-config '{\"method\": \"eagle3\", \"model\": "
          "\"amazon/gpt-oss-120b-p-eagle\", \"num_speculative_tokens\": %d, \"parallel_drafting\": true, "
          "\"disable_padded_drafter_batch\": true}'")


def test_one_parallel_token_needs_no_extra_slot() -> None:
    for version in (None, "0.16.0", "0.30.0"):
        # (SD101 stays: one token caps the accept length at 2, whatever the batch)
        assert [f.code for f in _audit(PEAGLE % 1, version)] == ["SD101"], version
    # the same head asked for two tokens takes one extra slot a request: refused as before
    (finding,) = _audit(PEAGLE % 2)
    assert finding.code == "SD102"
    assert "parallel drafting (method eagle3): vLLM refuses to start" in finding.evidence[0]
    # the dotted spelling reads the count as vLLM does
    dotted = ("vllm serve openai/gpt-oss-120b --speculative-config.method eagle3 --speculative-config.model "
              "amazon/gpt-oss-120b-p-eagle --speculative-config.num_speculative_tokens 1 "
              "--speculative-config.parallel_drafting true --speculative-config.disable_padded_drafter_batch true")
    assert [f.code for f in _audit(dotted)] == ["SD101"]
