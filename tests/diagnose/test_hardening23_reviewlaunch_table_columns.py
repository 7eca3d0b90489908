"""Review of the Markdown-table reader (session 14, launch audit).

- A reference table whose second column is the engine's defaults (`| Argument | Default |
  Description |`, the order many READMEs copy from SGLang's server-arguments docs) was read as
  a runbook setting each flag to its default: `--speculative-num-steps None` gave "expects an
  integer, got 'None'" instead of "not a server command". Its header names no value column and a
  defaults/description column where the value would be: no flag list (the docstring said so).
- A value cell that is a sentence (`| --speculative-num-steps | Number of draft steps. |`) makes
  the table no flag list, as the docstring said, instead of the sentence read as values.
- A runbook's switch noted `(flag)` in its value cell (a public Ascend SGLang runbook:
  `| --disable-radix-cache | (flag) |`) is a switch: the table was 'not a server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

DEFAULTS_TABLE = """| Argument | Default | Description |
|---|---|---|
| `--speculative-num-steps` | `None` | The number of steps sampled from draft model in Speculative Decoding. |
| `--speculative-eagle-topk` | `None` | The number of tokens sampled from the draft model in eagle2 each step. |
"""

PROSE_TABLE = """| `--speculative-algorithm` | Speculative algorithm, such as `EAGLE3` or `MTP`. |
| `--speculative-num-steps` | Number of draft model steps. Defaults to `3`. |
"""

# the "Mode A sglang args" table of a public Ascend NPU runbook (Qwen3.6-35B-A3B, SGLang)
RUNBOOK = """| Parameter | Value |
|---|---|
| `--tp-size` | 16 |
| `--mem-fraction-static` | 0.80 |
| `--disable-radix-cache` | (flag) |
| `--speculative-algorithm` | NEXTN |
| `--speculative-num-steps` | 3 |
| `--speculative-eagle-topk` | 1 |
| `--speculative-num-draft-tokens` | 4 |
| `--cuda-graph-bs` | 1 2 4 8 16 |
"""


@pytest.mark.parametrize("table", [DEFAULTS_TABLE, DEFAULTS_TABLE.replace("| Default |", "| Defaults |")])
def test_a_reference_table_is_no_launch(table):
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(table)


def test_a_sentence_in_the_value_cell_is_no_value():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(PROSE_TABLE)
    assert "Number" not in exc.value.message and "Speculative" not in exc.value.message


def test_a_switch_noted_flag_is_a_switch():
    cfg = parse_launch_command(RUNBOOK)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens, cfg.tp) == (
        "sglang", "NEXTN", 3, 1, 4, 16)
    assert cfg.flags["disable-radix-cache"] is True


def test_a_values_table_still_reads():
    cfg = parse_launch_command("| Flag | Value | Why |\n|---|---|---|\n| `--speculative-algorithm` | `EAGLE3` | drafter |\n"
                               "| `--speculative-num-steps` | 1 | lower latency, fewer tokens |\n")
    assert (cfg.algorithm, cfg.num_steps) == ("EAGLE3", 1)
