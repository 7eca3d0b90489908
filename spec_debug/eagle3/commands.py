"""`spec-debug drafter ...`: a thin typer CLI over spec_debug.eagle3.api.

Mounted by the lead as `app.add_typer(drafter_app, name="drafter")`. torch is imported lazily
inside the commands, so the controller works without it until a drafter command runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spec_debug.eagle3.json_doc import json_document
from spec_debug.errors import SpecDebugError, UsageError, stop_reason

drafter_app = typer.Typer(
    help="Run an EAGLE-3 draft outside the engine: exact forward, acceptance on hidden-state "
         "dumps, layout fingerprint, vocab-map checks.",
    no_args_is_help=True,
)

INSTALL_HINT = "pip install 'spec-debug[eagle3]'"
# One text for eval, layout and vocab. It named only the .pt and .npy maps, so a user whose only
# copy of the map is the training checkpoint (read by vocab_mapping._load_safetensors and
# _checkpoint_with_maps, as the README says) read --help as "not accepted".
VOCAB_MAPPING_HELP = ("The training's vocab map (SpecForge vocab_mapping.pt, speculators d2t.npy, or "
                      "a training checkpoint's safetensors file or folder that still holds d2t/t2d): "
                      "used instead of the checkpoint's d2t/t2d, and compared with them.")


def _require_torch() -> None:
    try:
        import torch  # noqa: F401
        import safetensors  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"the drafter needs torch and safetensors ({exc.name} is missing)",
                         hint=INSTALL_HINT) from None


# Errors go to stderr unwrapped: one line a user can grep or paste, whatever the width.
_errors = Console(stderr=True, soft_wrap=True, highlight=False, emoji=False)  # ":100:" in a path is no emoji


@contextmanager
def _one_line_errors(done=None) -> Iterator[None]:
    """Every failure of a drafter command as one line on stderr, never a traceback: our own
    errors with their exit code and hint; a failure we did not foresee with exit 1 (the input
    is probably odd in a way this tool does not yet check; please report it). A stop (Ctrl-C,
    SIGTERM, SIGHUP) says so, with `done()`'s account of the work done, and exits 130."""
    try:
        yield
    except KeyboardInterrupt as stop:
        # an eval of a large dump runs for hours: Typer exited 130 and printed nothing, not
        # even that it had stopped, nor how far it had got
        said = done(stop) if done is not None else ""
        _errors.print(f"stopped: {escape(stop_reason(stop))}{escape(said)}")
        raise typer.Exit(130) from None
    except SpecDebugError as exc:
        _errors.print(f"[red]error:[/red] {escape(exc.message)}")
        if exc.hint:
            _errors.print(f"  hint: {escape(exc.hint)}")
        raise typer.Exit(exc.exit_code) from None
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 - the last resort described above
        _errors.print(f"[red]error:[/red] unexpected {type(exc).__name__}: {escape(str(exc))}")
        _errors.print("  hint: this looks like a spec-debug bug or an unchecked input; please "
                      "report it with the command line")
        raise typer.Exit(1) from None


def _status(console: Console, as_json: bool, text: str):
    """A spinner for the terminal; nothing when the output is JSON for a program."""
    return nullcontext() if as_json else console.status(text)


def _per_position_table(result: dict) -> Table:
    table = Table(title=f"per position ({result['reference']}, semantics {result['semantics']})")
    for column in ("step k", "full acc", "cond acc", "target accept", "target cond"):
        table.add_column(column, justify="right")
    unscored = set(result.get("unscored_steps") or ())  # no row reached them: not 0 accuracy
    keys = ("full_accuracy", "conditional_accuracy", "target_acceptance",
            "target_conditional_acceptance")
    for k in range(result["steps"]):
        table.add_row(str(k), *("n/a" if k in unscored else f"{result[key][k]:.4f}"
                                for key in keys))
    return table


def _so_far(partial: dict) -> str:
    """The partial scores of a stopped evaluation, in the table's words (evaluate.so_far)."""
    from spec_debug.eagle3.evaluate import so_far

    return so_far(partial)


