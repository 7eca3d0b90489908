"""One version comparison for both engines' 'surely before' gates, and SGLang's option gates on it.

`_sglang_surely_before` and `vllm_surely_before` were near copies differing in what a source-tree
build (setuptools_scm's X.Y.Z.devN) may reach: SGLang's next patch release, vLLM's next minor one.
They now share `surely_before`; the per-engine difference is its parameter. SGLang's EAGLE-3,
lower-case algorithm and any-topk gates used `_release_at_least`, which reads a dev build as the
release it is numbered after: a build after the 0.4.4.post2 tag (0.4.4.post3.dev5) was told it has
no EAGLE-3 and the server does not start.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose import launch
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

SGLANG = ("python -m sglang.launch_server --model-path m --speculative-draft-model-path d "
          "--speculative-num-steps 3 --speculative-num-draft-tokens 4 ")


def _problems(flags, version):
    return effective_spec(parse_launch_command(SGLANG + flags), engine_version=version).problems


@pytest.mark.parametrize("flags, version", [
    ("--speculative-algorithm EAGLE3 --speculative-eagle-topk 1", "0.4.4.post3.dev5"),
    ("--speculative-algorithm eagle3 --speculative-eagle-topk 1", "0.5.11.post1.dev4"),
    ("--speculative-algorithm EAGLE --speculative-eagle-topk 3", "0.4.3.post5.dev2"),
], ids=["eagle3", "lower_case", "topk"])
def test_a_source_build_that_may_hold_the_option_is_not_refused(flags, version):
    assert _problems(flags, version) == []


@pytest.mark.parametrize("flags, version, said", [
    ("--speculative-algorithm EAGLE3 --speculative-eagle-topk 1", "0.4.4.post1", "has no EAGLE-3"),
    ("--speculative-algorithm eagle3 --speculative-eagle-topk 1", "0.5.11", "only accepts upper case"),
    ("--speculative-algorithm EAGLE --speculative-eagle-topk 3", "0.4.3", "only accepts 1, 2, 4, 8"),
], ids=["eagle3", "lower_case", "topk"])
def test_a_release_before_the_option_is_still_refused(flags, version, said):
    (problem,) = _problems(flags, version)
    assert said in problem


# version, since, SGLang's answer, vLLM's answer
@pytest.mark.parametrize("version, since, sglang, vllm", [
    ("0.5.13rc1", "0.5.13", False, False),
    ("0.5.13.post1", "0.5.13", False, False),
    ("0.11.1.dev123+gabc", "0.11.2", False, False),
    ("0.11.1.dev123+gabc", "0.12.0", True, False),   # vLLM's nightly may reach the next minor
    ("0.11.0rc2", "0.11.0", False, False),
    ("0.11", "0.11.0", False, False),
    ("v0.11.0", "0.12.0", True, True),
    ("0.5.6.post2", "0.5.6.post1", False, False),   # was True for SGLang: its .post dropped
    ("0.5.6.post1", "0.5.6.post2", True, True),
    ("not-a-version", "0.5.7", False, False),
    ("0.0.0.dev0", "0.5.7", False, False),
])
def test_the_engines_differ_only_in_what_a_dev_build_reaches(version, since, sglang, vllm):
    assert launch._sglang_surely_before(version, since) is sglang
    assert launch.vllm_surely_before(version, since) is vllm
