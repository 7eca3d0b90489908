"""hidden_layout (host side): which hidden states feed the draft, three ways.

1. The engine's capture convention for this draft (spec_debug.eagle3.engines, a table with
   a source per row): what the engine version will feed, from the configs alone.
2. With training data (`hidden_states`): the layout probe ranks every candidate layout by
   the drafter's accuracy, and tests each slot for being exactly the embedding output.
3. With a serving-path dump (`serving_dump`): the layer ids the server actually captured.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from spec_debug.probes.drafter_eval import whole_number
from spec_debug.probes.hostfiles import (FROM_VERIFIER, config_and_problem, engine_weights_refusal,
                                         folder_with_damaged_config, given_model, named_verifier_dir, read_config,
                                         resolve_model_dir)
from spec_debug.probes.playbook_words import in_playbook_words, said_in_playbook_words, speaks_playbook

# the drafter's --data, when what it read is the serving-path dump
SERVING_DATA = {"data": "serving_dump"}


def _num_layers(target_cfg: dict, where: Path) -> tuple[int | None, str | None]:
    """The language model's layer count, read as the drafter reads the target (eagle3.config
    text_config): Qwen2.5/3-Omni nest it under thinker_config.text_config, which a plain
    `text_config or top level` missed, so no serve plan was made and the layer checks were
    skipped without a word (SpecForge trains drafts for it: configs/qwen3-omni-eagle3.json).
    With no count, why not (a text_config that is not an object, a count that is no number):
    the layout step says so instead of skipping its layer checks silently."""
    from spec_debug.eagle3.config import CheckpointError, text_config

    try:
        n = text_config(target_cfg, str(where)).get("num_hidden_layers")
    except CheckpointError as exc:
        return None, f"{exc.message}, so the target's layer count is unknown"
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        return n, None
    found = "no num_hidden_layers" if n is None else f"num_hidden_layers {n!r}"
    return None, (f"{where}: {found} in the language model's config (expected a positive "
                  "integer), so the target's layer count is unknown")


def _draft_refusal(draft: Path | None, exc: Exception) -> dict | None:
    """A draft folder vLLM and SGLang load no weight file from, or one whose weight file they
    cannot read (hostfiles.engine_weights_refusal), where the drafter refused a checkpoint:
    the configs step's SD710, which the layout step names as why its probe did not run, not
    a second time as an SD003 warning (as the vocab and eval steps do)."""
    from spec_debug.eagle3.config import CheckpointError

    return engine_weights_refusal(draft, exc) if isinstance(exc, CheckpointError) else None


@speaks_playbook  # the drafter's errors and notes name its options: said as the playbook's vars
def run(args: dict) -> dict:
    from spec_debug.eagle3 import engines

    out: dict = {"args": args}
    draft = resolve_model_dir(args.get("draft_model") or None)
    target = resolve_model_dir(args.get("target_model") or None)
    engine = (args.get("engine") or "").lower() or None
    version = args.get("engine_version") or None
    draft_cfg = read_config(draft) if draft else None
    if target is None and not args.get("target_model"):
        # as the drafter finds it: without it no serve plan was made (the layer count comes from
        # the target), and the layout step compared no served layers, with no word, while the
        # ranking below scored against that very target
        target = named_verifier_dir(draft_cfg)
        if target is not None:
            out["target_source"] = FROM_VERIFIER
    # a folder whose config.json is a dangling link or a directory is named, not passed by
    config_dir = target or folder_with_damaged_config(args.get("target_model"))
    target_cfg, target_problem = config_and_problem(config_dir) if config_dir else (None, None)
    arch = None
    if target_problem:
        # the folder is there but its config.json is not usable: said, not skipped silently
        out["num_target_layers_unknown"] = f"{target_problem}, so the target's layer count is unknown"
    if target_cfg:
        out["num_target_layers"], unknown = _num_layers(target_cfg, target / "config.json")
        if unknown:
            out["num_target_layers_unknown"] = unknown
        arch = out["target_architecture"] = engines.target_architecture(target_cfg)
    if engine in engines.ENGINES:
        out["conventions"] = [
            {k: (sorted(v) if isinstance(v, (set, frozenset)) else v) for k, v in asdict(row).items()}
            for row in engines.rows_for(engine)]
        if draft_cfg and out.get("num_target_layers"):
            plan = engines.serve_plan(engine, version, draft_cfg, int(out["num_target_layers"]), arch)
            out["plan"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(plan).items()}
    # the layout probe holds its samples in memory: "all" keeps the default bound
    max_samples = whole_number(args, "max_samples") or 16
    # vocab_mapping: the training's d2t/t2d file, as drafter_eval takes it. Without it a draft
    # that lost its maps scored every layout near 0 here, and the verdict asked for more
    # samples while the eval step, given the same var, scored the same dump well
    vocab_mapping = args.get("vocab_mapping") or None
    data = args.get("hidden_states") or ""
    # a target_model given that is not here is named by the drafter (hostfiles.given_model),
    # not replaced by the verifier the draft's config names
    layout_target = target if target is not None else given_model(args.get("target_model") or None)
    # and so is a draft_model given that is not here: with hidden_states given, the step said
    # "no hidden states to run the layout probe" and asked for the var the user had passed
    layout_draft = draft if draft is not None else given_model(args.get("draft_model") or None)
    if data and layout_draft is not None:
        from spec_debug.eagle3.api import probe_layout
        from spec_debug.eagle3.config import ConfigMisfitError, TargetMisfitError
        from spec_debug.errors import SpecDebugError

        served = (out.get("plan") or {}).get("layer_ids") or None
        try:
            out["layout"] = probe_layout(layout_draft, data, layout_target, device=args.get("device") or "cpu",
                                         max_samples=max_samples,
                                         served_layer_ids=served, vocab_mapping=vocab_mapping)
        except ConfigMisfitError as exc:
            # the configs and vocab steps say this from the same headers (SD204, SD704,
            # SD303): the layout step names it as the reason it did not run (as a probe
            # failure it was one more SD003 warning) and keeps the conventions and the plan
            out["draft_misfit"] = str(exc)
        except TargetMisfitError as exc:
            # a draft made for another target (SD204, SD303 from the configs and vocab steps)
            out["target_misfit"] = str(exc)
        except SpecDebugError as exc:
            # a checkpoint or dump the probe could not read (a target_model typo, a Hub id with
            # no snapshot here, a damaged shard): raised on, the whole step failed as SD003 and
            # the conventions table and serve plan above, which need none of it, were lost
            refused = _draft_refusal(draft, exc)
            if refused is not None:
                out["no_engine_weights"] = refused
            else:
                out["layout_error"] = {"message": exc.message, "hint": exc.hint}
    serving = args.get("serving_dump") or ""
    if serving:
        from spec_debug.errors import SpecDebugError

        try:
            # a draft_model given that is not here goes to the drafter too, which names it: the
            # resolved path alone skipped the serving dump's scoring, and the step said nothing
            _read_serving_dump(out, serving, layout_draft, layout_target, args.get("device") or "cpu",
                               max_samples, vocab_mapping)
        except SpecDebugError as exc:
            # said beside the training dump's ranking, which is kept: an unreadable serving
            # dump (a typo in its path, a copy cut short) failed the whole probe, and the
            # ranking it had spent minutes on was lost with it
            # its --data is the serving dump here, not the training hidden states
            out["serving_dump_error"] = in_playbook_words(str(exc), SERVING_DATA)
    return out


def _read_serving_dump(out: dict, serving: str, draft: Path | str | None, target: Path | str | None,
                       device: str, max_samples: int, vocab_mapping: str | None) -> None:
    from spec_debug.eagle3.data import describe_data

    info = describe_data(serving)
    out["serving_dump"] = {"path": serving, "layer_ids": list(info.layer_ids) if info.layer_ids else None,
                           "num_slots": info.num_slots, "format": info.format}
    if draft is not None and info.layer_ids and "draft_misfit" not in out and "no_engine_weights" not in out:
        from spec_debug.eagle3.api import probe_layout
        from spec_debug.eagle3.config import CheckpointError, ConfigMisfitError, TargetMisfitError

        try:
            out["serving_layout"] = said_in_playbook_words(
                probe_layout(draft, serving, target, device=device, max_samples=max_samples,
                             vocab_mapping=vocab_mapping), SERVING_DATA)
        except ConfigMisfitError as exc:
            out["draft_misfit"] = str(exc)  # the draft's fault, not the serving dump's
        except TargetMisfitError as exc:
            out.setdefault("target_misfit", str(exc))  # a draft made for another target: not the dump's
        except CheckpointError as exc:
            # the dump was read (its layer ids are above): what failed is a checkpoint it was
            # scored with. A target_model typo was said as "the serving dump could not be read",
            # asking for a readable dump the user had given
            refused = _draft_refusal(draft, exc)
            if refused is not None:
                out["no_engine_weights"] = refused
            else:
                out["serving_checkpoint_error"] = str(exc)
