"""The configs step with no draft config.json (`run --step` or `demo --step` with launch_flags
skipped, a server command naming no draft, a draft_model path that holds none): it said
"configs passed; notes: ... no draft config.json could be read", which read as one side check
missed, while every check of the step reads that file and none ran. Each such line now says so
and names what went unchecked; the vars it asks for are unchanged."""

from __future__ import annotations

from spec_debug.diagnose.steps.configs_step import check
from spec_debug.probes.registry import ProbeContext

NONE_RAN = ("none of this step's checks ran (the served aux layers, the norm flags the engine ignores, "
            "context length and RoPE against the target, the config against its weights)")


def _notes(configs: dict) -> list[tuple[str, list[str]]]:
    facts = {"configs": configs}
    ctx = ProbeContext(step_id="configs", host="h", args={}, facts=facts, host_facts=dict(facts))
    return [(f.title, f.evidence) for f in check(ctx)]


def test_no_draft_named_says_nothing_was_checked():
    assert _notes({"draft_config": None}) == [
        ("Not checked: --var draft_model=DIR (or a server command that names it)",
         [f"no draft config.json could be read: {NONE_RAN}"])]


def test_a_draft_path_with_no_checkpoint_says_it_too():
    assert _notes({"draft_config": None, "draft_name": "/srv/drafts", "draft_path": None}) == [
        ("Not checked: --var draft_model=DIR, the directory holding the draft's config.json",
         ["no draft config.json could be read: draft_model /srv/drafts is no checkpoint directory on this host "
          f"(not there, or a folder above the one holding config.json); {NONE_RAN}"])]


def test_an_unreadable_config_says_it_too():
    said = "/srv/draft/config.json: not JSON (line 3)"
    assert _notes({"draft_config": None, "draft_config_error": said}) == [
        ("Not checked: a readable draft config.json", [f"{said}: {NONE_RAN}"])]
