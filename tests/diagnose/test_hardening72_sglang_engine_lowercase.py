"""A lower-case SGLang algorithm given to `sgl.Engine(...)` is not refused by argparse.

Before 0.5.12 the command line's `--speculative-algorithm` has upper-case argparse `choices`, so a
lower-case name makes argparse exit. A Python call reads no argparse: SpeculativeAlgorithm.from_string
upper-cases the name for the worker, but ServerArgs.__post_init__ compares the raw value with
"EAGLE", "EAGLE3", "STANDALONE" (and maps only "NEXTN" to "EAGLE"), so the speculative set-up is
skipped, and "nextn" reaches from_string, whose enum has no NEXTN. Read from the PyPI wheels 0.4.6,
0.5.2 and 0.5.10.post1 (srt/speculative/spec_info.py, srt/server_args.py). Was: "argparse exits with
'invalid choice' and the server does not start" for the Python call too.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SCRIPT = ('import sglang as sgl\nllm = sgl.Engine(model_path="Qwen/Qwen3-8B", speculative_algorithm="{}", '
           'speculative_draft_model_path="AngelSlim/Qwen3-8B_eagle3")')
_CMD = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm {} "
        "--speculative-draft-model-path AngelSlim/Qwen3-8B_eagle3")


def _algorithm_lines(text: str, version: str) -> list[str]:
    problems = effective_spec(parse_launch_command(text), engine_version=version).problems
    return [line for line in problems if line.startswith(("speculative_algorithm=", "--speculative-algorithm"))]


@pytest.mark.parametrize(("written", "version"), [("standalone", "0.5.2"), ("eagle3", "0.5.10.post1"),
                                                  ("Eagle3", "0.4.6")])
def test_python_call_is_not_told_argparse_exits(written: str, version: str) -> None:
    assert _algorithm_lines(_SCRIPT.format(written), version) == [
        f"speculative_algorithm='{written}': SGLang {version}'s ServerArgs compares it with upper-case names and "
        "skips its speculative set-up (auto-chosen steps, topk and draft tokens; overlap scheduler off), though its "
        f"worker upper-cases it: write '{written.upper()}' (0.5.12 and later upper-case it)"]


def test_python_call_nextn_is_not_mapped_and_from_string_raises() -> None:
    assert _algorithm_lines(_SCRIPT.format("nextn"), "0.5.2") == [
        "speculative_algorithm='nextn': SGLang 0.5.2's ServerArgs maps only 'NEXTN' to 'EAGLE' and its "
        "SpeculativeAlgorithm has no NEXTN, so from_string raises and Engine(...) does not start: write 'NEXTN' "
        "(0.5.12 and later upper-case it)"]


def test_python_call_name_the_release_lacks_is_refused_once_by_the_release_names() -> None:
    assert _algorithm_lines(_SCRIPT.format("dflash"), "0.5.10.post1") == [
        "speculative_algorithm='DFLASH': SGLang 0.5.10.post1 has no such algorithm (added in 0.5.11; it takes EAGLE, "
        "EAGLE3, NEXTN, STANDALONE, NGRAM): SpeculativeAlgorithm.from_string raises and Engine(...) does not start "
        "(upgrade SGLang)"]


def test_command_line_keeps_the_argparse_refusal() -> None:
    assert _algorithm_lines(_CMD.format("eagle3"), "0.5.10.post1") == [
        "--speculative-algorithm eagle3: SGLang 0.5.10.post1 only accepts upper case (EAGLE3); argparse exits with "
        "'invalid choice' and the server does not start (0.5.12 and later upper-case it)"]


@pytest.mark.parametrize("text", [_SCRIPT, _CMD])
def test_from_0512_or_upper_case_is_clean(text: str) -> None:
    assert _algorithm_lines(text.format("eagle3"), "0.5.12") == []
    assert _algorithm_lines(text.format("EAGLE3"), "0.5.10.post1") == []
