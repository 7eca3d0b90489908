"""drafter_eval (host side): the drafter outside the engine, on the training hidden states.

Runs spec_debug.eagle3's exact forward twice on the same data: with the reference semantics
(what the weights were trained for) and, when the engine is known, with the engine version's
semantics (its capture layers and the norm flags it honours), so the cost of the serving path
is a measured number.
"""

from __future__ import annotations

import math

from spec_debug.probes.hostfiles import engine_weights_refusal, given_model
from spec_debug.probes.playbook_words import speaks_playbook

_ALL = ("", "all", "none")  # playbook values meaning "no limit"


def whole_number(args: dict, key: str) -> int | None:
    """A count given as a playbook var (always a string there: `--var max_samples=64`); None
    when unset or "all". Anything else that is not a positive whole number is one clear
    error naming the var, not int()'s "invalid literal"."""
    raw = args.get(key)
    text = str(raw).strip() if raw is not None else ""
    if text.lower() in _ALL:
        return None
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 1 or number != int(number):
        from spec_debug.errors import UsageError

        raise UsageError(f"{key} {raw!r}: give a whole number of at least 1 (or \"all\")")
    return int(number)


@speaks_playbook  # the drafter's errors and notes name its options: said as the playbook's vars
def run(args: dict) -> dict:
    # a path given that is no checkpoint here goes to the drafter as given (given_model)
    draft = given_model(args.get("draft_model") or None)
    target = given_model(args.get("target_model") or None)
    data = args.get("hidden_states") or ""
    if draft is None or not data:
        # only what is missing: with the hidden states given and no draft (no --var draft_model,
        # the launch_flags step skipped or the server command naming none) it asked for both
        missing = [need for need, given in (("a draft checkpoint (--var draft_model)", draft is not None),
                                            ("training hidden states (--var hidden_states)", bool(data)))
                   if not given]
        return {"args": args, "skipped": "needs " + " and ".join(missing)}
    from spec_debug.eagle3.api import evaluate_drafter

    # vocab_mapping: the training's d2t/t2d file (SpecForge vocab_mapping.pt, speculators d2t.npy)
    # for a checkpoint that lost its maps or carries regenerated ones
    common = dict(device=args.get("device") or "cpu", max_samples=whole_number(args, "max_samples"),
                  vocab_mapping=args.get("vocab_mapping") or None)
    steps = whole_number(args, "steps")
    from spec_debug.eagle3.config import CheckpointError, ConfigMisfitError, TargetMisfitError

    out = {"args": args, "draft": str(draft), "target": str(target) if target else None}
    try:
        out["reference"] = evaluate_drafter(draft, data, target, steps=steps, **common)
    except ConfigMisfitError as exc:
        # the configs and vocab steps say this from the same headers (SD204, SD704, SD303):
        # the eval step names it as the reason it did not run (as a probe failure: one more
        # SD003 warning)
        return {**out, "draft_misfit": str(exc)}
    except TargetMisfitError as exc:
        # a draft made for another target (SD204, SD303 from the configs and vocab steps)
        return {**out, "target_misfit": str(exc)}
    except CheckpointError as exc:  # after the misfits, which are CheckpointErrors too
        refused = engine_weights_refusal(draft, exc)
        if refused is None:
            raise
        # a folder vLLM and SGLang load no weight file from: SD710, not a step that could not
        # run (drafter_accuracy has no configs step to say it, and PASSED over it)
        return {**out, "no_engine_weights": refused}
    engine = (args.get("engine") or "").lower()
    if engine in ("sglang", "vllm"):
        version, problem, note = _placed_version(engine, args.get("engine_version") or None)
        out["engine"] = evaluate_drafter(draft, data, target, steps=steps, semantics=engine,
                                         engine_version=version, **common)
        if note:
            out["engine_version_note"] = note
            out["engine_version_problem"] = problem  # eval_step names what to provide from it
            out["engine"]["notes"] = [note, *(out["engine"].get("notes") or [])]
    return out


def _placed_version(engine: str, version: str | None) -> tuple[str | None, str | None, str | None]:
    """The version the conventions table can place, and when it cannot, why
    (engines.unplaceable_version) and the line said.

    drafter_accuracy has no engine step, so a fork's label ("custom-build") or an untagged
    source build reaches this probe raw; like the engine step, the engine run then takes the
    newest conventions and says so once, instead of failing after the reference run (whose
    numbers were lost with it)."""
    from spec_debug.eagle3.engines import unplaceable_version, version_line

    problem = unplaceable_version(str(version)) if version else None
    if problem is None:
        return version, None, None
    shown = repr(str(version)) if problem == "unreadable" else str(version)
    return None, problem, version_line(engine, problem, f"{shown} (engine_version)")
