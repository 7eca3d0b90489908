"""An SGLang option the running release does not have yet (or no longer) stops the server.

SGLang's docs and cookbook name the newest release's options: `--attn-cp-size 2` (0.5.9 on) on
a 0.5.6 server, or `--enable-ep-moe` (gone by 0.5.4.post3) on 0.5.6, makes argparse exit with
"unrecognized arguments" and the server does not start. Only the words no release had were
refused; these were read as flags and said nothing. sglang_options keeps each release's options
(the PyPI wheels of 30 releases), so a word none of the options of the running release starts
is now SD102, with the releases that have it.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.sglang_options import SGLANG_OPTIONS_BY_RELEASE

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
UNRECOGNIZED = "argparse exits with 'unrecognized arguments' and the server does not start"


def _problems(extra: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(f"{SGLANG} {extra}"), engine_version=version).problems)


def test_an_option_of_later_releases_is_refused_by_an_older_one():
    assert _problems("--attn-cp-size 2", "0.5.6") == [
        "--attn-cp-size: SGLang 0.5.6 has no such option (nor one it abbreviates; the releases read that have it: "
        f"0.5.9 .. 0.5.23): {UNRECOGNIZED}; upgrade SGLang, or drop it"]
    # the release read at or after a release between two read ones decides with the one before it
    assert _problems("--attn-cp-size 2", "0.5.9") == []
    assert _problems("--attn-cp-size 2", "0.5.23") == []


def test_an_option_a_release_removed_is_refused_after_it():
    assert "enable-ep-moe" in SGLANG_OPTIONS_BY_RELEASE["0.4.4.post4"]
    assert "enable-ep-moe" not in SGLANG_OPTIONS_BY_RELEASE["0.5.6.post2"]
    [line] = _problems("--enable-ep-moe", "0.5.6.post2")
    assert line.startswith("--enable-ep-moe: SGLang 0.5.6.post2 has no such option (nor one it abbreviates; "
                           "the releases read that have it: 0.4.4.post4 .. ")
    # the replacement SGLang's deprecation of it named (test_hardening70_sglang_retired_flags.py)
    assert line.endswith(f"{UNRECOGNIZED}; write --ep-size set to the --tp-size value instead (SGLang's own "
                         "deprecation of --enable-ep-moe names it)")
    assert _problems("--enable-ep-moe", "0.4.4.post4") == []


@pytest.mark.parametrize("version", [
    None,  # the release is not known
    "0.5.7rc1", "0.5.6.post3.dev120+g1234abc",  # a pre-release or a source-tree build may hold it
    "0.5.24",  # after the newest read
])
def test_a_release_whose_options_are_not_known_is_not_judged(version):
    assert _problems("--attn-cp-size 2", version) == []


def test_speculative_options_keep_their_own_rule():
    # `--speculative-draft-model-quantization` came in 0.5.7: said once, by the rule that has its release
    [line] = _problems("--speculative-draft-model-quantization fp8", "0.5.6")
    assert "(added in 0.5.7)" in line
