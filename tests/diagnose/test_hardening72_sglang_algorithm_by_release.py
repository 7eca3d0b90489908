"""An SGLang algorithm name that a release's argparse `choices` lack is refused for that release.

Up to 0.5.11 `--speculative-algorithm` had argparse `choices` (sglang/srt/server_args.py in the PyPI
wheels, read): EAGLE, EAGLE3, NEXTN in 0.5.1.post3; + STANDALONE in 0.5.2; + NGRAM in 0.5.3 and
0.5.10.post1; + DFLASH in 0.5.11; 0.5.12 has no `choices` (the builtins are named in the help only).
The names were checked against the newest release's list only, so `--speculative-algorithm DFLASH`
on SGLang 0.5.10.post1 (or NGRAM on 0.5.2) passed, though argparse exits with 'invalid choice' there.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_CMD = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm {} "
        "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --speculative-num-draft-tokens 8")


def _choices(algorithm: str, version: str | None) -> list[str]:
    problems = effective_spec(parse_launch_command(_CMD.format(algorithm)), engine_version=version).problems
    return [line for line in problems if "argparse choices" in line]


def test_dflash_before_0511_is_refused() -> None:
    assert _choices("DFLASH", "0.5.10.post1") == [
        "--speculative-algorithm DFLASH: SGLang 0.5.10.post1 has no such algorithm (added in 0.5.11; its argparse "
        "choices are EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM): argparse exits with 'invalid choice' and the server "
        "does not start (upgrade SGLang)"]


@pytest.mark.parametrize(("algorithm", "version", "added", "choices"), [
    ("NGRAM", "0.5.2", "added in 0.5.3", "EAGLE, EAGLE3, NEXTN, STANDALONE"),
    ("STANDALONE", "0.5.1.post3", "added in 0.5.2", "EAGLE, EAGLE3, NEXTN"),
    ("DSPARK", "0.5.11", "only in releases after 0.5.11", "EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM, DFLASH"),
])
def test_each_name_by_release(algorithm: str, version: str, added: str, choices: str) -> None:
    [line] = _choices(algorithm, version)
    assert line.startswith(f"--speculative-algorithm {algorithm}: SGLang {version} has no such algorithm ({added}; "
                           f"its argparse choices are {choices}): argparse exits with 'invalid choice'")


def test_a_lower_case_name_the_release_lacks_is_refused_for_both_reasons() -> None:
    problems = effective_spec(parse_launch_command(_CMD.format("dflash")), engine_version="0.5.10.post1").problems
    assert [line for line in problems if line.startswith("--speculative-algorithm")] == [
        "--speculative-algorithm dflash: SGLang 0.5.10.post1 only accepts upper case (DFLASH); argparse exits with "
        "'invalid choice' and the server does not start (0.5.12 and later upper-case it)",
        "--speculative-algorithm DFLASH: SGLang 0.5.10.post1 has no such algorithm (added in 0.5.11; its argparse "
        "choices are EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM): argparse exits with 'invalid choice' and the server "
        "does not start (upgrade SGLang)"]


@pytest.mark.parametrize(("algorithm", "version"), [
    ("DFLASH", "0.5.11"), ("NGRAM", "0.5.3"), ("STANDALONE", "0.5.2"), ("DSPARK", "0.5.23"), ("DFLASH", None),
    ("DFLASH", "0.5.10.post2.dev5"), ("EAGLE", "0.4.9"), ("NEXTN", "0.5.1.post3")])
def test_a_release_with_the_name_or_without_choices_is_clean(algorithm: str, version: str | None) -> None:
    assert _choices(algorithm, version) == []


def test_a_python_engine_call_is_refused_by_the_algorithm_enum_not_argparse() -> None:
    # no argparse reads sgl.Engine's keywords, but 0.5.2's SpeculativeAlgorithm has no NGRAM
    # (sglang/srt/speculative/spec_info.py): from_string raises and the engine does not start
    script = ('import sglang as sgl\nllm = sgl.Engine(model_path="Qwen/Qwen3-8B", speculative_algorithm="NGRAM")')
    problems = effective_spec(parse_launch_command(script), engine_version="0.5.2").problems
    assert [line for line in problems if "has no such algorithm" in line] == [
        "speculative_algorithm='NGRAM': SGLang 0.5.2 has no such algorithm (added in 0.5.3; it takes EAGLE, EAGLE3, "
        "NEXTN, STANDALONE): SpeculativeAlgorithm.from_string raises and Engine(...) does not start (upgrade SGLang)"]
    assert [line for line in effective_spec(parse_launch_command(script), engine_version="0.5.3").problems
            if "has no such algorithm" in line] == []
