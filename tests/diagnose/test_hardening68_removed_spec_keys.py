"""A --speculative-config key that an older vLLM had and a newer one removed.

The audit held one set of SpeculativeConfig keys for every release, so a key that vLLM dropped
(`speculative_token_tree`, tree drafting: vllm/config/speculative.py has it up to 0.20.2 and not
from 0.21.0, the PyPI wheels read up to 0.34.0) was never said to be unknown: a launch with it
on vLLM 0.33.0, which stops at startup on any unknown key (pydantic extra="forbid" from 0.14,
"Unexpected keyword argument"), passed clean. It now says what the running release does with it.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TREE = "[(0,), (1,), (0, 0)]"


def _command(**extra) -> str:
    spec = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3, **extra}
    return f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{json.dumps(spec)}'"


def _sd102(command: str, version: str | None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, **({"engine": {"name": "vllm", "version": version}} if version else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.title, f.evidence) for f in launch_step.check(ctx) if f.code == "SD102"]


def test_a_token_tree_on_a_release_without_it_stops_the_server():
    assert _sd102(_command(speculative_token_tree=TREE), "0.33.0") == [(
        "error", "The engine refuses this launch command at startup",
        ['--speculative-config "speculative_token_tree": vLLM 0.21.0 removed this key from SpeculativeConfig; '
         'vLLM 0.33.0 refuses it (pydantic: "Unexpected keyword argument") and the server does not start (drop it)'])]


@pytest.mark.parametrize("version", ["0.20.2", "0.14.0", "0.10.1"])
def test_a_token_tree_on_a_release_that_has_it_is_clean(version):
    assert _sd102(_command(speculative_token_tree=TREE), version) == []


def test_a_token_tree_on_an_unknown_release_is_a_warning():
    [(severity, _, evidence)] = _sd102(_command(speculative_token_tree=TREE), None)
    assert severity == "warning"
    assert evidence == ['--speculative-config "speculative_token_tree": vLLM 0.21.0 removed this key from '
                        'SpeculativeConfig: vLLM 0.21.0 and later refuse it (pydantic: "Unexpected keyword argument") '
                        'and the server does not start; releases before 0.21.0 read it (drop it on a newer release)']


def test_a_v0_key_removed_before_keys_were_refused():
    # 0.9.2 has disable_mqa_scorer, 0.10.0 not; 0.10 to 0.13 drop an unknown key, 0.14 refuses it
    command = _command(disable_mqa_scorer=True)
    assert _sd102(command, "0.9.2") == []
    [(severity, _, evidence)] = _sd102(command, "0.12.0")
    assert severity == "warning" and "vLLM 0.12.0 drops it without a word" in evidence[0]
    [(severity, _, evidence)] = _sd102(command, "0.16.0")
    assert severity == "error" and "vLLM 0.16.0 refuses it" in evidence[0]
    [(_, _, evidence)] = _sd102(command, None)
    assert "vLLM 0.14.0 and later refuse it" in evidence[0] and "0.10.0 to 0.13 drop it without a word" in evidence[0]


def test_disable_by_batch_size_is_gone_from_017():
    command = _command(disable_by_batch_size=8)
    assert _sd102(command, "0.16.0") == []
    [(severity, _, evidence)] = _sd102(command, "0.17.0")
    assert severity == "error" and evidence[0].startswith(
        '--speculative-config "disable_by_batch_size": vLLM 0.17.0 removed this key')


PADDED = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config "
          "'{\"method\": \"draft_model\", \"model\": \"meta-llama/Llama-3.2-1B-Instruct\", \"num_speculative_tokens\": 3, "
          "\"disable_padded_drafter_batch\": true}'")


def test_vllm_034_has_no_disable_padded_drafter_batch():
    # 0.33.0 refuses the unpadded batch for a draft model and with async scheduling; 0.34.0 has no
    # such key at all (vllm/config/speculative.py), so the key itself stops the server
    [(severity, _, evidence)] = _sd102(PADDED, "0.33.0")
    assert severity == "error" and len(evidence) == 2 and all("disable_padded_drafter_batch" in e for e in evidence)
    assert not any("removed this key" in e for e in evidence)
    assert _sd102(PADDED, "0.34.0") == [(
        "error", "The engine refuses this launch command at startup",
        ['--speculative-config "disable_padded_drafter_batch": vLLM 0.34.0 removed this key from SpeculativeConfig; '
         'vLLM 0.34.0 refuses it (pydantic: "Unexpected keyword argument") and the server does not start (drop it)'])]
    assert _sd102(_command(use_heterogeneous_vocab=True), "0.34.0")[0][0] == "error"
    assert _sd102(_command(use_heterogeneous_vocab=True), "0.33.0") == []


@pytest.mark.parametrize("key, value", [("draft_decode_context_parallel_size", 1), ("suffix_decoding_corpus_tokens", 0),
                                        ("xpress_topc", 2), ("fly_window_size", 4)])
def test_keys_of_the_newest_releases_are_no_misspelling(key, value):
    assert _sd102(_command(**{key: value}), "0.34.0") == []


def test_a_key_only_the_newest_release_lacks_is_not_flagged_on_an_unknown_release():
    assert _sd102(_command(use_heterogeneous_vocab=True), None) == []
