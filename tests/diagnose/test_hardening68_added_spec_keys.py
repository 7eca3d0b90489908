"""A --speculative-config key that a newer vLLM added, written for an older one.

The audit held one set of SpeculativeConfig keys for every release, so a key vLLM added later
(`dspark_draft_topk`: vllm/config/speculative.py has it from 0.28.0, 0.27.1 not; `kv_cache_dtype`
from 0.26.0, 0.25.1 not, the PyPI wheels read) passed clean on an older release, while that release
does not know it: from 0.14 pydantic's extra="forbid" stops the server ("Unexpected keyword
argument"), 0.9 to 0.13 drop the key without a word, up to 0.8 the dataclass raises TypeError.
It now says what the running release does with it (the mirror of the removed keys' test).
"""

from __future__ import annotations

import json

import pytest

from tests.diagnose.test_hardening68_removed_spec_keys import _command, _sd102


def test_a_kv_cache_dtype_on_a_release_before_it_stops_the_server():
    assert _sd102(_command(kv_cache_dtype="fp8"), "0.25.1") == [(
        "error", "The engine refuses this launch command at startup",
        ['--speculative-config "kv_cache_dtype": vLLM 0.26.0 added this key to SpeculativeConfig; vLLM 0.25.1 '
         'refuses it (pydantic: "Unexpected keyword argument") and the server does not start (upgrade vLLM to '
         '0.26.0 or later, or drop it)'])]


def test_a_dspark_topk_on_027_stops_the_server():
    spec = {"method": "dspark", "model": "z-lab/Qwen3-8B-DSpark", "num_speculative_tokens": 7, "dspark_draft_topk": 4}
    command = f"vllm serve Qwen/Qwen3-8B --speculative-config '{json.dumps(spec)}'"
    found = _sd102(command, "0.27.0")
    assert found and found[0][0] == "error"
    assert ('--speculative-config "dspark_draft_topk": vLLM 0.28.0 added this key to SpeculativeConfig; vLLM 0.27.0 '
            'refuses it (pydantic: "Unexpected keyword argument") and the server does not start (upgrade vLLM to '
            '0.28.0 or later, or drop it)') in found[0][2]


@pytest.mark.parametrize("key, value, version", [
    ("kv_cache_dtype", "fp8", "0.26.0"), ("dspark_draft_topk", None, "0.28.0"),
    ("attention_backend", "FLASH_ATTN", "0.21.0"), ("suffix_decoding_max_tree_depth", 16, "0.11.1"),
    ("enforce_eager", True, "0.11.0"), ("synthetic_acceptance_rate", 0.7, "0.19.1"),
    # a nightly after 0.27.0 may hold 0.28.0's key: not claimed
    ("kv_cache_dtype", "fp8", "0.27.1.dev5+g1234abc"), ("xpress_topc", 2, "0.33.0.dev3"),
])
def test_a_key_on_a_release_that_has_it_or_may_have_it_is_clean(key, value, version):
    assert _sd102(_command(**{key: value}), version) == []


def test_an_added_key_on_an_unknown_release_is_clean():
    # the option list is the newest release's, which has the key
    assert _sd102(_command(kv_cache_dtype="fp8"), None) == []


def test_a_release_that_drops_unknown_keys_runs_without_it():
    # 0.9 to 0.13 are pydantic dataclasses that drop an unknown key: the server starts, eager mode is not set
    [(severity, _, evidence)] = _sd102(_command(enforce_eager=True), "0.10.2")
    assert severity == "warning"
    assert evidence == ['--speculative-config "enforce_eager": vLLM 0.11.0 added this key to SpeculativeConfig; '
                        'vLLM 0.10.2 drops it without a word (unknown keys are ignored until 0.14.0) and runs as if '
                        'it were not written (upgrade vLLM to 0.11.0 or later, or drop it)']


def test_vllm_019s_synthetic_acceptance_rate_is_no_misspelling_there():
    # 0.19.x takes synthetic_acceptance_rate (a float); 0.20.0 replaced it by synthetic_acceptance_rates (a list)
    assert _sd102(_command(synthetic_acceptance_rate=0.7), "0.19.0") == []
    [(severity, _, evidence)] = _sd102(_command(synthetic_acceptance_rates=[0.7]), "0.19.0")
    assert severity == "error" and evidence[0].startswith(
        '--speculative-config "synthetic_acceptance_rates": vLLM 0.20.0 added this key')
    [(severity, _, evidence)] = _sd102(_command(synthetic_acceptance_rate=0.7), "0.20.0")
    assert severity == "error" and evidence[0].startswith(
        '--speculative-config "synthetic_acceptance_rate": vLLM 0.20.0 removed this key')
