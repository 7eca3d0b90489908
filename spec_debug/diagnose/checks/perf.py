"""SD501-SD503: throughput and accept length, measured against the model's prediction."""

from __future__ import annotations

from typing import Sequence

from spec_debug.diagnose.checks.common import Where, explained_by
from spec_debug.diagnose.throughput import ThroughputModel, break_even_accept_length
from spec_debug.record import Finding

# Noise band for tok/s comparisons: a 2 % dip is not a regression.
THROUGHPUT_TOLERANCE = 0.02
AL_RATIO = 0.8
AL_GAP = 0.25
# What SD502 and the throughput model say when the standalone acceptance they predict from
# was scored at every position (the eval's loss_mask_source "none": no loss mask in the dump's
# files and no speculators dataset beside them). A server verifies drafts of generated tokens,
# the positions a loss mask keeps (speculators' accuracies count those only,
# vllm-project/speculators src/speculators/models/metrics.py); prompt and chat-template tokens
# score otherwise (a template's fixed tokens are easy, a user's text hard), so a gap between
# that prediction and the log's accept length may be the positions, not the serving path.
EVERY_POSITION_PREDICTION = (
    "the standalone acceptance was scored at every position, prompt tokens included (the "
    "evaluation read no loss mask: loss_mask_source none), while the server verifies drafts of "
    "generated tokens, the positions a loss mask keeps: the prediction is not like for like; "
    "evaluate the dump with its loss masks (speculators keeps them in the prepared dataset, "
    "beside hidden_states/) to compare")
# And when it was scored against the dump's next tokens (reference "data_tokens": no target
# head was read, eval.py _target_ids), not the target's argmax a server verifies against: the
# dataset's replies need not be the target's (a draft trained on regenerated replies, scored on
# ShareGPT's), so the prediction is not the server's either.
DATA_TOKENS_PREDICTION = (
    "the standalone acceptance was scored against the dump's next tokens (no target head was "
    "read: reference data_tokens), while the server verifies drafts against the target's own "
    "argmax: the prediction is not like for like; give the drafter evaluation the target "
    "checkpoint (--var target_model) to compare")


def check_throughput(measured_tok_s: float | None, baseline_tok_s: float | None, *,
                     source: str = "", context: list[str] | None = None, root_causes: list[str] | None = None,
                     at: Where = Where()) -> list[Finding]:
    """SD501: speculative decode slower than the no-speculation baseline. `context`: the
    acceptance numbers that explain it (observed vs predicted accept length, the model)."""
    if not measured_tok_s or not baseline_tok_s:
        return []
    if measured_tok_s >= baseline_tok_s * (1 - THROUGHPUT_TOLERANCE):
        return []
    ratio = measured_tok_s / baseline_tok_s
    evidence = [f"measured {measured_tok_s:.1f} tok/s with speculation{f' ({source})' if source else ''}",
                f"baseline {baseline_tok_s:.1f} tok/s without: {ratio:.2f}x ({(1 - ratio) * 100:.0f}% slower)",
                *(context or [])]
    fix = None
    if root_causes:
        fix = (f"Fix the root causes reported above ({', '.join(root_causes)}), then re-measure against the "
               "baseline; until then serve without speculation.")
    return [at.finding("SD501", evidence, {"measured_tok_s": measured_tok_s,
                                           "baseline_tok_s": baseline_tok_s, "ratio": ratio,
                                           "root_causes": root_causes or []}, remediation=fix)]


def check_accept_length_gap(observed: float | None, predicted: float | None, steps: int | None, *,
                            root_causes: list[str] | None = None, unlike: Sequence[str] = (),
                            at: Where = Where()) -> list[Finding]:
    """SD502: the server accepts far fewer tokens than the standalone drafter predicts.
    `unlike`: why the prediction's acceptance was not scored as the server's is
    (EVERY_POSITION_PREDICTION, DATA_TOKENS_PREDICTION): said, and the finding is a warning."""
    if observed is None or predicted is None:
        return []
    if not (observed < AL_RATIO * predicted and predicted - observed >= AL_GAP):
        return []
    evidence = [f"server log accept length {observed:.2f}",
                f"standalone prediction {predicted:.2f} for a chain of {steps} step(s) "
                "(1 + sum of joint per-position acceptance)"]
    facts = {"observed_accept_length": observed, "predicted_accept_length": predicted, "steps": steps}
    if unlike:
        evidence += list(unlike)
        facts["not_like_for_like"] = True
    if root_causes:
        evidence.append(explained_by(root_causes))
        return [at.finding("SD502", evidence, facts, severity="info",
                           title="Serving path loses acceptance the weights have")]
    return [at.finding("SD502", evidence, facts, severity="warning" if unlike else None)]


def check_payoff(model: ThroughputModel, best_accept_length: float | None, best_steps: int | None = None,
                 *, root_causes: list[str] | None = None, at: Where = Where()) -> list[Finding]:
    """SD503: even the draft's best acceptance cannot beat its cost. ``root_causes``: errors
    reported before that lower the acceptance it was judged at (a config its weights contradict,
    a wrong layout or vocab map): said, and the finding is info, as SD502's is, since the
    acceptance the draft reaches once they are fixed is not known.

    The cost ratio c comes from a measurement (speedup = AL / (1 + K*c)) only when it was
    taken at the same number of steps as the best configuration: a per-round overhead folded
    into a one-step measurement would otherwise be multiplied by K. Else it is the weight
    ratio of draft and target, a lower bound on the cost. A block drafter (SGLang DFLASH /
    DSPARK) pays one draft pass per round whatever its block size.
    """
    steps = best_steps or model.steps
    passes = model.passes(steps)
    if model.implied_draft_cost_ratio is not None and steps == model.steps:
        c, how = model.implied_draft_cost_ratio, "measured: AL x baseline / measured tok/s = 1 + K*c"
    elif model.draft_cost_ratio is not None:
        c, how = model.draft_cost_ratio, "estimated from the weights each pass reads"
    else:
        return []
    if best_accept_length is None:
        return []
    needed = break_even_accept_length(passes, c)
    if best_accept_length > needed:
        return []
    at_steps = (f"with one draft pass per round (a block drafter drafts its {steps} token(s) at once)"
                if model.block_drafter else f"at {steps} step(s)")
    evidence = [f"draft cost ratio c = {c:.3f} ({how}); {at_steps} break-even needs "
                f"accept length > 1 + K*c = {needed:.2f}",
                f"the best accept length this draft reaches is {best_accept_length:.2f}"]
    facts = {"draft_cost_ratio": c, "steps": steps, "break_even_accept_length": needed,
             "best_accept_length": best_accept_length}
    if root_causes:
        evidence.append(f"that acceptance was measured under {', '.join(root_causes)}, which lower it: "
                        + explained_by(root_causes))
        return [at.finding("SD503", evidence, {**facts, "root_causes": root_causes}, severity="info",
                           title="Speculation does not pay off at an acceptance the root causes above lower")]
    return [at.finding("SD503", evidence, facts)]
