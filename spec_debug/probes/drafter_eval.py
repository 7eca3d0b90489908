"""drafter_eval (host side): the drafter outside the engine, on the training hidden states.

Runs spec_debug.eagle3's exact forward twice on the same data: with the reference semantics
(what the weights were trained for) and, when the engine is known, with the engine version's
semantics (its capture layers and the norm flags it honours), so the cost of the serving path
is a measured number.
"""

from __future__ import annotations

from spec_debug.probes.hostfiles import resolve_model_dir


def run(args: dict) -> dict:
    draft = resolve_model_dir(args.get("draft_model") or None)
    target = resolve_model_dir(args.get("target_model") or None)
    data = args.get("hidden_states") or ""
    if draft is None or not data:
        return {"args": args, "skipped": "needs a draft checkpoint (--var draft_model) and training "
                                         "hidden states (--var hidden_states)"}
    from spec_debug.eagle3.api import evaluate_drafter

    # vocab_mapping: the training's d2t/t2d file (SpecForge vocab_mapping.pt, speculators d2t.npy)
    # for a checkpoint that lost its maps or carries regenerated ones
    common = dict(device=args.get("device") or "cpu",
                  max_samples=int(args["max_samples"]) if args.get("max_samples") else None,
                  vocab_mapping=args.get("vocab_mapping") or None)
    steps = int(args["steps"]) if args.get("steps") else None
    out = {"args": args, "draft": str(draft), "target": str(target) if target else None}
    out["reference"] = evaluate_drafter(draft, data, target, steps=steps, **common)
    engine = (args.get("engine") or "").lower()
    if engine in ("sglang", "vllm"):
        out["engine"] = evaluate_drafter(draft, data, target, steps=steps, semantics=engine,
                                         engine_version=args.get("engine_version") or None, **common)
    return out
