"""model_configs (host side): the draft's and the target's config.json and tensor shapes."""

from __future__ import annotations

from spec_debug.probes.hostfiles import (FROM_VERIFIER, describe_model, named_verifier_dir, resolve_model_dir,
                                         verifier_name)


def run(args: dict) -> dict:
    draft = describe_model(args.get("draft_model") or None, with_tensors=True)
    target_name = args.get("target_model") or None
    target = describe_model(target_name, with_tensors=False)
    verifier = named_verifier_dir(draft.get("config")) if target_name is None else None
    if verifier is not None:
        # the drafter probes score against this target without --var target_model; without
        # it here the configs step alone said "no target config.json: aux layers not
        # compared" (the incident's SD201) on a host holding it
        target = {**describe_model(str(verifier), with_tensors=False), "source": FROM_VERIFIER}
    elif target_name is None:
        # the verifier the draft's config names is not on this host (a checkpoint copied from
        # the training machine, its target elsewhere): the step said "no target config.json"
        # alone, as if the draft named none
        named = verifier_name(draft.get("config"))
        if named is not None and resolve_model_dir(named) is None:
            target["named_verifier_missing"] = named
    return {"args": args, "draft": draft, "target": target}
