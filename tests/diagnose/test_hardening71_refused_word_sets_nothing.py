"""A word the server refuses sets nothing: the SGLang rules must not read it as the option it starts.

`--speculative-dflash 512` on SGLang 0.5.11 .. 0.5.19 (which have both --speculative-dflash-block-size
and --speculative-dflash-draft-window-size) is argparse's 'ambiguous option': the audit said so, and
then also "--speculative-dflash-block-size 512 and --speculative-num-draft-tokens 16 differ", because
the rules' own lookup read the prefix as the block size. The server never got that far, and the
block size was never set. The same for the keyword given to sgl.Engine(...) (Python's TypeError)."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_CLI = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
        "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --speculative-num-draft-tokens 16 {}")
_ENGINE = ('import sglang as sgl\nllm = sgl.Engine(model_path="Qwen/Qwen3-8B", speculative_algorithm="DFLASH", '
           'speculative_draft_model_path="z-lab/Qwen3-8B-DFlash-b16", speculative_num_draft_tokens=16, {})')
_DIFFER = ("--speculative-dflash-block-size 512 and --speculative-num-draft-tokens 16 differ: SGLang refuses to "
           "start ('For DFLASH they must match')")


def _problems(text: str, engine_version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(text), engine_version=engine_version).problems)


def test_an_ambiguous_abbreviation_is_not_also_read_as_the_block_size() -> None:
    for release in ("0.5.11", "0.5.19"):
        assert _problems(_CLI.format("--speculative-dflash 512"), release) == [
            f"--speculative-dflash: SGLang {release} has no such option, and argparse reads it as an abbreviation of "
            "--speculative-dflash-block-size and --speculative-dflash-draft-window-size: it exits with 'ambiguous "
            "option' and the server does not start; write the option in full"]


def test_where_the_abbreviation_is_unique_it_is_still_the_block_size() -> None:
    # 0.5.20 dropped --speculative-dflash-draft-window-size: argparse reads the prefix as the block size
    assert _problems(_CLI.format("--speculative-dflash 512"), "0.5.20") == [_DIFFER]
    # and the option written in full is read on every release
    assert _problems(_CLI.format("--speculative-dflash-block-size 512"), "0.5.19") == [_DIFFER]


def test_an_engine_keyword_that_only_starts_the_field_sets_nothing_either() -> None:
    for release in ("0.5.19", "0.5.23"):
        [line] = _problems(_ENGINE.format("speculative_dflash=512"), release)
        assert line.startswith("speculative_dflash=: ServerArgs has no field by that name")
    # (said with the call's keywords, as the call writes them: test_hardening73_sglang_call_wording)
    assert _problems(_ENGINE.format("speculative_dflash_block_size=512"), "0.5.23") == [
        "speculative_dflash_block_size=512 and speculative_num_draft_tokens=16 differ: SGLang refuses to "
        "start ('For DFLASH they must match')"]
