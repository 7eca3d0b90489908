"""`spec-debug demo`: the incident, reproduced on a simulated GPU host on this machine.

The host is this machine (local transport) holding a tiny target and a tiny EAGLE-3 draft
actually trained for it, the draft's training hidden states, the recorded server command and
server log (package data under spec_debug/data/demo, built by scripts/build_demo_fixture.py).
The broken variant has the incident's three bugs: `--speculative-num-steps 1`, served layers
that differ from the trained ones, and a throughput below the no-speculation baseline. The
healthy variant is the fixed configuration and must come out with no error finding.
"""

from __future__ import annotations

import json
import os
import re
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from rich.markup import escape

from spec_debug.errors import UsageError
from spec_debug.playbook.loader import load_playbook
from spec_debug.probes import launch_flags
from spec_debug.record import RunRecord, shell_word
from spec_debug.report import write_reports
from spec_debug.report.views import not_reached_words, nothing_checked
from spec_debug.runner.engine import SKIPPED_BY_USER, HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter, StepGate
from spec_debug.runner.transport import CommandOutcome
from spec_debug.store import RunStore

DEMO_HOST = "demo-gpu01"
PLAYBOOK = "perf_regression"

# The demo's models are tiny (hidden size 32): over such tensors torch's intra-op threads only
# wait on one another, and on a busy machine (a CI runner, a box shared with a build) an op
# waits for a thread the scheduler set aside. The hidden_layout probe took 26-36 s with torch's
# two threads and 12.6 s with one (the same JSON), at a load average of 6 on 2 cores; the demo
# took 49 s (the README says "in seconds"). A value the user set is kept.
TINY_MODEL_ENV = {"OMP_NUM_THREADS": "1"}
# The simulated host has no server process: its server is the recorded command line and log
# (probes.launch_flags.server_processes looks at none of this machine's processes).
SIMULATED_HOST_ENV = {launch_flags.SIMULATED_HOST_ENV: "1"}


class DemoHostTransport(LocalTransport):
    """The simulated host: this machine, its probes run with one torch thread (TINY_MODEL_ENV)."""

    def run(self, command: str, *, env: dict[str, str] | None = None, **kwargs: Any) -> CommandOutcome:
        preset = {name: value for name, value in TINY_MODEL_ENV.items() if name not in os.environ}
        return super().run(command, env={**preset, **(env or {}), **SIMULATED_HOST_ENV}, **kwargs)


# The perf_regression steps whose findings the later steps read (its playbook: `facts.resolved_*`,
# `facts.launch_engine`), and what they find: a user who skips one at `demo --step` sees the
# later steps' "not checked" notes ("engine unknown") and is told why.
FEEDING_STEPS = {"launch_flags": "the models and engine", "engine": "the engine"}

# A probe's advice to pass a var ("engine unknown: pass --var engine=sglang|vllm", "(..., or pass
# --var engine_version)"): right for `run`, which takes --var; the demo takes none. The advice
# may end in an aside of its own ("no draft checkpoint: pass --var draft_model=DIR (or a server
# command naming it)": the demo said "no draft checkpoint)"), or be one in parentheses ("needs a
# draft checkpoint (--var draft_model)", "(--var python=...)"), which the demo said as it was.
_VAR_ADVICE = re.compile(r"(?:[:;,] |\s)(?:or )?pass --var [^;()]*(?:\([^()]*\))?|\s?\(--var [^()]*\)")


def not_checked_reason(finding: Any, skipped: list[str]) -> str:
    """Why a step of the demo could not look (an SD004 note), in words the demo's user can act on:
    its evidence without the "pass --var ..." advice, and the skipped step it waited for."""
    reason = _VAR_ADVICE.sub("", finding.evidence[0] if finding.evidence else finding.title)
    fed = [step for step in FEEDING_STEPS if step in skipped and step != finding.step]
    if fed:
        if len(fed) == 1:
            reason += f" (you skipped {fed[0]}, which finds {FEEDING_STEPS[fed[0]]} this step reads)"
        else:
            reason += f" (you skipped {' and '.join(fed)}, which find the models and engine this step reads)"
    return reason


# What the demo host's drafter probes import (vocab, hidden_layout, drafter_eval): they run with
# this very Python (demo_vars: python = sys.executable).
DRAFTER_MODULES = ("torch", "safetensors")


def missing_drafter_module() -> str | None:
    """The first of DRAFTER_MODULES this Python lacks, else None. Without torch the demo ran:
    three of its steps failed "No module named 'torch' ... (--var python=/path/to/venv/bin/python)",
    a --var the demo does not take, and its verdict was drawn without the drafter, the demo's
    point. find_spec imports nothing (torch takes seconds to import)."""
    from importlib.util import find_spec

    for name in DRAFTER_MODULES:
        try:
            if find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a module that is there without a spec: not usable
            return name
    return None


