"""An abbreviation that starts two or more of the running SGLang release's options stops the server.

SGLang parses with a plain argparse.ArgumentParser, allow_abbrev on (python/sglang/srt/server_args.py
prepare_server_args, launch_server.py), so `--tp 2` is --tp-size; but a word that is no option and
starts several (CPython Lib/argparse.py `_parse_optional`: "ambiguous option: --pp could match
--pp-max-micro-batch-size, --pp-size") exits at startup. The audit took any prefix of an option as
fine: `--pp 2` (written like `--tp 2`) on 0.5.6.post2, `--context 8192` on 0.5.23 (0.5.21 added
--context-bucket beside --context-length), `--attention fa3` on 0.5.19 passed as healthy.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.sglang_options import SGLANG_OPTIONS_BY_RELEASE

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


def _problems(extra: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(f"{SGLANG} {extra}"), engine_version=version).problems)


@pytest.mark.parametrize(("word", "version", "matches"), [
    ("--pp 2", "0.5.6.post2", "--pp-max-micro-batch-size and --pp-size"),
    ("--pp 2", "0.5.23", "--pp-async-batch-depth, --pp-max-micro-batch-size and --pp-size"),
    ("--context 8192", "0.5.23", "--context-bucket and --context-length"),
    ("--attention fa3", "0.5.19", "--attention-backend and --attention-context-parallel-size"),
])
def test_a_prefix_of_several_options_is_ambiguous(word, version, matches):
    name = word.split()[0]
    assert _problems(word, version) == [
        f"{name}: SGLang {version} has no such option, and argparse reads it as an abbreviation of {matches}: it "
        "exits with 'ambiguous option' and the server does not start; write the option in full"]


@pytest.mark.parametrize(("word", "version"), [
    ("--pp 2", "0.5.2"),  # --pp-size was its only --pp option (--pp-max-micro-batch-size: 0.5.3.post3)
    ("--context 8192", "0.5.20"),  # before --context-bucket
    ("--tp 2", "0.5.23"), ("--mem-frac 0.8", "0.5.23"),  # one option each: taken
    ("--pp 2", None),  # the release not known
])
def test_a_prefix_of_one_option_or_an_unknown_release_is_taken(word, version):
    assert _problems(word, version) == []


def test_the_options_named_are_the_releases():
    assert sorted(o for o in SGLANG_OPTIONS_BY_RELEASE["0.5.6.post2"] if o.startswith("pp")) == [
        "pp-max-micro-batch-size", "pp-size"]
    assert "context-bucket" in SGLANG_OPTIONS_BY_RELEASE["0.5.21"]
    assert "context-bucket" not in SGLANG_OPTIONS_BY_RELEASE["0.5.20"]
