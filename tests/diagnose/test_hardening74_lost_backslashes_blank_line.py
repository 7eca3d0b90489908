"""A pasted launch command that lost its backslashes is read whole across empty and comment lines.

A command copied from a page that drops the `\\` at each line's end (every flag on a line of its
own) is read as the command meant: a line starting with a flag continues the one above (no command
starts with a dash). An empty line or a comment line between the flag lines split it instead: the
flags below were dropped, so

    python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct
      --speculative-algorithm EAGLE3
      --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B
      # draft tree
      --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4

was audited with no draft settings (SGLang's auto-chosen 5/4/8 for Llama). Now every flag line
is read. A Markdown bullet ("- note") or rule ("---") after an empty line is still no flag line,
and a `\\` line before an empty or a comment line still ends the command there, as bash does.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command

_HEAD = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct\n"
         "  --speculative-algorithm EAGLE3\n"
         "  --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B\n")
_TAIL = "  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4\n  --port 30000\n"


@pytest.mark.parametrize("between", ["\n", "  # draft tree\n", "\n# draft tree\n\n", "\r\n"])
def test_flag_lines_after_an_empty_or_comment_line_are_read(between: str) -> None:
    cfg = parse_launch_command(_HEAD + between + _TAIL)
    assert cfg.argv[3:] == ("--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3",
                            "--speculative-draft-model-path", "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B",
                            "--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
                            "--speculative-num-draft-tokens", "4", "--port", "30000")
    eff = effective_spec(cfg)
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.auto_chosen) == (3, 1, 4, False)


def test_a_bullet_or_a_rule_after_an_empty_line_is_no_flag() -> None:
    for after in ("- the server started\n- acceptance is low\n", "---\nlogs:\n"):
        cfg = parse_launch_command(_HEAD + "\n" + after)
        assert cfg.argv[-2:] == ("--speculative-draft-model-path", "lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B"), after


def test_a_backslash_line_before_an_empty_line_still_ends_the_command() -> None:
    # bash: the `\\` continues onto the empty line, whose newline ends the command
    text = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
            "  --port 30000 \\\n\n" + _HEAD.split("\n", 1)[1])
    with pytest.raises(LaunchParseError, match="an empty line after a `.` line ends the continued server command"):
        parse_launch_command(text)
