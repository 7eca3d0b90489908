"""`vllm serve <speculator> --speculative-config '{"num_speculative_tokens": 5}'` on a vLLM before 0.29.0.

vllm-project/vllm PR #42376 lays a --speculative-config written beside a served speculator over the
speculator's own (`speculative_config.update(vllm_speculative_config)` in the 0.29.0 sdist's
vllm/transformers_utils/config.py maybe_override_with_speculators); 0.28.0 and older return the
speculator's config alone, so the written num_speculative_tokens is dropped and the speculator's
proposal count runs.

Before: the written K was read as run on every release: on 0.28.0 a written 5 was audited as K 5
(the server runs 3), and a written 1 got SD101 "capped at one drafted token" for a server that
drafts 3. Now: on a release before 0.29.0 the audit runs the speculator's K and says, in an SD102
warning, that the written one is dropped; 0.29.0 and later, and an unknown release, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# the speculators-format config.json the reference library's save_pretrained writes (3 tokens, verifier "target")
SPECULATOR = json.loads((Path(__file__).resolve().parents[1] / "data" / "speculators_eagle3_draft" / "config.json")
                        .read_text())


def _audit(command: str, version: str | None):
    host = {"source": "var", "cmdline": command,
            "models": {"/ckpt/spec": {"path": "/ckpt/spec", "config": SPECULATOR}}}
    facts = launch_step.parse(host)
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return launch_step.check(ctx)


def _dropped(written: int, version: str) -> str:
    return (f"num_speculative_tokens {written} written beside the served speculator /ckpt/spec: vLLM {version} serves "
            "the speculator's own speculative config and drops the --speculative-config written with it, so it runs 3 "
            f"speculative tokens, not {written} (vllm/transformers_utils/config.py maybe_override_with_speculators; the "
            "written keys are laid over the speculator's from 0.29.0, vllm-project/vllm#42376)")


@pytest.mark.parametrize("version", ["0.28.0", "0.22.1"])
def test_an_older_release_runs_the_speculators_k(version: str) -> None:
    findings = _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 5}'", version)
    assert [(f.code, f.severity) for f in findings] == [("SD102", "warning")]
    assert findings[0].evidence == [_dropped(5, version)]
    assert findings[0].facts["effective"] == {"steps": 3, "topk": 1, "num_draft_tokens": 4}


def test_one_written_token_is_no_cap_there() -> None:
    # the server drafts the speculator's 3: SD101's "at most one drafted token" is not its cap
    findings = _audit("vllm serve /ckpt/spec --speculative-config.num_speculative_tokens 1", "0.28.0")
    assert [(f.code, f.evidence) for f in findings] == [("SD102", [_dropped(1, "0.28.0")])]


@pytest.mark.parametrize("version", ["0.29.0", "0.34.0", None])
def test_the_newer_releases_lay_it_over(version: str | None) -> None:
    assert _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 5}'", version) == []
    findings = _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 1}'", version)
    assert [(f.code, f.severity) for f in findings] == [("SD101", "error")]


def test_the_speculators_own_k_written_again_is_no_change() -> None:
    assert _audit("vllm serve /ckpt/spec --speculative-config '{\"num_speculative_tokens\": 3}'", "0.28.0") == []
