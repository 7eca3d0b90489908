"""`"disable_padded_drafter_batch": true` on a drafter vLLM only runs on the padded batch.

A draft model or parallel drafting (P-EAGLE, vllm-project/vllm#32887, 0.16.0) takes extra input
slots per request, and vLLM builds such a drafter only padded: vllm/v1/spec_decode/eagle.py
SpecDecodeBaseProposer `__init__` and draft_model.py DraftModelProposer `__init__` raise
NotImplementedError ("Speculative Decoding with draft models or parallel drafting only supports
padded drafter batch."). The audit called these servers fine; they never start.
"""

from __future__ import annotations

from tests.diagnose.test_hardening32_diagnose_async_scheduling import _audit

# a P-EAGLE head served as vLLM takes it (method eagle3 with parallel_drafting), and a draft model; the
# unpadded batch switched on as in vllm-project/vllm#25872's EAGLE benchmark command
PEAGLE = ("vllm serve openai/gpt-oss-120b --speculative-config '{\"method\": \"eagle3\", \"model\": "
          "\"amazon/gpt-oss-120b-p-eagle\", \"num_speculative_tokens\": 7, \"parallel_drafting\": true%s}'")
DRAFT_MODEL = ("vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"draft_model\", \"model\": "
               "\"Qwen/Qwen3-0.6B\", \"num_speculative_tokens\": 4%s}'")
UNPADDED = ', "disable_padded_drafter_batch": true'


def test_parallel_drafting_and_draft_models_refuse_the_unpadded_batch() -> None:
    for command, drafter in ((PEAGLE % UNPADDED, "parallel drafting (method eagle3)"),
                             (DRAFT_MODEL % UNPADDED, "method draft_model")):
        for version in (None, "0.16.0", "0.30.0"):
            (finding,) = _audit(command, version)
            assert finding.code == "SD102", (drafter, version)
            assert f"\"disable_padded_drafter_batch\": true with {drafter}: vLLM refuses to start" in finding.evidence[0]


def test_padded_or_chained_drafters_stay_clean() -> None:
    assert _audit(PEAGLE % "") == [] and _audit(DRAFT_MODEL % "") == []
    # a sequential EAGLE-3 draft runs unpadded (what the option is for)
    assert _audit((PEAGLE % UNPADDED).replace(", \"parallel_drafting\": true", "")) == []
    # a release from before parallel drafting is not judged on a guess: its SpeculativeConfig has no
    # parallel_drafting key (added in 0.16.0), which is all that is said
    assert [f.evidence for f in _audit(PEAGLE % UNPADDED, "0.15.1")] == [[
        '--speculative-config "parallel_drafting": vLLM 0.16.0 added this key to SpeculativeConfig; vLLM 0.15.1 '
        'refuses it (pydantic: "Unexpected keyword argument") and the server does not start (upgrade vLLM to 0.16.0 '
        'or later, or drop it)']]
