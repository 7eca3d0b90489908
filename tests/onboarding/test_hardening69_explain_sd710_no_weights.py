"""`spec-debug explain SD710` said only "a model.safetensors.index.json none of whose shards is
there" and "delete the stale index". `analyze` read any transcript whose engine stopped with
"Cannot find any model weights with `<draft dir>`" for the draft as SD710 - and vLLM's
DefaultModelLoader._prepare_weights (vllm/model_executor/model_loader/default_loader.py) raises
that same RuntimeError whenever no weight file is left: a draft folder with no *.safetensors,
*.bin or *.pt at all too. The on-call engineer told to delete an index that is not there had no
next step. The entry now says the refusal has that other cause (analyze gives SD710 only where the
session also showed the stale index) and what to do for it."""

from __future__ import annotations

from spec_debug.session.spec_facts import text_observations
from tests.conftest import run_cli

# SGLang's refusal for a draft folder: the same text whether a stale index or no weights caused it
EMPTY_DRAFT = (
    "[2026-12-06 10:00:05] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker_v2.py", line 140, in __init__\n'
    "    self._draft_worker = EagleDraftWorker(\n"
    '  File "/opt/sglang/python/sglang/srt/model_loader/loader.py", line 581, in _prepare_weights\n'
    "    raise RuntimeError(\n"
    "RuntimeError: Cannot find any model weights with `/models/kimi-eagle3-epoch3`\n")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_the_entry_names_the_other_cause_of_the_refusal_analyze_flags():
    # the engine's line alone is read as SD710's refusal; the analysis keeps it only where the
    # session also showed the stale index (tests/session/test_hardening69_no_weights_cause.py)
    assert [o.code for o in text_observations(EMPTY_DRAFT)] == ["SD710"]
    result = run_cli("explain", "SD710")
    assert result.code == 0, result.stderr
    text = _one_line(result.stdout)
    assert ("`analyze` also gives it for a transcript whose engine stopped with \"Cannot find any model "
            "weights with <draft dir>\" for the draft where the session also listed that folder's stale "
            "index beside the single file: the same refusal comes from a draft folder that holds no weight "
            "file at all (no *.safetensors, *.bin or *.pt: a save that failed, the wrong folder), so the "
            "refusal alone is no finding.") in text
    assert ("A folder with no model.safetensors either (`ls <draft dir>`) holds no weights: point the "
            "server at the folder the draft was saved to.") in text
