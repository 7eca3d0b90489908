"""vLLM's short options written with two dashes, and -sc on a release that lacks it.

- `-sc` / `-tp` are short options of `vllm serve` (one dash). FlexibleArgumentParser keeps argparse's
  allow_abbrev on (vllm/utils/argparse_utils.py; vllm/entrypoints/cli/serve.py passes no
  allow_abbrev), and argparse matches a `--` word against the `--` option strings only (CPython
  Lib/argparse.py `_get_option_tuples`): `--sc` could match --scheduler-cls and --scheduling-policy
  ("ambiguous option"), and no long option starts with `tp` ("unrecognized arguments"). The audit
  stripped the dashes and read both as -sc / -tp: a server that never starts was audited as running.
- Before vLLM 0.19 (no -sc) the problem that follows the "replaced spellings" sentence was dropped
  with it: `--speculative-config.method eagle3 -sc.model d` lost "num_speculative_tokens missing".
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step

# vLLM docs, features/speculative_decoding/eagle.md (the EAGLE-3 example served with vllm serve)
DOCS_EAGLE3 = ("vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct --seed 42 {tp} 1 {sc} "
               "'{{\"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"draft_tensor_parallel_size\": 1, "
               "\"num_speculative_tokens\": 2, \"method\": \"eagle3\"}}'")


def test_the_docs_command_with_its_short_options_is_read():
    cfg = parse_launch_command(DOCS_EAGLE3.format(tp="-tp", sc="-sc"))
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 2, 1)


@pytest.mark.parametrize("tp, sc, said", [
    ("-tp", "--sc", "--sc is not vLLM's -sc (one dash): argparse reads it as an abbreviation, which is ambiguous: "
                    "it could match --scheduler-cls"),
    ("-tp", "--sc.model x --sc.method", "--sc is not vLLM's -sc"),
    ("--tp", "-sc", "--tp is not vLLM's -tp (one dash) and abbreviates no option of vllm serve: "
                    "argparse exits with 'unrecognized arguments'"),
    ("--tp=", "-sc", "--tp is not vLLM's -tp"),
])
def test_a_short_option_written_with_two_dashes_is_refused(tp, sc, said):
    command = DOCS_EAGLE3.format(tp=tp, sc=sc).replace("--tp= 1", "--tp=1")
    with pytest.raises(LaunchParseError) as err:
        parse_launch_command(command)
    assert said in err.value.message
    assert err.value.hint.startswith(f"write -{said[2:4]} (one dash) or --")


def test_a_short_key_of_a_config_file_is_refused_with_the_long_name():
    # vLLM turns each key of a --config YAML file into `--KEY` (FlexibleArgumentParser
    # `_pull_args_from_config`): `tp: 2` is `--tp 2`, which vllm serve refuses
    facts = launch_step.parse({"source": "cli", "cmdline": "vllm serve meta-llama/Llama-3.1-8B-Instruct --config c.yaml",
                               "config_file": {"path": "c.yaml", "text": "tp: 2\n"}, "models": {}})
    error = facts["launch"]["error"]
    assert "--tp is not vLLM's -tp" in error and "(with the flags of --config c.yaml)" in error
    assert error.endswith("or --tensor-parallel-size (in a --config YAML file: tensor-parallel-size: VALUE)")


def test_sglang_reads_its_own_abbreviation_of_tp_size():
    # SGLang's argparse reads --tp as --tp-size (sgl-project/sglang python/sglang/launch_server.py)
    cfg = parse_launch_command("python3 -m sglang.launch_server --model-path m --tp 2")
    assert cfg.tp == 2


def test_before_0_19_the_problem_after_the_replaced_sentence_stays():
    # -sc's dotted keys replace --speculative-config's on 0.19+; on 0.18 -sc itself is refused, and the
    # command as the user fixes it (-sc spelled --speculative-config) still gives no K
    cfg = parse_launch_command("vllm serve m --speculative-config.method eagle3 -sc.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    new = effective_spec(cfg, engine_version="0.19.0").problems
    assert new[0].startswith("the dotted keys of --speculative-config are replaced by those of -sc")
    old = effective_spec(cfg, engine_version="0.18.0").problems
    assert old[0].startswith("-sc: vLLM 0.18.0 does not have it")
    assert old[1].startswith("num_speculative_tokens missing from --speculative-config")
    assert not any("replaced" in p for p in old)


def test_before_0_19_the_json_replaced_by_dotted_keys_is_still_said():
    # a --config YAML's speculative-config (first) and -sc's dotted keys on the line: with -sc spelled
    # --speculative-config, its keys still replace the file's JSON whole
    facts = launch_step.parse({
        "source": "cli", "cmdline": "vllm serve Qwen/Qwen3-8B --config c.yaml -sc.num_speculative_tokens 5",
        "config_file": {"path": "c.yaml", "text": "speculative-config:\n  method: eagle3\n"
                                                  "  model: RedHatAI/Qwen3-8B-speculator.eagle3\n"
                                                  "  num_speculative_tokens: 3\n"}, "models": {}})
    problems = effective_spec(parse_launch_command(facts["launch"]["argv"]), engine_version="0.18.0").problems
    assert problems[0].startswith("-sc: vLLM 0.18.0 does not have it")
    assert problems[1].startswith("the JSON --speculative-config is replaced by the dotted keys -sc.num_speculative_tokens")
    assert "has num_speculative_tokens but no draft model" in problems[1]
