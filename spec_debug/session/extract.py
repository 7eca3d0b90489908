"""What the extractors find in one event, before any session state is involved.

Every text scan of the analysis (metrics, errors, speculative-decoding facts, hypotheses,
the kind and target of a command) is a pure function of one event, so it is done here,
once per event: inline for a small file, in worker processes for a large one
(:mod:`spec_debug.session.parallel`). :mod:`spec_debug.session.analysis` then only keeps
the session state (pairing, loops, pivots, phases) and never scans a text again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from spec_debug.session import failures, metrics, reasoning, shell, spec_facts
from spec_debug.session.events import Event
from spec_debug.session.segments import first_sentence


@dataclass(slots=True)
class Extracted:
    metrics: tuple = ()
    """:class:`metrics.Metric` in scan order; :func:`metrics.name_by_hint` finishes them."""
    errors: tuple = ()
    """:class:`failures.ErrorInfo` of a tool result."""
    launch: tuple = ()
    """Launch-command observations (of a command, or of an output that echoes one)."""
    observations: tuple = ()
    """d2t and norm-flag observations stated in a text."""
    concat_orders: tuple = ()
    layer_ids: tuple = ()
    hypotheses: tuple = ()
    outcome: tuple[str, str] | None = None
    why: str | None = None
    """Of a text or thinking block: the reasoning a command right after it is shown with.
    None: not worked out here; the analysis works it out from the event's text if a command
    follows (most blocks are followed by another block first, so most never need it)."""
    first_sentence: str = ""
    """Of a prompt: its title as a phase."""
    category: str = ""
    template: str = ""
    target: shell.Target | None = None
    """Of a tool call: kind of diagnostic, loop template and where its command runs."""


def output_read_again(command: str | None) -> bool:
    """Whether the analysis reads a tool result's text again once its command is known (see
    :meth:`~spec_debug.session.analysis._SessionState._tool_result`): the status a command
    echoes of itself (``...; echo "EXIT: $?"``), a find's "Permission denied" noise, the nodes
    a Slurm query lists, the bare list of layer ids a ``jq .eagle_aux_hidden_state_layer_ids``
    prints. The worker processes keep those outputs' text (they drop the others' after the
    scans), so a large file reads as a small one."""
    return bool(command) and ("$" in command or "find" in command or "squeue" in command
                              or "scontrol" in command or "sacct" in command or "sbatch" in command
                              or "layer_ids" in command)


LAST_WORDS = 300
"""How much of a sub-agent's text the analysis keeps as its last words (``last_words``)."""

QUOTE_REACH = 3
"""A command is shown with the reasoning of its agent's last text or thinking block when that
block is at most this many seq before it (the block, then maybe a result, then the call)."""

NOTHING = Extracted()
"""What an event no extractor reads (a system line, an unknown block) yields."""


def extract(ev: Event, status_known: bool) -> Extracted:
    """Everything the extractors see in ``ev``. ``status_known`` is False for a plain-text
    log, where no exit status was recorded (see :func:`failures.extract_errors`)."""
    # Extracted is built positionally, in its field order (metrics, errors, launch,
    # observations, concat_orders, layer_ids, hypotheses, outcome, why, first_sentence,
    # category, template, target): a keyword call costs twice as much, once per event.
    kind = ev.kind
    if kind == "tool_result":
        text = ev.text
        return Extracted(
            tuple(metrics.scan_metrics(text)),
            tuple(failures.extract_errors(text, ev.exit_code, ev.is_error, status_known=status_known)),
            tuple(spec_facts.launch_observations(text)),
            tuple(spec_facts.text_observations(text)),
            tuple(spec_facts.concat_orders(text)),
            tuple(spec_facts.layer_id_lists(text)))
    if kind == "tool_call":
        command = ev.command
        if command:
            return _command_facts(command)
        return Extracted((), (), (), (), (), (), (), None, None, "", shell.categorize(command, ev.tool_name, ev.path),
                         shell.template(f"{ev.tool_name} {ev.path or ''}"))
    if kind == "text":
        text = ev.text
        low = text.lower()
        return Extracted(tuple(metrics.scan_metrics(text, True)), (), (), tuple(spec_facts.text_observations(text, low)),
                         tuple(spec_facts.concat_orders(text)), tuple(spec_facts.layer_id_lists(text, low)),
                         tuple(reasoning.hypotheses(text, low)), reasoning.outcome(text, low))
    if kind == "prompt":
        text = ev.text
        return Extracted(tuple(metrics.scan_metrics(text, True)), (), (), tuple(spec_facts.text_observations(text)),
                         tuple(spec_facts.concat_orders(text)), tuple(spec_facts.layer_id_lists(text)),
                         (), None, None, first_sentence(text))
    if kind == "thinking":
        text = ev.text
        return Extracted((), (), (), (), tuple(spec_facts.concat_orders(text)),
                         tuple(spec_facts.layer_id_lists(text)))
    return NOTHING


@lru_cache(maxsize=4096)
def _command_facts(command: str) -> Extracted:
    """What :func:`extract` finds in a tool call with ``command``: a function of the command
    alone (its kind, loop template and target, its launch facts; the tool's name and path count
    only for a call without one), so a command the session ran before is not scanned again, and
    its calls share one Extracted, as the worker processes' already do (parallel._Commands: the
    analysis reads an Extracted, never changes one). Sessions repeat commands (44% of the
    bench session's calls); a hit is one lookup where the scans' own caches took five."""
    return Extracted((), (), tuple(spec_facts.launch_observations(command, True)), (),
                     tuple(spec_facts.concat_orders(command)), tuple(spec_facts.layer_id_lists(command)),
                     (), None, None, "", shell.categorize(command), shell.template(command), shell.parse_target(command))