def demo_target() -> HostTarget:
    return HostTarget(name=DEMO_HOST, connect=DemoHostTransport, transport="local")


@dataclass(frozen=True)
class DemoResult:
    record: RunRecord
    run_dir: Path
    reports: dict[str, Path]
    fixture: Path


def fixture_dir(stack: ExitStack) -> Path:
    """The shipped fixture as a real directory (works from a wheel or an editable install)."""
    root = stack.enter_context(resources.as_file(resources.files("spec_debug") / "data" / "demo"))
    root = Path(root)
    if not (root / "demo.json").is_file():
        raise UsageError(
            f"the demo fixture is missing from this install ({root})",
            hint="rebuild it with `python scripts/build_demo_fixture.py` from a source checkout",
        )
    return root


def demo_vars(fixture: Path, healthy: bool) -> dict[str, Any]:
    """The vars an on-call engineer would pass on the incident host, from the recorded files."""
    meta = json.loads((fixture / "demo.json").read_text())
    variant = meta["healthy" if healthy else "broken"]
    cmdline = (fixture / variant["cmdline"]).read_text().strip().replace("{DEMO}", str(fixture))
    return {
        "server_cmdline": cmdline,
        "engine_version": variant["engine_version"],
        "hidden_states": str(fixture / meta["hidden_states"]),
        "claimed_accuracy": str(meta["claimed_accuracy"]),
        "baseline_tok_s": str(meta["baseline_tok_s"]),
        "server_log": str(fixture / variant["server_log"]),
        "python": sys.executable,
        "device": "cpu",
        "max_samples": str(meta.get("demo_max_samples", 8)),
    }


def run_demo(healthy: bool, out: Path, *, reporter: Reporter | None = None,
             fixture: Path | None = None, gate: StepGate | None = None) -> DemoResult:
    """Run perf_regression on the simulated host; write run.json and the reports under `out`.

    `fixture` overrides the shipped fixture (a directory written by build_demo_fixture.py)."""
    with ExitStack() as stack:
        fixture = Path(fixture) if fixture is not None else fixture_dir(stack)
        loaded = load_playbook(PLAYBOOK)
        store = RunStore.create(Path(out), loaded.playbook.name)
        run = None
        try:
            options = RunOptions(reporter=reporter or Reporter(), gate=gate,
                                 command_line=["spec-debug", "demo"] + (["--healthy"] if healthy else [])
                                 + (["--step"] if gate is not None else []))
            run = Run(loaded, [demo_target()], store, demo_vars(fixture, healthy), options)
            record = run.execute()
        except BaseException as exc:
            if run is not None and run.recorded:
                raise
            store.discard_if_empty()
            if isinstance(exc, KeyboardInterrupt):
                # A stop before the run's first record (the engine queues signals only once
                # execute() starts), as `run` ends it (cli_run.execute_run): exit 3 saying what
                # stopped it. Typer said nothing and exited 130.
                from spec_debug.cli_run import stopped_before_start

                raise stopped_before_start(exc) from None
            raise
        reports = write_reports(record, store.run_dir)
        return DemoResult(record, store.run_dir, {k: Path(v) for k, v in reports.items()}, fixture)


def demo_command(healthy: bool, out: Path, console: Any = None, *, as_json: bool = False,
                 step: bool = False) -> int:
    """The CLI body of `spec-debug demo [--healthy] [--step] [--out DIR]` (typer-free).

    Exit code as for `run`: 1 when error findings were reported (the broken demo), 3 when the
    user quit a `--step` walk, else 0."""
    from rich.console import Console

    from spec_debug.cli_progress import ConsoleReporter

    missing = missing_drafter_module()
    if missing is not None:
        # the message the demo command gives when the demo module itself cannot be imported (cli_extra)
        raise UsageError(f"the demo needs the eagle3 extra ({missing} is not installed in {sys.executable})",
                         # this Python's pip: `pip` on the PATH may be another's (a pipx install's is not)
                         hint=f"{shell_word(sys.executable)} -m pip install 'spec-debug[eagle3]'")
    console = console or Console(emoji=False)  # a path or host name with :100: is no emoji
    variant = "the fixed configuration" if healthy else "the incident's configuration"
    # "serving ... with SGLang" read as if an SGLang server ran here: the host holds the
    # recorded command line and server log of one, and no SGLang is installed.
    console.print(f"[bold]spec-debug demo[/]: a simulated GPU host ({DEMO_HOST}) on this machine: a tiny "
                  f"target and EAGLE-3 draft, with the SGLang command line and server log recorded in "
                  f"{variant} (no server runs); running {PLAYBOOK} on it.")
    gate = None
    if step:
        from spec_debug.stepthrough import TerminalGate

        gate = TerminalGate(console, takes_vars=False)
    # No spinner while stepping, as `run --step` (cli_run.py): on a terminal its redraw erased
    # the run / skip / quit prompt line ten times a second, so the demo looked stuck.
    class DemoReporter(ConsoleReporter):
        """The progress lines, an SD004 note said as the demo's closing lines say it: its title
        asked for a --var ("Not checked: --var python=the server's interpreter ..."), which the
        demo does not take."""

        def step_finished(self, host: str, step: Any, result: Any, findings: list) -> None:
            skipped = gate.skipped if gate is not None else []
            findings = [f.model_copy(update={"title": f"Not checked on the simulated host: {not_checked_reason(f, skipped)}"})
                        if f.code == "SD004" else f for f in findings]
            super().step_finished(host, step, result, findings)

    result = run_demo(healthy, out, reporter=DemoReporter(console, spinner=not step, gate=gate), gate=gate)
    findings = result.record.findings
    errors = [f for f in findings if f.severity == "error"]
    aborted = result.record.status == "aborted"
    try:
        _say_result(console, result, errors, healthy, aborted, stepped=step)
    except (OSError, ValueError):
        # The terminal went away (EIO: a closed terminal or SSH session; EPIPE): run.json and
        # the reports are written, and the exit code still says what happened (it was 1, a
        # traceback nobody saw, as if findings were the news).
        pass
    if as_json:
        from spec_debug.stdout_document import write_document

        write_document(result.record.model_dump_json(indent=2) + "\n")  # UTF-8, as run --json (cli_run)
    return 3 if aborted else 1 if errors else 0


