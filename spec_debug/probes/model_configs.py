"""model_configs (host side): the draft's and the target's config.json and tensor shapes."""

from __future__ import annotations

from spec_debug.probes.hostfiles import describe_model


def run(args: dict) -> dict:
    return {
        "args": args,
        "draft": describe_model(args.get("draft_model") or None, with_tensors=True),
        "target": describe_model(args.get("target_model") or None, with_tensors=False),
    }
