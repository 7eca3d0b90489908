"""`"rejection_sample_method": "synthetic"` on a vLLM release that has no synthetic sampling.

The value came with vllm-project/vllm#38045 (Model Runner V2, opened 2026-03-24; both runners from
#40662), after 0.17. An older release never simulates: 0.9 to 0.13 drop a key SpeculativeConfig
lacks without a word and accept for real, the others refuse it. The audit told a 0.11 server's
reader that its (real) accept length was the benchmark setting's.
"""

from __future__ import annotations

from typing import Any

from tests.diagnose.test_hardening32_diagnose_async_scheduling import _audit

VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"eagle3\", \"model\": "
        "\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3, \"rejection_sample_method\": "
        "\"synthetic\", \"synthetic_acceptance_length\": 2.5}'")


def _notes(version: str | None) -> list[Any]:
    return [f for f in _audit(VLLM, version) if f.code == "SD004" and "simulates acceptance" in f.evidence[0]]


def test_a_release_without_synthetic_sampling_is_not_said_to_simulate() -> None:
    for version in ("0.11.0", "0.13.0", "0.17.1"):
        assert _notes(version) == [], version
    # a release that may have it, a nightly before 0.18.0 and an unknown one keep the line
    for version in ("0.18.0", "0.30.0", "0.17.2.dev5+g1234567", None):
        assert len(_notes(version)) == 1, version
