"""A runbook's Markdown table of server flags pasted as the launch (session 14).

Runbooks keep the serving flags in a table (`| --speculative-num-steps | 3 |`, GFM tables).
Pasted alone it was 'not an SGLang or vLLM server command' (its `|` read as pipes), so a table
that caps drafting at one step got no SD101. Each row whose first cell is a flag gives that flag
and its value cell; a reference table of the flags' defaults and descriptions (SGLang's
server-arguments docs) is still no launch.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

RUNBOOK_TABLE = """| Flag | Value | Why |
|------|-------|-----|
| `--model-path` | `meta-llama/Llama-3.1-8B-Instruct` | target |
| `--speculative-algorithm` | `EAGLE3` | |
| `--speculative-draft-model-path` | `jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B` | trained with 3 steps |
| `--speculative-num-steps` | `1` | lower latency |
| `--speculative-eagle-topk` | 1 | |
| `--speculative-num-draft-tokens` | 2 | |
| `--trust-remote-code` | | |
"""

# the columns of SGLang's docs/advanced_features/server_arguments.md: the engine's defaults
REFERENCE_TABLE = """| Argument | Description | Defaults |
|----------|-------------|----------|
| `--speculative-algorithm` | Speculative algorithm. | `None` |
| `--speculative-num-steps` | The number of steps sampled from draft model in Speculative Decoding. | `None` |
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_runbook_table_is_read_as_its_flags():
    cfg = parse_launch_command(RUNBOOK_TABLE)
    assert cfg.engine == "sglang" and cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 1, 1, 2)
    assert cfg.flags["trust-remote-code"] is True


def test_a_table_capping_drafting_gives_sd101():
    launch, findings = _findings(RUNBOOK_TABLE)
    assert launch["found"]
    assert "SD101" in [f.code for f in findings]


def test_a_single_row_and_a_vllm_json_cell():
    assert parse_launch_command("| --speculative-num-steps | 3 |").num_steps == 3
    cfg = parse_launch_command('| --speculative-config | `{"method":"eagle3","model":"d","num_speculative_tokens":2}` |')
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("vllm", "EAGLE3", 2)


def test_the_header_names_the_value_column():
    cfg = parse_launch_command("| Flag | Why | Value |\n| :--- | :--- | ---: |\n"
                               "| `--speculative-algorithm` | EAGLE-3 drafter | `EAGLE3` |\n"
                               "| `--speculative-num-steps` | latency | `1` |\n")
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 1)


def test_a_reference_table_of_defaults_is_no_launch():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(REFERENCE_TABLE)
