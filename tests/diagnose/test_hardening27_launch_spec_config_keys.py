"""A --speculative-config key SpeculativeConfig lacks, misspelled from one it has.

`num_speculative_token`, `draft_tensor_parallel_sizes`, the V0 flag's `ngram_prompt_lookup_max`
(vllm-project/vllm#24888 wrote it): the audit said nothing of the key (at most 'num_speculative_tokens
missing'). vLLM's fate for it depends on the release: a TypeError up to 0.8 (stdlib dataclass),
dropped without a word in 0.9-0.13 (pydantic dataclasses ignore unknown keys, vllm-project/vllm#17599),
refused from 0.14 (`@config` with extra="forbid", #31541). Each line names the key, what the release
does, and the right spelling. The dynamic-K key on an older release was always said to be refused;
0.9-0.13 drop it and run the fixed K.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command


def _problems(spec_json, version=None):
    cfg = parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --speculative-config '{spec_json}'")
    return effective_spec(cfg, engine_version=version).problems


EAGLE3 = '"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"'


@pytest.mark.parametrize("spec_json, key, right", [
    ('{' + EAGLE3 + ', "num_speculative_token": 3}', "num_speculative_token", "num_speculative_tokens"),
    ('{' + EAGLE3 + ', "num_speculative_tokens": 3, "draft_tensor_parallel_sizes": 1}',
     "draft_tensor_parallel_sizes", "draft_tensor_parallel_size"),
    ('{"method": "ngram", "num_speculative_tokens": 5, "ngram_prompt_lookup_max": 4}',
     "ngram_prompt_lookup_max", "prompt_lookup_max"),
    ('{"speculative_model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "method": "eagle3", "num_speculative_tokens": 3}',
     "speculative_model", "model"),
], ids=["tokens", "draft_tp", "v0_ngram", "v0_model"])
def test_a_misspelled_key_is_named_with_its_spelling(spec_json, key, right):
    (line,) = [p for p in _problems(spec_json) if p.startswith(f'--speculative-config "{key}"')]
    assert f'(write "{right}")' in line and "0.14.0 and later refuse it" in line


@pytest.mark.parametrize("version, said", [
    ("0.8.5", "got an unexpected keyword argument 'num_speculative_token'"),
    ("0.10.1", "drops it without a word"),
    ("0.14.0", "0.14.0 refuses it"),
    ("0.13.1.dev4", "0.9 to 0.13 drop it"),  # a nightly may be 0.14's code: both said
])
def test_what_the_release_does_with_it(version, said):
    (line,) = [p for p in _problems('{' + EAGLE3 + ', "num_speculative_token": 3}', version)
               if "num_speculative_token\"" in p]
    assert said in line


def test_every_key_of_a_valid_config_passes():
    spec_json = ('{' + EAGLE3 + ', "num_speculative_tokens": 3, "draft_tensor_parallel_size": 1, '
                 '"max_model_len": 4096, "disable_padded_drafter_batch": false, "prompt_lookup_min": 2}')
    assert _problems(spec_json) == []


def test_the_dynamic_k_key_is_dropped_not_refused_in_0_9_to_0_13():
    spec_json = '{' + EAGLE3 + ', "num_speculative_tokens": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3]]}'
    (line,) = _problems(spec_json, "0.10.1")
    assert "drops it without a word" in line and "does not start" not in line
    (line,) = _problems(spec_json, "0.20.0")
    assert "the server does not start" in line