def _say_result(console: Any, result: DemoResult, errors: list, healthy: bool, aborted: bool, *,
                stepped: bool = False) -> None:
    findings = result.record.findings
    for f in errors:
        console.print(f"  [red]{f.code}[/] {escape(f.title)}", highlight=False)
        if not stepped and f.remediation:
            # Without --step the progress lines above named each error (code and title) and the
            # list here said the same lines again, the fix nowhere on the terminal: it is the
            # account with the fix, as `demo --step` gives it at the step (stepthrough.after_step),
            # where this list is the short reference. Unfolded: the fix holds flags to paste.
            console.print(f"    what to do: {escape(f.remediation)}", highlight=False, soft_wrap=True)
    # The paths as text (rich.markup.escape): `--out '[/x]'` raised MarkupError after the run.
    # Never folded (soft_wrap), as `run` says them (cli_run._say): off a terminal rich folds at
    # 80 columns, and a long --out path in a log or a redirected stderr had a newline inside it.
    # Every step skipped (`demo --step`, answering s): "PASSED: 0 error(s)" over the incident
    # host read as a clean bill; `run` says what it did not check (cli_run._say_verdict).
    nothing = nothing_checked(result.record)
    # The warnings, counted as `run` counts them (cli_run._say_verdict): `demo --step` skipping
    # configs gave SD403 as a warning, in the report, and the line said "FAILED: 3 error(s)" only.
    # Said where there are some: the demo's usual runs have none, and its line stays short.
    warnings = sum(1 for f in findings if f.severity == "warning")
    console.print(f"{result.record.status.upper()}: {len(errors)} error(s)" + (f", {warnings} warning(s)" if warnings else "")
                  + (f" · {escape(nothing)}" if nothing else "")
                  + f" · report: {escape(str(result.reports['md']))} · {escape(str(result.reports['html']))}",
                  highlight=False, soft_wrap=True)
    chosen = [s.id for s in result.record.steps if s.status == "skipped" and s.message == SKIPPED_BY_USER]
    if chosen:
        console.print(f"  skipped (your choice): {escape(', '.join(chosen))}", highlight=False, soft_wrap=True)
    # The steps a quit at a later prompt came before, as `run --step` names them (cli_run's
    # _say_verdict): "ABORTED: 1 error(s)" under launch_flags alone read as the whole playbook's.
    missed = not_reached_words(result.record) if result.record.status in ("aborted", "running") else ""
    if missed:
        console.print(f"  {escape(missed)}", highlight=False, soft_wrap=True)
    for f in findings:
        if f.code == "SD004":
            # The note asks for --var values, which the demo does not take: say why the step
            # could not look on this host instead (e.g. "sglang is not installed in this Python").
            reason = not_checked_reason(f, chosen)
            where = f" ({f.step})" if f.step else ""
            # one line, as the verdict above: folded at 80 columns in a log, "engine forward not"
            # ended a line and "read: sglang is not installed" began the next
            console.print(f"  [dim]not checked on the simulated host{where}: {escape(reason)}[/]", highlight=False,
                          soft_wrap=True)
    if not healthy and not aborted and nothing:
        # nothing of the incident was seen: the fixed configuration has nothing to be compared with
        console.print("See the incident's findings: spec-debug demo (or demo --step, answering r)", soft_wrap=True)
    elif not healthy and not aborted:
        console.print("Now run the fixed configuration: spec-debug demo --healthy", soft_wrap=True)