@drafter_app.command("eval")
def eval_command(
    model: Path = typer.Option(..., "--model", help="Draft checkpoint directory."),
    data: Path = typer.Option(..., "--data", help="Hidden-state dump: speculators/vLLM "
                                                  "hs_*.safetensors, SpecForge or AngelSlim "
                                                  "data_*.ckpt, Model-Optimizer or TensorRT-LLM "
                                                  "*.pt."),
    target: Optional[Path] = typer.Option(None, "--target", help="Target (verifier) checkpoint "
                                          "directory: embeddings, final norm and lm_head "
                                          "(default: the verifier the draft's config names, "
                                          "when it is here)."),
    no_verifier: bool = typer.Option(False, "--no-verifier",
                                     help="Without --target, do not look for the verifier the "
                                          "draft's config names (speculators_config.verifier)."),
    steps: Optional[int] = typer.Option(None, "--steps", min=1,
                                        help="Draft depth K (default: the checkpoint's)."),
    semantics: str = typer.Option("reference", "--semantics",
                                  help="reference | sglang | vllm: run the weights as that "
                                       "engine would."),
    engine_version: Optional[str] = typer.Option(None, "--engine-version",
                                                 help="Engine version for --semantics "
                                                      "(default: latest)."),
    layout: Optional[str] = typer.Option(None, "--layout", help="Dump slots feeding fc, e.g. "
                                                                "0,1,2."),
    device: str = typer.Option("cpu", "--device", help="cpu | cuda"),
    dtype: str = typer.Option("float32", "--dtype", help="float32 | bfloat16 | float16"),
    vocab_mapping: Optional[Path] = typer.Option(None, "--vocab-mapping",
                                                 help=VOCAB_MAPPING_HELP),
    max_samples: Optional[int] = typer.Option(None, "--max-samples", min=1,
                                              help="Score at most this many samples (default: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Acceptance of the draft on hidden-state samples, per draft position."""
    console = Console(emoji=False)
    scored = [0]  # samples scored so far, said when the evaluation is stopped

    def progress(n: int) -> None:
        scored[0] = n
        if status is not None:
            status.update(f"evaluating draft... {n} samples")

    def done(stop: BaseException) -> str:
        n = scored[0]
        if not n:
            return " before any sample was scored"
        partial = getattr(stop, "partial", None)
        if not isinstance(partial, dict) or partial.get("samples") != n:
            return (f" after {n} sample{'' if n == 1 else 's'} scored, before any result: "
                    f"--max-samples {n} scores as many and reports them")
        # the scores so far, said: "before any result" threw away hours of a CPU evaluation
        return (f" after {n} sample{'' if n == 1 else 's'} scored, before the whole dump's "
                f"result; so far {_so_far(partial)}: --max-samples {n} scores the same samples "
                "and reports them in full")

    with _one_line_errors(done):
        _require_torch()
        from spec_debug.eagle3.api import evaluate_drafter

        with _status(console, as_json, "evaluating draft...") as status:
            result = evaluate_drafter(
                model, data, target, steps=steps, semantics=semantics,
                engine_version=engine_version, layout=layout, device=device, dtype=dtype,
                max_samples=max_samples, find_verifier=not no_verifier,
                vocab_mapping=vocab_mapping, progress=progress)
    if as_json:
        print(json_document(result, indent=2))
        return
    console.print(_per_position_table(result))
    # `tokens` (the JSON field) counts rows: after speculators' shift_batch a sample of T
    # tokens has T - 1 (its last token predicts nothing); said as rows, beside the tokens a
    # user counts in the files (len(token_ids) of each), which "tokens 42" of 45 contradicted
    rows, samples = result["tokens"], result["samples"]
    console.print(
        f"expected accept length (chain, K={result['steps']}): "
        f"[bold]{result['expected_accept_length']:.3f}[/bold]   samples {samples}   "
        f"rows {rows} (of {rows + samples} tokens)   {result['tokens_per_s']:.0f} rows/s "
        f"on {result['device']}")
    console.print(f"layout {result['layout']} ({result['layout_source']})"
                  + (f" = layers {result['layout_layer_ids']}" if result["layout_layer_ids"]
                     else "") + f"; embeddings from the {result['embed_source']}")
    if result.get("draft_vocab_coverage") is not None:
        # a draft trains against the target restricted to its vocabulary (full acc), the
        # engine accepts the target's own token (target accept): this share bounds the second
        tokens = ("target's greedy tokens" if result["reference"] == "target_argmax"
                  else "data's next tokens")
        console.print(f"draft vocabulary holds {result['draft_vocab_coverage']:.1%} of the "
                      f"{tokens} scored; the engine can accept no other")
    if result.get("loss_mask_source") == "none":
        # said in --json by loss_mask_source alone; a reader of the table compares it with the
        # training log's full_acc_0, which counts the loss-masked tokens only
        # (vllm-project/speculators src/speculators/models/metrics.py), and speculators 0.9
        # keeps that mask in its prepared dataset, not in hs_*.safetensors
        console.print("[yellow]note:[/yellow] no loss mask in the files, and none read from a "
                      "speculators dataset beside them: every position was scored, prompt tokens "
                      "included (training's accuracy counts the masked tokens only)")
    if result["ignored_norm_flags"]:
        console.print(f"[yellow]{semantics} ignores:[/yellow] "
                      f"{', '.join(result['ignored_norm_flags'])}")
    for note in result["notes"]:
        console.print(f"[yellow]note:[/yellow] {escape(note)}")
    if result.get("final_state_post_norm"):
        console.print(f"[yellow]note:[/yellow] {result['final_state_post_norm']} sample(s) hold "
                      "the final state after the target's norm (as HF output_hidden_states "
                      "gives it; vLLM captures it before): targets are lm_head of it as is")


@drafter_app.command("layout")
def layout_command(
    model: Path = typer.Option(..., "--model", help="Draft checkpoint directory."),
    data: Path = typer.Option(..., "--data", help="Hidden-state dump (normal or wide)."),
    target: Optional[Path] = typer.Option(None, "--target", help="Target checkpoint (enables "
                                                                 "the embedding-slot check; "
                                                                 "default: the verifier the "
                                                                 "draft's config names)."),
    no_verifier: bool = typer.Option(False, "--no-verifier",
                                     help="Without --target, do not look for the verifier the "
                                          "draft's config names (speculators_config.verifier)."),
    device: str = typer.Option("cpu", "--device", help="cpu | cuda"),
    dtype: str = typer.Option("float32", "--dtype", help="float32 | bfloat16 | float16"),
    max_samples: int = typer.Option(16, "--max-samples", min=1, help="Probe at most this many samples."),
    top: int = typer.Option(10, "--top", min=1, help="Rows of the ranking to show."),
    vocab_mapping: Optional[Path] = typer.Option(None, "--vocab-mapping",
                                                 help=VOCAB_MAPPING_HELP),
    served: Optional[str] = typer.Option(None, "--served", help="Target layer ids the engine feeds, "
                                         "e.g. 3,31,59: always scored, reported as `served`."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Rank slot layouts by step-0 accuracy: which layers was this draft trained on?"""
    console = Console(emoji=False)
    with _one_line_errors():
        _require_torch()
        from spec_debug.eagle3.api import probe_layout

        try:
            served_ids = [int(x) for x in served.split(",")] if served else None
        except ValueError:
            raise UsageError(f"--served {served!r}: give comma-separated layer ids, e.g. 3,31,59") from None
        with _status(console, as_json, "scoring layouts..."):
            report = probe_layout(model, data, target, device=device, dtype=dtype,
                                  max_samples=max_samples, served_layer_ids=served_ids,
                                  find_verifier=not no_verifier, vocab_mapping=vocab_mapping)
    if as_json:
        print(json_document(report, indent=2))
        return
    table = Table(title=f"layouts ({report['candidates']} scored, "
                        f"{'exhaustive' if report['exhaustive'] else 'pruned'})")
    for column in ("rank", "slots", "layers", "step-0 acc", ""):
        table.add_column(column)
    for rank, row in enumerate(report["ranked"][:top], start=1):
        mark = "configured" if row["layout"] == report["configured"] else ""
        table.add_row(str(rank), str(row["layout"]), str(row["layer_ids"] or "-"),
                      f"{row['full_accuracy0']:.4f}", mark)
    console.print(table)
    console.print(f"[bold]verdict:[/bold] {escape(report['verdict'])}")
    for note in report["notes"]:
        console.print(f"[yellow]note:[/yellow] {escape(note)}")
    if served_ids and "served" not in report and not any(
            note.startswith("served layers") for note in report["notes"]):
        # probe_layout notes the other reasons; a dump naming no slots is every speculators
        # training dump, which the playbook's probe passes the engine's ids for too
        console.print(f"[yellow]note:[/yellow] --served {served} not scored: the dump does not "
                      "name its slots (no layer_ids metadata), so no slot is known to hold "
                      "those layers; rank its slots above, or evaluate some with "
                      "`drafter eval --layout`")


@drafter_app.command("vocab")
def vocab_command(
    model: Path = typer.Option(..., "--model", help="Draft checkpoint directory."),
    target: Optional[Path] = typer.Option(None, "--target", help="Target checkpoint or its "
                                          "config.json directory (default: the verifier the "
                                          "draft's config names, when it is here)."),
    no_verifier: bool = typer.Option(False, "--no-verifier",
                                     help="Without --target, do not look for the verifier the "
                                          "draft's config names (speculators_config.verifier)."),
    vocab_mapping: Optional[Path] = typer.Option(None, "--vocab-mapping",
                                                 help=VOCAB_MAPPING_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Check d2t / t2d / embedding sizes (reads only the vocab maps and tensor headers)."""
    console = Console(emoji=False)
    with _one_line_errors():
        _require_torch()
        from spec_debug.eagle3.api import check_drafter_vocab

        report = check_drafter_vocab(model, target, find_verifier=not no_verifier,
                                     vocab_mapping=vocab_mapping)
    if as_json:
        print(json_document(report, indent=2))
    else:
        if report["target_source"] == "speculators_config.verifier":
            console.print(f"target vocab from {escape(report['target'])} (the verifier the "
                          "draft's config names)")
        for note in report["notes"]:
            console.print(f"[yellow]note:[/yellow] {escape(note)}")
        for check in report["checks"]:
            status = "skipped" if check["skipped"] else ("ok" if check["ok"] else "FAIL")
            console.print(f"{check['name']:<14} {status}")
            for issue in check["issues"]:
                console.print(f"  [red]{issue['code']}[/red] {escape(issue['message'])}")
    if not report["ok"]:
        raise typer.Exit(1)
