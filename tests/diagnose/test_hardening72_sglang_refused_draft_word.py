"""`--speculative-draft X` on SGLang 0.5.2 and later names no draft: argparse exits on it.

From 0.5.2 `--speculative-draft` abbreviates --speculative-draft-model, --speculative-draft-model-path
and --speculative-draft-model-revision (PyPI wheel 0.5.2 srt/server_args.py), so argparse exits with
'ambiguous option' (SD102 says so) and no draft is loaded. Was: its value still named the draft, and
SD103 judged that draft (a name saying EAGLE-3 served as EAGLE, the target given as the EAGLE-3
draft) beside the refusal, of a server that never starts. Before 0.5.2 it is the draft path, and
the draft checks stand.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command, refused_draft_word
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

_TARGET = "meta-llama/Llama-3.1-8B-Instruct"
_EAGLE_NAMED_EAGLE3 = (f"python -m sglang.launch_server --model-path {_TARGET} --speculative-algorithm EAGLE "
                       "--speculative-draft /models/kimi-k2.6-eagle3-mla --speculative-num-steps 3 "
                       "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
_TARGET_AS_DRAFT = (f"python -m sglang.launch_server --model-path {_TARGET} --speculative-algorithm EAGLE3 "
                    f"--speculative-draft {_TARGET} --speculative-num-steps 3 --speculative-eagle-topk 1 "
                    "--speculative-num-draft-tokens 4")


def _codes(command: str, version: str) -> list[str]:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, engine={"name": "sglang", "version": version})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [f.code for f in launch_step.check(ctx)]


@pytest.mark.parametrize("command", [_EAGLE_NAMED_EAGLE3, _TARGET_AS_DRAFT])
def test_from_052_only_the_refusal_is_said(command: str) -> None:
    assert _codes(command, "0.5.2") == ["SD102"]
    assert _codes(command, "0.5.10.post1") == ["SD102"]


@pytest.mark.parametrize("command", [_EAGLE_NAMED_EAGLE3, _TARGET_AS_DRAFT])
def test_before_052_the_draft_is_judged(command: str) -> None:
    assert _codes(command, "0.5.1.post3") == ["SD103"]


def test_the_refused_word() -> None:
    cfg = parse_launch_command(_TARGET_AS_DRAFT)
    assert cfg.draft_model == _TARGET
    assert [refused_draft_word(cfg, v) for v in ("0.5.1.post3", "0.5.2rc2", "0.5.2", None)] == [
        None, None, "speculative-draft", "speculative-draft"]
    full = parse_launch_command(_TARGET_AS_DRAFT.replace("--speculative-draft ", "--speculative-draft-model-path "))
    assert refused_draft_word(full, "0.5.10.post1") is None
