"""vocab_maps (host side): d2t / t2d / embedding rows of the draft against the target vocab.

Reads the two small map tensors, the safetensors headers and 32 sampled lm_head rows of each
side (spec_debug.eagle3.api check_drafter_vocab), so it is cheap even for a large checkpoint; only
a map that sends those rows to other target tokens makes it read the target's whole head, to name
the rows they were copied from (spec_debug.eagle3.head_map).
"""

from __future__ import annotations

import os
from pathlib import Path

from spec_debug.probes.hostfiles import engine_weights_refusal, given_model, hf_cache_dirs, resolve_model_dir
from spec_debug.probes.playbook_words import speaks_playbook


@speaks_playbook  # the drafter's errors and notes name its options: said as the playbook's vars
def run(args: dict) -> dict:
    draft = resolve_model_dir(args.get("draft_model") or None)
    # a target given that is not here is named, not replaced by the config's verifier
    target = given_model(args.get("target_model") or None)
    if draft is None and args.get("draft_model"):
        # named: "pass --var draft_model=DIR" alone asked for the var the user had given
        return {"args": args, "skipped": _no_draft(str(args["draft_model"]))}
    if draft is None:
        return {"args": args, "skipped": "no draft checkpoint: pass --var draft_model=DIR "
                                         "(or a server command naming it)"}
    from spec_debug.eagle3.api import check_drafter_vocab

    # vocab_mapping: the training's map file, which the checkpoint's d2t must equal (SD302)
    from spec_debug.eagle3.config import CheckpointError, ConfigMisfitError

    try:
        report = check_drafter_vocab(draft, target, vocab_mapping=args.get("vocab_mapping") or None)
    except ConfigMisfitError as exc:
        # a config that does not describe its weights (a decoder type retyped by hand): the
        # configs step says it (SD704); the vocab step names it as why it did not run
        return {"args": args, "draft": str(draft), "draft_misfit": str(exc)}
    except CheckpointError as exc:
        refused = engine_weights_refusal(draft, exc)
        if refused is None:
            raise
        # a folder vLLM and SGLang load no weight file from: the configs step's SD710
        return {"args": args, "draft": str(draft), "no_engine_weights": refused}
    return {"args": args, "draft": str(draft), "target": str(target) if target else None,
            "report": report}


def _no_draft(name: str) -> str:
    """Why a draft_model given is no checkpoint here. A Hub id (`org/name`, as a server command
    names it: the engines download it) with no snapshot in this host's Hugging Face cache was
    said as "not there, or a folder above the one holding config.json", which reads as a
    wrong path; it now names the caches looked in and how to fetch it (the drafter's own
    words for the same case: eagle3/checkpoint.py resolve_checkpoint_dir)."""
    path = Path(os.path.expanduser(name))
    if "/" in name and not name.startswith(("/", ".", "~")) and not path.exists():
        caches = ", ".join(str(root) for root in hf_cache_dirs())
        return (f"no draft checkpoint: draft_model {name} is no directory on this host, and no "
                f"Hugging Face cache here holds a snapshot of this Hub id (looked in {caches}): "
                f"download it first (`huggingface-cli download {name}`), or pass the local "
                "checkpoint directory as --var draft_model=DIR")
    return (f"no draft checkpoint: draft_model {name} is no checkpoint directory on this host "
            "(not there, or a folder above the one holding config.json)")
