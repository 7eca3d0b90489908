"""SpecForge's benchmark script as the launch command.

sgl-project/SpecForge benchmarks/bench_eagle3.py takes SGLang's own server flags plus
`--config-list BATCH,STEPS,TOPK,DRAFT_TOKENS ...` and starts one SGLang server per entry with
`--speculative-algorithm EAGLE3 --speculative-num-steps STEPS ...` (`launch_sglang_server`);
`1,0,0,0` is the no-speculation baseline. Its README and many training scripts run it right
after training a draft, so it is what people paste when the numbers look wrong.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import check_num_steps
from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command

# SpecForge docs/benchmarks README ("Run server and benchmarks together"), one step served
README = """python benchmarks/bench_eagle3.py \\
    --model-path meta-llama/Llama-3.1-8B-Instruct \\
    --speculative-draft-model-path /path/to/exported-draft \\
    --port 30000 \\
    --trust-remote-code \\
    --mem-fraction-static 0.8 \\
    --tp-size 1 \\
    --attention-backend fa3 \\
    --config-list 1,0,0,0 1,1,1,2 \\
    --benchmark-list mtbench gsm8k:5 ceval:5:accountant \\
    --dtype bfloat16"""


def test_bench_eagle3_is_read_as_the_server_it_launches():
    cfg = parse_launch_command(README)
    assert cfg.engine == "sglang"
    assert (cfg.target_model, cfg.draft_model, cfg.algorithm) == (
        "meta-llama/Llama-3.1-8B-Instruct", "/path/to/exported-draft", "EAGLE3")
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (1, 1, 2)
    assert (cfg.dtype, cfg.attention_backend, cfg.tp) == ("bfloat16", "fa3", 1)
    assert [f.code for f in check_num_steps(cfg, effective_spec(cfg), trained_steps=3)] == ["SD101"]
    # the audit re-reads cfg.argv later (launch_step.check): it must give the same server
    assert parse_launch_command(list(cfg.argv)).num_steps == 1


def test_default_config_list_serves_3_1_4():
    # --config-list defaults to ["1,0,0,0", "1,3,1,4"]
    cfg = parse_launch_command("python bench_eagle3.py --model meta-llama/Llama-3.1-8B-Instruct "
                               "--speculative-algorithm EAGLE3 --speculative-draft-model-path d --port 30000")
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (3, 1, 4)


def test_several_speculative_configs_ask_for_one():
    with pytest.raises(LaunchParseError) as err:
        parse_launch_command(README.replace("1,0,0,0 1,1,1,2", "1,3,1,4 1,5,8,32"))
    assert "(3, 1, 4)" in str(err.value) and "(5, 8, 32)" in str(err.value)


def test_skip_launch_server_points_at_the_real_server():
    with pytest.raises(LaunchParseError) as err:
        parse_launch_command("python SpecForge/benchmarks/bench_eagle3.py --model-path m --port 30000 "
                             "--config-list 1,0,0,0 --benchmark-list mtbench:80 --skip-launch-server")
    assert "--skip-launch-server" in str(err.value)


def test_config_list_without_a_value_is_a_clear_error():
    with pytest.raises(LaunchParseError) as err:
        parse_launch_command("python bench_eagle3.py --model-path m --config-list")
    assert "--config-list" in str(err.value)
