"""A `--speculative-*` option the running SGLang release does not have (yet, or any more) is refused.

`--speculative-dflash-draft-window-size 512` on SGLang 0.5.20 or later passed the audit silently:
the option check skipped every speculative word, leaving them to checks that only know names no
release has and a hand list of options added late. SGLang 0.5.11 added the option, 0.5.12.post1
added --speculative-draft-window-size and kept the old spelling as a DeprecatedAliasStoreAction
naming it (`new_flag="--speculative-draft-window-size"`, server_args.py up to 0.5.19); 0.5.20
dropped it, so argparse exits with "unrecognized arguments" and the server does not start
(sglang_options: the options of each release read, from the wheels)."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_DFLASH = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
           "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --speculative-num-draft-tokens 16 {}")
_EAGLE3 = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path /models/eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4 {}")


def _problems(command: str, engine_version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(command), engine_version=engine_version).problems)


def test_the_retired_dflash_window_option_is_refused_naming_its_replacement() -> None:
    command = _DFLASH.format("--speculative-dflash-draft-window-size 512")
    for release in ("0.5.20", "0.5.23"):
        assert _problems(command, release) == [
            f"--speculative-dflash-draft-window-size: SGLang {release} has no such option (nor one it abbreviates; "
            "the releases read that have it: 0.5.11 .. 0.5.19): argparse exits with 'unrecognized arguments' and the "
            "server does not start; write --speculative-draft-window-size instead (SGLang's own deprecation of "
            "--speculative-dflash-draft-window-size names it)"]
    # the releases that have it (0.5.12.post1 .. 0.5.19 as the new option's alias), or not known: nothing
    assert _problems(command, "0.5.11") == []
    assert _problems(command, "0.5.15") == []
    assert _problems(command, None) == []
    # before 0.5.11 it was not there yet (nor DFLASH among the --speculative-algorithm choices)
    assert _problems(command, "0.5.10.post1") == [
        "--speculative-dflash-draft-window-size: SGLang 0.5.10.post1 has no such option (nor one it abbreviates; the "
        "releases read that have it: 0.5.11 .. 0.5.19): argparse exits with 'unrecognized arguments' and the server "
        "does not start; upgrade SGLang, or drop it",
        "--speculative-algorithm DFLASH: SGLang 0.5.10.post1 has no such algorithm (added in 0.5.11; its argparse "
        "choices are EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM): argparse exits with 'invalid choice' and the server "
        "does not start (upgrade SGLang)"]


def test_a_speculative_option_of_later_releases_is_refused_on_an_older_one() -> None:
    command = _DFLASH.format("--speculative-draft-window-size 512")
    assert _problems(command, "0.5.11") == [
        "--speculative-draft-window-size: SGLang 0.5.11 has no such option (nor one it abbreviates; the releases read "
        "that have it: 0.5.12.post1 .. 0.5.23): argparse exits with 'unrecognized arguments' and the server does not "
        "start; upgrade SGLang, or drop it"]
    assert _problems(_EAGLE3.format("--speculative-draft-window-size 512"), "0.5.23") == []


def test_a_speculative_option_a_release_dropped_is_refused() -> None:
    assert _problems(_EAGLE3.format("--speculative-skip-dp-mlp-sync"), "0.5.23") == [
        "--speculative-skip-dp-mlp-sync: SGLang 0.5.23 has no such option (nor one it abbreviates; the releases read "
        "that have it: 0.5.11 .. 0.5.22): argparse exits with 'unrecognized arguments' and the server does not start; "
        "drop it, or write the option `python -m sglang.launch_server --help` lists"]
    assert _problems(_EAGLE3.format("--speculative-skip-dp-mlp-sync"), "0.5.22") == []


def test_the_options_other_checks_judge_are_said_once() -> None:
    # a late option of the hand list: _sglang_options_too_new's line only
    assert _problems(_EAGLE3.format("--speculative-use-rejection-sampling"), "0.5.13") == [
        "--speculative-use-rejection-sampling: SGLang 0.5.13 has no such option (added in 0.5.14): argparse exits "
        "with 'unrecognized arguments' and the server does not start (upgrade SGLang to 0.5.14 or later, or drop the "
        "flag)"]
    # a name no release has: _unknown_sglang_option's line only
    [line] = _problems(_EAGLE3.format("--speculative-num-stepz 5"), "0.5.23")
    assert line.startswith("--speculative-num-stepz: SGLang has no such option (nor one it abbreviates, in any "
                           "release from 0.4.4 to 0.5.23)")
