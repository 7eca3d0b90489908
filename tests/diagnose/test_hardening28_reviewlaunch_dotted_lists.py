"""A repeated `--speculative-config.key+` is joined, as vLLM joins it (review of 33195e63).

FlexibleArgumentParser.parse_args (vllm-project/vllm vllm/utils/argparse_utils.py) merges every
dotted key of a flag into one dict, joining two lists of one key (`recursive_dict_update`:
`original[k] += v`). 33195e63 made launch.vllm_dotted_flags the one reading, but the audit reads
`--speculative-config.*` from the flag dict, which kept only the last of two same-named flags:
`... draft_tags+ a,b ... draft_tags+ c` audited as ['c'] where vLLM has ['a', 'b', 'c'] and the
config reader of the same line (vllm_dotted_flags) says so too.
"""

from __future__ import annotations

import shlex

import pytest

from spec_debug.diagnose.launch import parse_launch_command, vllm_dotted_flags

LINE = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
        "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
        "--speculative-config.num_speculative_tokens 3 ")


@pytest.mark.parametrize("tail, tags", [
    ("--speculative-config.draft_tags+ a,b --speculative-config.draft_tags+ c", ["a", "b", "c"]),
    ("--speculative-config.draft_tags+=a --speculative_config.draft_tags+ b,c", ["a", "b", "c"]),
    ("--speculative-config.draft_tags+ a --speculative-config.draft_tags x", "x"),
])
def test_the_audit_reads_repeated_plus_keys_as_vllm_does(tail, tags):
    spec = parse_launch_command(LINE + tail).speculative_config
    assert spec["draft_tags"] == tags
    assert spec == vllm_dotted_flags(shlex.split(LINE + tail))["speculative-config"]
