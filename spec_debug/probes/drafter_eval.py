"""drafter_eval (host side): the drafter outside the engine, on the training hidden states.

Runs spec_debug.eagle3's exact forward twice on the same data: with the reference semantics
(what the weights were trained for) and, when the engine is known, with the engine version's
semantics (its capture layers and the norm flags it honours), so the cost of the serving path
is a measured number.
"""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

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
    # vocab_mapping: the training's d2t/t2d file (SpecForge vocab_mapping.pt, speculators d2t.npy)
    # for a checkpoint that lost its maps or carries regenerated ones
    common = dict(device=args.get("device") or "cpu", max_samples=whole_number(args, "max_samples"),
                  vocab_mapping=args.get("vocab_mapping") or None)
    steps = whole_number(args, "steps")

    out = {"args": args, "draft": str(draft), "target": str(target) if target else None}
    with _stops_kept() as scored:
        try:
            return _evaluate(out, args, draft, data, target, steps, common, scored)
        except KeyboardInterrupt as stop:
            return _stopped(out, stop, scored)


def _evaluate(out: dict, args: dict, draft, data, target, steps, common: dict, scored: dict) -> dict:
    from spec_debug.eagle3.api import evaluate_drafter
    from spec_debug.eagle3.config import CheckpointError, ConfigMisfitError, TargetMisfitError

    try:
        out["reference"] = evaluate_drafter(draft, data, target, steps=steps,
                                            progress=_progress(scored, "reference"), **common)
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
                                         engine_version=version,
                                         progress=_progress(scored, engine), **common)
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


PROGRESS_EVERY_S = 5.0  # seconds between the progress lines on stderr (the first is said at once)


def _progress(scored: dict, run: str) -> Callable[[int], None]:
    """evaluate_drafter's progress callback: the samples scored so far, kept for a stop and
    said on stderr (flushed, at most every PROGRESS_EVERY_S) so a run watched or cut short
    shows how far it got."""
    scored.update(run=run, samples=0)

    def progress(n: int) -> None:
        scored["samples"] = n
        now = time.monotonic()
        if now - scored.get("said_at", -PROGRESS_EVERY_S) >= PROGRESS_EVERY_S:
            scored["said_at"] = now
            sys.stderr.write(f"drafter_eval: {run}: {n} sample{'' if n == 1 else 's'} scored\n")
            sys.stderr.flush()
    return progress


@contextmanager
def _stops_kept() -> Iterator[dict]:
    """SIGTERM and SIGHUP raised as a stop (errors.SignalInterrupt, a KeyboardInterrupt) while
    the evaluation runs, so run() returns the scores so far instead of the process dying with
    none (an hours-long CPU evaluation cut by a timeout or a closed SSH session). Only in the
    main thread, where Python delivers signals; the handlers before are put back."""
    scored: dict[str, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        yield scored
        return
    from spec_debug.errors import SignalInterrupt

    def stop(signum, _frame) -> None:
        name = signal.Signals(signum).name
        raise SignalInterrupt(f"{'terminated' if name == 'SIGTERM' else 'hung up'} ({name})")

    before = {}
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            before[signum] = signal.signal(signum, stop)
    try:
        yield scored
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def _stopped(out: dict, stop: KeyboardInterrupt, scored: dict) -> dict:
    """The probe's result for a stopped evaluation: the runs finished, and for the one stopped
    the scores of the samples scored in full (evaluate._partial_scores) with one line saying
    them, as `drafter eval` says them on a stop (exit 130)."""
    from spec_debug.errors import stop_reason

    run, n = scored.get("run"), int(scored.get("samples") or 0)
    partial = getattr(stop, "partial", None)
    if not isinstance(partial, dict) or partial.get("samples") != n:
        partial = None
    if run is None:
        said = "before the evaluation started"
    elif partial is None:
        said = f"in the {run} evaluation before any sample was scored"
    else:
        from spec_debug.eagle3.evaluate import so_far

        said = (f"in the {run} evaluation after {n} sample{'' if n == 1 else 's'} scored; so "
                f"far {so_far(partial)}: --max-samples {n} scores the same samples and reports "
                "them in full")
    return {**out, "stopped": f"{stop_reason(stop)} {said}",
            "stopped_run": run, "partial": partial}
