"""A --speculative-config key no vLLM SpeculativeConfig has is refused from 0.14, even when it is
no misspelling of one.

`vllm serve ... --speculative-config '{"method": "eagle3", ..., "topk": 4}'` (SGLang's idea of a
setting: vLLM's EAGLE drafts a chain) passed the audit clean on vLLM 0.20.0: only keys within
difflib's reach of a real one were said. vLLM 0.14 made the config classes forbid extra keys
(vllm-project/vllm#31541, `@config` with extra="forbid": "SpeculativeConfig also used to accept
and ignore these fields"), so pydantic raises "Unexpected keyword argument" and the server does
not start; 0.9 .. 0.13 dropped such a key without a word. The keys of every release from 0.8.5 to
0.34.0 are read (launch._VLLM_SPEC_KEYS, from the PyPI wheels)."""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import refused_by_every_release
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_COMMAND = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
            "'{{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
            "\"num_speculative_tokens\": 3, {}}}'")


def _problems(key_value: str, engine_version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(_COMMAND.format(key_value)), engine_version=engine_version).problems)


def test_a_key_no_release_has_is_refused_on_a_release_that_forbids_extra_keys() -> None:
    [line] = _problems('"topk": 4', "0.20.0")
    assert line == ('--speculative-config "topk": SpeculativeConfig has no such key (nor had it in any release read, '
                    '0.8.5 to 0.34.0); vLLM 0.20.0 refuses it (pydantic: "Unexpected keyword argument") and the '
                    'server does not start; drop it')
    assert refused_by_every_release(line)


def test_the_releases_before_0_14_drop_it_and_older_ones_raise() -> None:
    assert _problems('"draft_tp": 2', "0.11.0") == [
        '--speculative-config "draft_tp": SpeculativeConfig has no such key (nor had it in any release read, 0.8.5 to '
        '0.34.0); vLLM 0.11.0 drops it without a word (unknown keys are ignored until 0.14.0) and runs as if it were '
        'not written; drop it']
    assert _problems('"draft_tp": 2', "0.8.5") == [
        '--speculative-config "draft_tp": SpeculativeConfig has no such key (nor had it in any release read, 0.8.5 to '
        "0.34.0); vLLM 0.8.5 refuses it (\"__init__() got an unexpected keyword argument 'draft_tp'\") and the server "
        "does not start; drop it"]


def test_where_a_release_not_read_may_have_the_key_it_is_said_with_that_doubt() -> None:
    [unknown] = _problems('"topk": 4', None)
    assert unknown == (
        '--speculative-config "topk": SpeculativeConfig has no such key in any release read (0.8.5 to 0.34.0; a later '
        'one may have added it); vLLM 0.14.0 and later refuse it (pydantic: "Unexpected keyword argument") and the '
        'server does not start; 0.9 to 0.13 drop it without a word and run as if it were not written; drop it')
    [patch] = _problems('"topk": 4', "0.34.1")
    assert patch.startswith('--speculative-config "topk": SpeculativeConfig has no such key in any release read '
                            '(0.8.5 to 0.34.0), unless vLLM 0.34.1, a release not read, added it; vLLM 0.34.1 refuses')
    # neither is a refusal of every release: a warning, not SD102's error
    assert not refused_by_every_release(unknown) and not refused_by_every_release(patch)
    # a later minor release, or one older than the keys read: not judged
    assert _problems('"topk": 4', "0.35.0") == []


def test_keys_of_some_release_and_misspellings_keep_their_own_lines() -> None:
    # a key of the release, and a key only older releases had (said by _vllm_removed_key)
    assert _problems('"draft_tensor_parallel_size": 1', "0.20.0") == []
    [removed] = _problems('"speculative_token_tree": "[(0,)]"', "0.22.0")
    assert removed.startswith('--speculative-config "speculative_token_tree": vLLM 0.21.0 removed this key')
    [misspelled] = _problems('"draft_tensor_parallel_sizes": 1', "0.20.0")
    assert misspelled.endswith('(write "draft_tensor_parallel_size")')


def test_a_plugins_documented_keys_are_not_said() -> None:
    # ArcticInference (docs/suffix-decoding.rst) installs suffix-decoding keys in vLLM's
    # SpeculativeConfig, for its "arctic" method and for vLLM's own "suffix"
    arctic = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"arctic\", \"model\": "
              "\"Snowflake/Arctic-LSTM-Speculator-Llama-3.1-8B-Instruct\", \"num_speculative_tokens\": 3, "
              "\"enable_suffix_decoding\": true}'")
    assert effective_spec(parse_launch_command(arctic), engine_version="0.20.0").problems == []
    suffix = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"method\": \"suffix\", "
              "\"suffix_cache_max_depth\": 64, \"num_speculative_tokens\": 8}'")
    assert not any("suffix_cache_max_depth" in line
                   for line in effective_spec(parse_launch_command(suffix), engine_version="0.20.0").problems)
