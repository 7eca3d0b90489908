"""The runner: executes a playbook's steps on each host and keeps the run record.

Per host, steps run in order: requires -> when -> render -> (attempt, capture, expect) x
retries -> findings. Hosts run in parallel (up to `forks`); one bad host never stops the
others. run.json is rewritten atomically after every step, so Ctrl-C or a crash leaves a
valid partial record.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from spec_debug import __version__
from spec_debug.errors import PlaybookError, SpecDebugError, TemplateError, TransportError, stop_reason
from spec_debug.playbook.fact_order import captured_names
from spec_debug.playbook.loader import LoadedPlaybook
from spec_debug.playbook.models import Step, is_empty_var
from spec_debug.playbook.none_guard import PlaybookWarning
from spec_debug.playbook.number_text import number_given_with_unit
from spec_debug.playbook.var_file import closest_var
from spec_debug.playbook.var_types import typed_inventory_values
from spec_debug.playbook.templating import (
    TemplateSite, evaluate_condition, forms_in_command, render, render_value, resolve_vars, shell_quote, template_texts,
    var_references,
)
from spec_debug.record import Finding, HostRecord, PlaybookRef, PlaybookWarningRecord, RunRecord, StepLeftRunning, StepRecord
from spec_debug.redact import (
    LineMaskingRedactor, StreamRedactor, add_known_secret_values, known_secret_values, mask_lines, redact_with_values, secret_values,
)
from spec_debug.runner.attempt import (
    AttemptResult, background_note, collected_patterns, evaluate_attempt, killed_words, one_word_command_hint, output_tail, render_finding,
    values_said, watched_patterns,
)
from spec_debug.runner.env_lookup import env_lookup_values, env_lookups_done
from spec_debug.runner.fetch_deadline import (
    FetchTimedOut, ListingTimedOut, fetch_deadline, mark_given_up, not_reached_words, timed_out_words,
)
from spec_debug.runner.fetch_limit import FetchBudget, FetchCut, FetchTooLarge, human_size
from spec_debug.runner.output import DEFAULT_CAPTURE_LIMIT, TRUNCATION_MARKER, StreamCapture, without_markers
from spec_debug.runner.spill import DEFAULT_ARTIFACT_LIMIT
from spec_debug.runner.reporter import Reporter, StepGate
from spec_debug.runner.runner_findings import runner_finding
from spec_debug.runner.transport import CommandOutcome, LeftRunning, Transport, forms_in_check
from spec_debug.secret_commands import prints_secret_value
from spec_debug.store import RecordWriteError, RunStore, report_commands, utc_now

SAVE_INTERVAL_S = 0.1
"""run.json is rewritten after a step unless it was written less than this long ago; then the
run loop writes it within this interval. A 100-step playbook of `true` would otherwise spend
most of its time rewriting run.json."""

SAVE_COST_RATIO = 10
"""...and unless it was written less than this many times as long ago as the last write took.
A fleet's record grows with every host and step (60 hosts x 10 steps of 20 kB logs: 12 MB):
each rewrite then takes a tenth of a second or more, and at every SAVE_INTERVAL_S the run spent
over half its time rewriting. Paced by cost, rewriting takes about a tenth of the run at most,
and every write is still a whole record put in place atomically."""

# The message of a step the user skipped at a `--step` prompt (the demo names these steps).
SKIPPED_BY_USER = "skipped by the user (step-through)"
# Added to the stop reason of a host the run was stopped before it began (queued behind --forks).
NOT_STARTED = "not started: the run was stopped before this host's turn"


@dataclass
class HostTarget:
    """One host to run on: its name, its vars, and how to connect."""

    name: str
    connect: Callable[[], Transport]
    vars: dict[str, Any] = field(default_factory=dict)
    transport: str = "local"
    address: str | None = None
    warnings: tuple[str, ...] = ()
    """What the host's inventory entry asks for that the run does not do (ansible_become), kept
    in the host's record beside the connection's warnings."""
    var_sources: dict[str, str] = field(default_factory=dict)
    """Where its inventory set each of `vars` (`hosts.ini:7`, `group_vars/gpus.yml`): what a
    `requires:` skip of a var the inventory left empty names."""


@dataclass
class RunOptions:
    forks: int = 16
    capture_limit: int = DEFAULT_CAPTURE_LIMIT
    artifact_limit: int | None = DEFAULT_ARTIFACT_LIMIT
    """Bytes of each stream a spilled artifact keeps at most (head and end); None or 0: all. A
    step's `artifact_limit` overrides it."""
    redact: bool = True
    reporter: Reporter = field(default_factory=Reporter)
    gate: StepGate | None = None
    command_line: list[str] = field(default_factory=list)
    load_warnings: tuple[PlaybookWarning, ...] = ()
    """The playbook's load-time warnings (none_guard_warnings), which the caller printed:
    kept in run.json's playbook.warnings."""
    var_files: dict[str, str] = field(default_factory=dict)
    """{var name: the --var-file it came from} for the vars among cli_vars that a var file gave
    (the last file naming it; none that a --var replaced): what a `requires:` skip names."""


class _Abort(Exception):
    """Internal: the user quit (step-through) or interrupted the run."""


class Run:
    """One execution of a playbook on a set of hosts."""

    def __init__(
        self,
        loaded: LoadedPlaybook,
        targets: list[HostTarget],
        store: RunStore,
        cli_vars: dict[str, Any] | None = None,
        options: RunOptions | None = None,
    ) -> None:
        self.loaded = loaded
        self.playbook = loaded.playbook
        self.targets = targets
        self._targets_by_name = {target.name: target for target in targets}
        self.store = store
        self.options = options or RunOptions()
        self.cli_vars = dict(cli_vars or {})
        self.abort = threading.Event()
        self._lock = threading.Lock()
        self._transports: dict[str, Transport] = {}
        # Each host's place in the inventory: run.json lists steps and findings host by host in
        # this order (_commit_step), as the fleet's hosts are listed. Appended as they finished,
        # they came in completion order, and --forks 1 and --forks 8 wrote two different records.
        self._host_rank = {t.name: index for index, t in enumerate(targets)}
        # What each host's finished steps did, for `when: steps.gpu.status == "failed"`
        # (templating.CONTEXT_NAMES has always reserved `steps`; nothing filled it).
        self._step_views: dict[str, dict[str, dict[str, Any]]] = {}
        self._save_lock = threading.Lock()
        # The captures of the steps running now, whose artifacts are being written: they give
        # their space up to run.json when it cannot be written (_write_record).
        self._spilling: list[StreamCapture] = []
        self._dirty = False
        self._last_save = 0.0
        self._save_cost = 0.0
        self._save_seq = 0
        self._written_seq = 0
        # Hosts whose steps are over (run, skipped, or never to run): a failed write after
        # that stops nothing (_saved_after_steps).
        self._past_steps: set[str] = set()
        unknown = sorted(set(self.cli_vars) - set(self.playbook.vars))
        if unknown:
            # Most unknown vars are typos (modle=...): name the one meant, not only the list.
            close = closest_var(unknown[0], self.playbook.vars)
            raise PlaybookError(
                f"--var {unknown[0]} is not a var of playbook {self.playbook.name!r}",
                path=loaded.path,
                hint=(f"did you mean {close}? " if close else "")
                + f"its vars: {', '.join(sorted(self.playbook.vars)) or 'none'}",
            )
        for name, value in self.cli_vars.items():
            default = self.playbook.vars.get(name)
            # `--var min_accept=0.50` arrives as the text "0.50" (the CLI keeps trailing zeros a
            # version needs: vllm_version=0.10); a var the playbook declares as a number is one.
            if type(value) is str and type(default) in (int, float) and _DECIMAL.fullmatch(value):
                self.cli_vars[name] = float(value)
            elif (with_unit := number_given_with_unit(name, value, default)) is not None:
                raise with_unit
        run_vars = {**self.playbook.vars, **self.cli_vars}
        secrets: set[str] = set(secret_values(run_vars))
        # Each host's vars with the playbook's `{{ other_var }}` defaults rendered, before any
        # step runs: a template that cannot render (--var port=abc under "{{ port + 1 }}") is
        # an error of the command line, not of every host halfway through.
        self._host_vars: dict[str, dict[str, Any]] = {}
        for target in targets:
            # An inventory's values take their defaults' types, as --var's do (INI gives text).
            defaults = {k: v for k, v in self.playbook.vars.items() if k not in self.cli_vars}
            target.vars = typed_inventory_values(target.vars, defaults, target.name)
            # `hf_token: "{{ lookup('env', 'HF_TOKEN') }}"` was refused ("'lookup' is undefined")
            # and stopped the run, where the inventory's connection variables read the same lookup
            # (inventory.py). Read as Ansible reads it, an unset variable giving '' (a `requires:`
            # then names what was written); target.vars keeps what was written.
            looked_up = {k: env_lookups_done(v) for k, v in target.vars.items()
                         if isinstance(v, str) and "lookup(" in v and not getattr(v, "ansible_unsafe", False)}
            given = {**self.playbook.vars, **target.vars, **typed_inventory_values(looked_up, defaults, target.name),
                     **self.cli_vars}
            for written in (target.vars[k] for k in looked_up):
                # Masked by the variable's name too: `hub: "{{ lookup('env', 'HUB_API_KEY') }}"`
                # kept the key in every command that used {{ hub }}, hub being no secret's name.
                secrets.update(secret_values(env_lookup_values(written)))
            # An inventory's value is templated as Ansible templates it (`model_dir: "{{ models_root
            # }}/llama"` in group_vars); it went to the host as the literal text `{{ models_root }}`.
            # Not one Ansible keeps as text (`!unsafe`: inventory.UnsafeText).
            templated = [k for k in self.playbook.vars if k not in self.cli_vars
                         and (k not in target.vars or not getattr(target.vars[k], "ansible_unsafe", False))]
            from_inventory = {k: f"host {target.name}: inventory var {k}" for k in templated if k in target.vars}
            # The names Ansible gives every host, which inventory templates use most
            # (`"{{ inventory_hostname }}.ib.corp"`); steps name the host {{ host }}.
            names = {"inventory_hostname": target.name, "inventory_hostname_short": target.name.split(".")[0]}
            resolved = resolve_vars({**names, **given} if from_inventory else given, templated, target.name, from_inventory)
            self._host_vars[target.name] = {k: v for k, v in resolved.items() if k in given}
            secrets.update(secret_values(given))
            secrets.update(secret_values(self._host_vars[target.name]))
        secrets.update(form for secret in list(secrets) for form in forms_in_command(secret))  # `it'"'"'s` in a step's line
        secrets.update(form for secret in list(secrets) for form in forms_in_check(secret))  # a left-running step's check
        self._secrets = tuple(sorted(secrets, key=len, reverse=True))
        self.record = RunRecord(
            run_id=store.run_dir.name,
            playbook=PlaybookRef(name=self.playbook.name, path=loaded.path, sha256=loaded.sha256, warnings=[
                PlaybookWarningRecord(message=w.located, hint=w.hint) for w in self.options.load_warnings],
                step_ids=[step.id for step in self.playbook.steps]),
            started_at=utc_now(),
            vars=self._clean(run_vars),
            hosts=[
                HostRecord(name=t.name, transport=t.transport, address=t.address, vars=self._clean(t.vars)) for t in targets
            ],
            facts={t.name: {} for t in targets},  # in the hosts' order, not the order their threads began
            spec_debug_version=__version__,
            command_line=[self._clean(a) for a in self.options.command_line],
        )

    # ---------------------------------------------------------------- public

    @property
    def recorded(self) -> bool:
        """Whether run.json has been written: a stop before that leaves nothing to report."""
        return self._written_seq > 0

    def save(self, *, force: bool = False, host_done: bool = False) -> None:
        """Write run.json now, or mark it dirty if it was written very recently (the run loop
        writes it soon). A host's end is written at once unless writing is slow: forcing it
        made a fleet's run rewrite its whole, growing record once per host."""
        with self._lock:
            now = time.monotonic()
            pace = max(0.0 if host_done else SAVE_INTERVAL_S, SAVE_COST_RATIO * self._save_cost)
            if not force and now - self._last_save < pace:
                self._dirty = True
                return
            payload = self.record.model_dump_json(indent=2)
            self._dirty = False
            self._last_save = now
            self._save_seq += 1
            seq = self._save_seq
        with self._save_lock:
            if seq > self._written_seq:  # never let an older snapshot overwrite a newer one
                self._write_record(payload)
                self._written_seq = seq
        self._save_cost = time.monotonic() - now  # the dump and the write, as the next save's pace

    def execute(self) -> RunRecord:
        workers = max(1, min(self.options.forks, len(self.targets)))
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="host")
        futures: dict[Future[None], HostTarget] = {}
        # Ctrl-C, SIGTERM and SIGHUP are queued, not raised, while the run goes on: the loop
        # below stops the run at its next turn. Raised in the main thread, a signal could land
        # anywhere: in a lock's __exit__ inside wait() (RuntimeError 'release unlocked lock'),
        # a second one before the first one's stop had shielded itself, or one inside the kill
        # of a run already stopping for a record it cannot write (the SIGKILL never came). What
        # escaped left the pool's shutdown waiting for a step that ignores SIGTERM (round 8's
        # second-signal test hung 1 CI run in 3) or the step running on after the CLI.
        with _signals_queued() as signals:
            try:
                self.save(force=True)
                self.options.reporter.run_started(self.record)
                futures.update({pool.submit(self._run_host, t): t for t in self.targets})
                pending = set(futures)
                while pending and not signals:
                    # Short waits: a queued signal is acted on within this interval.
                    _, pending = wait(pending, timeout=SAVE_INTERVAL_S, return_when=FIRST_COMPLETED)
                    if self._dirty:
                        self._saved_after_steps(self.save, steps_over=len(self._past_steps) == len(self.targets))
                if signals:
                    # Further signals while the steps are killed and the record written only
                    # ask for what is already under way: they are queued behind this one.
                    self.interrupt(stop_reason(signals[0]))
                    self._wait_for_hosts_to_stop(set(futures))
                    pool.shutdown(wait=True)
                    self._finish()
                    return self.record
            except SpecDebugError as exc:
                # The record cannot be written (disk full, folder gone): stop the hosts rather
                # than let them run on unrecorded, then let the CLI say why.
                out_of_space = isinstance(exc, RecordWriteError) and exc.out_of_space
                self.interrupt(_without_kept(exc.message) if out_of_space else exc.message.splitlines()[0])
                if out_of_space and isinstance(exc, RecordWriteError):
                    self._wait_for_hosts_to_stop(set(futures))
                    self._save_cut(exc, aborted=True)
                raise
            except BaseException as exc:
                # A fault of ours in the loop: stop the steps rather than let the shutdown
                # below wait for each to run to its end.
                self.interrupt(f"spec-debug stopped: {type(exc).__name__}: {exc}")
                raise
            finally:
                pool.shutdown(wait=True)
            self._finish()  # a signal now must not cut the final record short
        if signals:
            # Every step ran and the record is whole: the reports are what the signal stops.
            raise signals[0]
        return self.record

    def _write_record(self, payload: str) -> None:
        """Write run.json; if the disk is full while steps spill their output to artifacts, give
        those spills up and write it once more. A step printing a checkpoint save's log filled a
        small disk with its artifact just as the run loop wrote the record: the write failed,
        the run was stopped as out of space, and the step was cut halfway through its log."""
        try:
            self.store.save_json(payload)
        except RecordWriteError as exc:
            if not exc.out_of_space or not self._yield_spills(_write_failure(exc)):
                raise
            self.store.save_json(payload)

    def _yield_spills(self, why: str) -> bool:
        """Give up the artifact of every step running now; whether any space was freed that way
        (by this, or by a spill that met the full disk itself just before)."""
        with self._lock:
            spilling = list(self._spilling)
        return any([capture.yield_spill(why) for capture in spilling])  # a list: every one yields

    def _save_cut(self, error: RecordWriteError, *, aborted: bool) -> None:
        """The disk filled: the last record on it lacked the latest steps and said "running", so
        `spec-debug report` blamed the controller for stopping before its final write. Write the
        record once more with each output cut to its ends (small enough for the space a full
        write left) and raise a RecordWriteError that says so; if even that does not fit, the
        previous record stays and error is raised as it is. Called once the hosts have stopped."""
        why = _write_failure(error)
        path = self.store.run_dir / "run.json"
        reason = f"cannot write {path} in full: {why}"
        with self._lock:
            if aborted:
                self.record.finished_at = utc_now()
                self.record.status = "aborted"
                for host in self.record.hosts:
                    if host.status in ("pending", "running"):
                        host.status = "aborted"
            # The reason the hosts were stopped with becomes what this write did.
            stale = _without_kept(error.message)
            if self.record.abort_reason:
                self.record.abort_reason = self.record.abort_reason.replace(stale, reason)
            for host in self.record.hosts:
                if host.error:
                    host.error = host.error.replace(stale, reason)
            for step in self.record.steps:
                if step.message:
                    step.message = step.message.replace(stale, reason)
            payload = self.record.model_dump_json(indent=2)
        with self._save_lock:
            try:
                self.store.save_cut(payload, why)
            except RecordWriteError:
                raise error from None
        raise RecordWriteError(
            f"cannot write {path} in full: {why} (it keeps every step's result, each output cut to its first and last lines)",
            hint=f"free some space there (or pass --out DIR on another disk), then: {'; '.join(report_commands(self.store.run_dir))}",
            out_of_space=True,
        ) from None

    def _wait_for_hosts_to_stop(self, pending: set[Future[None]]) -> None:
        """After an interrupt every host stops within seconds (its command killed, its connect
        given up). A second Ctrl-C meanwhile must not cut this short: the record would stay
        "running", with hosts still writing to it."""
        while pending:
            _, pending = wait(pending, timeout=SAVE_INTERVAL_S)

    def interrupt(self, reason: str) -> None:
        """Stop every host: kill the running commands, give up the connections being opened,
        record the run as aborted."""
        with self._lock:
            if self.record.abort_reason is None:
                self.record.abort_reason = reason
        self.abort.set()
        if self.options.gate is not None:
            self.options.gate.stop_waiting()  # a step-through prompt waiting for an answer: after the reason is set
        # A host still connecting (a stalled or firewalled one) would hold the run for its
        # whole ConnectTimeout. A run with no SSH host never imported the SSH modules (paramiko
        # costs ~0.25 s at start): then no connection is being opened and nothing is given up.
        ssh_abandon = sys.modules.get("spec_debug.runner.ssh_abandon")
        if ssh_abandon is not None:
            ssh_abandon.abandon_connects()
        for transport in list(self._transports.values()):
            try:
                transport.interrupt()
            except Exception:  # a broken connection is already as interrupted as it gets
                pass

    # ---------------------------------------------------------------- hosts

    def _host_record(self, name: str) -> HostRecord:
        return next(h for h in self.record.hosts if h.name == name)

    def _run_host(self, target: HostTarget) -> None:
        # A text cut before _clean masks it (a finding's title, an output line of its evidence,
        # a refused capture's quote) is cut before a --var secret's value, not inside it: its
        # first part, no longer the value, stayed in run.json and the reports.
        with known_secret_values(self._secrets if self.options.redact else ()):
            self._run_host_steps(target)

    def _run_host_steps(self, target: HostTarget) -> None:
        host = self._host_record(target.name)
        host.status = "running"
        # A host still queued behind --forks when the run was stopped never began: it keeps no
        # start time and its error says so. It read as a host cut while it ran (started_at the
        # moment of the Ctrl-C, the same "interrupted (Ctrl-C)" as a host stopped mid-step), so
        # neither run.json nor the reports told which hosts were never looked at.
        not_started = self.abort.is_set()
        if not not_started:
            host.started_at = utc_now()
        self.options.reporter.host_started(target.name)
        facts: dict[str, Any] = {}  # raw: later steps template them ({{ facts.hf_token }})
        self._step_views[target.name] = {}
        with self._lock:
            self.record.facts[target.name] = {}  # masked, as every step's own facts are
        skipped_for_input: dict[str, list[str]] = {}
        transport: Transport | None = None
        try:
            if self.abort.is_set():
                raise _Abort()
            transport = target.connect()
            self._transports[target.name] = transport
            host.warnings.extend([*target.warnings, *transport.connect_warnings()])
            host_vars = self._host_vars[target.name]
            cut = True  # by the stop, until a step has run to its end
            for index, step in enumerate(self.playbook.steps):
                if self.abort.is_set():
                    raise _Abort()
                with self._lock:
                    # Written by the run loop within SAVE_INTERVAL_S: a controller killed during a
                    # long step left a record that named only the steps before it.
                    host.running_step = step.id
                    self._dirty = True
                result, findings, stop = self._run_step(step, target.name, transport, host_vars, facts, skipped_for_input)
                # drafter_eval stopped by Ctrl-C or a CI job's SIGTERM returns the scores so far
                # (`stopped`, `partial`) and exits 0: the step keeps them (SD004 says the evaluation
                # was stopped), but the run said "PASSED ... after every step had run" with exit 0,
                # as if the evaluation had ended. It was cut: the host ends aborted.
                cut = cut_by_stop(result) or step.probe is not None and answered_stop(result)
                self._step_views[target.name][step.id] = _step_view(result, step)
                if stop or index == len(self.playbook.steps) - 1:
                    self._past_steps.add(target.name)
                self._commit_step(result, findings, target.name)
                if stop:
                    # Shown as a skip by when: is (_shown_skip): the console listed the steps up to
                    # the one that stopped and said FAILED, with no word that the rest never ran.
                    for later in self.playbook.steps[index + 1 :]:
                        self._commit_step(
                            self._shown_skip(later, target.name, f"not run: step {step.id!r} failed with on_failure: stop"),
                            [], target.name,
                        )
                    break
            # The stop came as the last step ended on its own: the host ran every step (or
            # stopped at an on_failure: stop), and "aborted" said it was cut short. A last step
            # the stop did cut says so: raise _Abort, as at the next step's turn.
            if self.abort.is_set() and cut:
                raise _Abort()
            host.status = "passed"
        except _Abort:
            host.status = "aborted"
            host.error = self.record.abort_reason or "aborted"
            if not_started:
                host.error += f"; {NOT_STARTED}"
        except TransportError as exc:
            self._past_steps.add(target.name)
            if self.abort.is_set():  # a connect given up by the interrupt, or cut by it: not the host's fault
                host.status = "aborted"
                host.error = self.record.abort_reason or "aborted"
            else:
                host.status = "error"
                host.error = exc.message.splitlines()[0]
                host.hint = exc.hint  # the ssh-keygen -R line of a changed key: the error alone says what, not how
                if getattr(exc, "left_running", None) is not None:
                    # It quotes the step's first line (ssh.py, _left_behind), masked as its record is.
                    host.hint = self._clean(exc.hint)
                # A step that timed out and could not be killed because a second connection was
                # refused while the host still answered on this one (ssh.py: host_answered,
                # left_running) ends the host, which was reached all the same: SD002 says that and
                # how to find what may still run (docs/findings.md), not SD005's "could not be
                # reached". A host that went silent or dropped under the kill keeps SD005.
                code = "SD002" if getattr(exc, "left_running", None) is not None \
                    and getattr(exc, "host_answered", False) else "SD005"
                self._not_reached(target.name, host.error, host.hint, code=code)
        except SpecDebugError as exc:  # the record could not be written, a template failed at run time
            host.status = "error"
            host.error = exc.message.splitlines()[0]
            host.hint = exc.hint  # an ssh config the host's connection could not read: how to fix it
            if isinstance(exc, RecordWriteError) and exc.out_of_space:
                # As execute() does when its own write fails: the other hosts would run on unrecorded.
                host.error = _without_kept(exc.message)
                self.interrupt(host.error)
                host.status = "aborted"
            elif transport is None and not isinstance(exc, RecordWriteError):
                self._not_reached(target.name, host.error, exc.hint)
        except Exception as exc:  # a bug of ours must not leave the host "running" and the run PASSED
            host.status = "error"
            host.error = (f"internal error: {type(exc).__name__}: {exc}".splitlines() or ["internal error"])[0]
            if transport is None:
                self._not_reached(target.name, host.error, None)
        finally:
            host.running_step = None  # a step cut by an error of the host's is said in host.error
            self._past_steps.add(target.name)
            self._transports.pop(target.name, None)
            if transport is not None:
                try:
                    transport.close()
                except Exception:
                    pass
        for var, step_ids in skipped_for_input.items():
            self._commit_step(
                None,
                [
                    runner_finding(
                        "SD004",
                        host=target.name,
                        step=step_ids[0],
                        evidence=[f"skipped: {', '.join(step_ids)}"],
                        facts={"var": var, "steps": step_ids},
                        title=f"Not checked: {self._provide(var, target.name)} to run {len(step_ids)} more step(s)",
                    )
                ],
                target.name,
            )
        if host.status == "running":
            host.status = "passed"
        if host.status == "passed" and any(
            f.severity == "error" for f in self.record.findings if f.host == target.name
        ):
            host.status = "failed"
        host.error = self._clean(host.error)  # a transport's message may quote the command
        host.finished_at = utc_now()
        self._saved_after_steps(functools.partial(self.save, host_done=True), steps_over=True)
        self.options.reporter.host_finished(host)

    def _not_reached(self, host: str, error: str, hint: str | None, code: str = "SD005") -> None:
        """SD005 for a host the run never got into: a connection that failed, and also a login
        its ssh config refuses before any connect (ConnectionAttempts 0, no login name for a
        uid without a passwd entry) or an error of ours while connecting. Those were a host
        "error" with no finding, and the run's last line said "ERROR: 0 error(s)" (exit 3)."""
        self._commit_step(
            None, [runner_finding(code, host=host, step=None, evidence=[error], facts={}, hint=hint)], host,
        )

    def _commit_step(self, result: StepRecord | None, findings: list[Finding], host: str) -> None:
        with self._lock:
            if result is not None:
                bisect.insort_right(self.record.steps, result, key=self._rank)
                self._host_record(host).running_step = None
            for finding in self._clean_findings(findings):
                bisect.insort_right(self.record.findings, finding, key=self._rank)
        self._saved_after_steps(self.save, steps_over=host in self._past_steps)

    def _rank(self, item: StepRecord | Finding) -> int:
        """Where a step or finding goes in run.json: after those of the hosts listed before its
        host and of its own host (which come in step order); one of no host of the run, last."""
        return self._host_rank.get(item.host or "", len(self._host_rank))

    def _saved_after_steps(self, save: Callable[[], None], *, steps_over: bool) -> None:
        """A write of the record; one that fails (a full disk) stops the run only while steps
        remain, as they would run unrecorded. After the last step it stops nothing: the run's
        verdict is made, and _finish writes the record once more (cut to fit, saying so on
        stderr, if the disk is still full). Which write met the full disk decided it before:
        the last step's aborted the run, the host's end was lost silently in its thread."""
        try:
            save()
        except RecordWriteError:
            if not steps_over:
                raise

    # ---------------------------------------------------------------- steps

    def _shown_skip(self, step: Step, host: str, message: str) -> StepRecord:
        """A step skipped by requires:, when: or an empty command, shown on the console as the
        steps that ran are: host_smoke listed 2 of its 3 steps and said PASSED, with nothing
        about the GPU check that did not run."""
        skipped = self._skipped(step, host, message)
        self.options.reporter.step_finished(host, step, skipped, [])
        return skipped

    def _provide(self, var: str, host: str) -> str:
        """What a `requires:` var that is empty asks for. `--var x=[]`, `--var x=null` or `--var
        x=` were told "provide --var x=..." though the user had: it names the value given."""
        target = self._targets_by_name.get(host)
        if var not in self.cli_vars and target is not None and var in target.vars:
            # `draft_model:` left blank for a host in hosts.yml (or `draft_model=` on its INI
            # line, or in group_vars/gpus.yml) was "provide --var draft_model=...": the user,
            # whose inventory names the var, was not told that it is where the value is empty.
            given = self._host_vars.get(host, {}).get(var, target.vars[var])
            shown = "" if given == "" else f" ({json.dumps(given, default=str)})"
            where = target.var_sources.get(var)
            written = target.vars[var]
            if isinstance(written, str) and written != given:  # `"{{ draft_dir }}"` rendered empty
                shown = f"{shown} (written {written!r})"
            return (f"{var} is empty{shown} in the inventory{f' ({where})' if where else ''}: "
                    f"give it a value there, or pass --var {var}=...")
        if var in self.cli_vars:
            # `--var server_log=$SERVER_LOG` with the shell variable unset gives "".
            given = self.cli_vars[var]
            shown = "" if given == "" else f" ({json.dumps(given)})"
            var_file = self.options.var_files.get(var)
            if var_file is not None:
                # `draft_model: ""` left in a team's var file was "--var draft_model is empty":
                # the user, who typed no such --var, was sent to their command line.
                return f"{var} is empty{shown} in --var-file {var_file}: give it a value"
            return f"--var {var} is empty{shown}: give it a value"
        built_from = self._built_from_empty(var, host)
        if built_from is not None:
            # `served_model: "{{ model }}"` with model empty (`--var model=`, not given, or
            # `model=` on the host's inventory line) was "provide --var served_model=...": a var
            # the user is not meant to set, and a --var model= given read as unseen.
            written = self.playbook.vars[var]
            shown = repr(written) if isinstance(written, str) else json.dumps(written, default=str)
            return f"{self._provide(built_from, host)} ({var} is {shown})"
        return f"provide --var {var}=..."

    def _built_from_empty(self, var: str, host: str) -> str | None:
        """The var an empty playbook var is built from (its default `"{{ model }}"`), the first
        that is itself empty for the host; None for a var no template builds (or none empty)."""
        default = self.playbook.vars.get(var)
        if not template_texts(default):
            return None
        values = self._host_vars.get(host, {})
        # Parsed before any step ran (resolve_vars): no syntax error is left to meet here.
        used = var_references(default, self.playbook.vars)
        return next((name for name in used if name != var and is_empty_var(values.get(name))), None)

    def _skipped(self, step: Step, host: str, message: str) -> StepRecord:
        now = utc_now()
        return StepRecord(id=step.id, host=host, title=step.title, status="skipped", message=message, started_at=now, finished_at=now)

    def _context(self, host: str, host_vars: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
        return {**host_vars, "vars": host_vars, "facts": facts, "host": host, "steps": self._step_views.get(host, {})}

    def _run_step(
        self,
        step: Step,
        host: str,
        transport: Transport,
        host_vars: dict[str, Any],
        facts: dict[str, Any],
        skipped_for_input: dict[str, list[str]],
    ) -> tuple[StepRecord, list[Finding], bool]:
        context = self._context(host, host_vars, facts)
        step = self._with_texts_rendered(step, context)
        missing = [name for name in step.requires if is_empty_var(host_vars.get(name))]
        if missing:
            for name in missing:
                skipped_for_input.setdefault(name, []).append(step.id)
            return self._shown_skip(step, host, f"skipped: {self._provide(missing[0], host)} to run this step"), [], False
        try:
            if step.when and not evaluate_condition(step.when, context, TemplateSite(step.id, "when")):
                return self._shown_skip(step, host, f"skipped: when {step.when!r} is false"), [], False
            command = self._render_command(step, context, transport)
            if step.run is not None and not (command or "").strip():
                # `run: "{{ launch_cmd | raw }}"` with the var left empty ran nothing and passed:
                # a check that checked nothing must not read as a clean result.
                return self._shown_skip(step, host, "skipped: its command is empty (`run:` rendered to nothing: is a var it uses empty?)"), [], False
        except TransportError as exc:
            # The connection broke while the probe bundle was uploaded: the record names the
            # step the host was lost in, as for a break while a command runs (below).
            self._past_steps.add(host)  # the host ends here
            errored = self._errored(step, host, exc.message.splitlines()[0], None)
            self._unprompted_end(step, host, errored, [])
            self._lose_host_in(step, host, errored)
            raise
        except SpecDebugError as exc:
            if self.abort.is_set():
                # Ctrl-C while a probe's bundle was checked or uploaded (a home on a stalled NFS
                # mount): "file copy not started: the run was interrupted" was an SD003 warning
                # against the host, for what the user did (as a cut fetch was: _fetch). The copy
                # the stop refused (ssh_errors.CopyInterrupted) is said as what it kept from
                # happening: its words put the host mid-sentence and said the stop again.
                said = "the probe did not start: its bundle was not copied to the host" if isinstance(exc, InterruptedError) \
                    else exc.message
                errored = self._errored(step, host, f"{interrupted_words(self.record.abort_reason)}; {said}", None)
                self.options.reporter.step_finished(host, step, errored, [])
                return errored, [], False
            errored = self._errored(step, host, exc.message, None)
            # With the error's hint (how to guard a `when:`, which var is empty), as attempt.py's.
            findings = self._clean_findings([runner_finding("SD003", host=host, step=step.id, evidence=[exc.message],
                                                            hint=exc.hint)])
            self._unprompted_end(step, host, errored, findings)
            # Shown like any finished step: else the console lists the steps that ran and a
            # warning count with no step to pin it on.
            self.options.reporter.step_finished(host, step, errored, findings)
            return errored, findings, step.on_failure == "stop"

        if self.options.gate is not None:
            # Shown on a terminal (screen-shared, recorded): masked like the record.
            decision = self.options.gate.before_step(host, step, self._clean(command))
            if decision == "quit":
                # stdin closed at the prompt (a job run with --step, `</dev/null`) is not a user
                # who quit: the report read "Run aborted (quit in step-through mode)" for it
                self.interrupt(self.options.gate.quit_reason or "quit in step-through mode")
                raise _Abort()
            if decision == "skip":
                return self._skipped(step, host, SKIPPED_BY_USER), [], False

        self.options.reporter.step_started(host, step, self._clean(command))
        try:
            if step.fetch is not None:
                result, findings = self._fetch(step, host, transport, context)
            else:
                assert command is not None
                result, findings = self._execute(step, host, transport, command, context, facts)
        except TransportError as exc:
            # The connection broke under this step: record the step, then end the host.
            # The transport's message says what happened (lost, refused a session, hung).
            errored = self._errored(step, host, exc.message.splitlines()[0], command)
            cut_short = getattr(exc, "cut_short", None)  # set by _execute: its output until the break
            if cut_short is not None:
                errored = errored.model_copy(update=cut_short)
            findings = []
            if exc.step_only:
                # Only this step's channel was closed (ChannelTimeout): the connection serves the
                # host's other steps, which still have their diagnostics to give.
                findings = self._clean_findings([runner_finding("SD003", host=host, step=step.id, evidence=[errored.message or ""],
                                                                hint=exc.hint)])
            if self.options.gate is not None:
                # Step-through: the step the user just said "run" to gets its "→ step" line as
                # any other does; a step lost with its connection showed only the host's error.
                self.options.reporter.output_ended(host, step)
                self.options.gate.after_step(host, step, errored, findings)
            if exc.step_only:
                self.options.reporter.step_finished(host, step, errored, findings)
                return errored, findings, step.on_failure == "stop"
            self._past_steps.add(host)  # the host ends here
            self._lose_host_in(step, host, errored)
            raise
        findings = self._clean_findings(findings)  # before the console shows them
        if self.options.gate is not None:
            self.options.reporter.output_ended(host, step)
            self.options.gate.after_step(host, step, result, findings)
        self.options.reporter.step_finished(host, step, result, findings)
        stop = step.on_failure == "stop" and result.status in ("failed", "error", "timeout")
        return result, findings, stop

    def _unprompted_end(self, step: Step, host: str, errored: StepRecord, findings: list[Finding]) -> None:
        """Step-through: the "→ step could not run ..." line of a step that failed before its
        prompt. A probe's bundle is uploaded while its command is made (the command names the
        bundle's path), so an upload cut by the host's file size limit or a full disk errored
        the step with no "→" line, where every step the user ran ends with one."""
        if self.options.gate is not None:
            self.options.gate.after_step(host, step, errored, findings)

    def _lose_host_in(self, step: Step, host: str, errored: StepRecord) -> None:
        """Record the step the connection broke under and show its line.

        The console showed the steps before it and then only "host gpu3 error: gpu3: SSH
        connection lost during command": which step was cut (a 40-minute server launch, or the
        quick check after it) was in run.json alone. The step's line comes without its message:
        the host's error line right after it says that. The host's SD005 stays host-wide
        (`step: null`): the JUnit report files it as that step's error (report/junit.py).
        """
        self._commit_step(errored, [], host)
        self.options.reporter.step_finished(host, step, errored.model_copy(update={"message": None}), [])

    def _with_texts_rendered(self, step: Step, context: dict[str, Any]) -> Step:
        """``step`` with its title, why and expectations' descriptions rendered for this host:
        ``title: "Server on {{ host }} answers on {{ port }}"`` showed its braces in the console,
        the record and the reports, and a failed expectation's finding read "expected port {{ port }}
        answers", where a finding's own title and the commands are rendered. A text whose template
        cannot be rendered (an undefined name) stays as written: it is a label, and the step's
        command says what is wrong with the vars. Masked like every text of the record."""
        if not ("{" in step.title or "{" in step.why or any(e.description and "{" in e.description for e in step.expect)):
            return step  # most steps: no template in their texts

        def text(value: str, name: str) -> str:
            try:
                return self._clean(render(value, context, TemplateSite(step.id, name)))
            except TemplateError:
                return value

        update: dict[str, Any] = {"title": text(step.title, "title"), "why": text(step.why, "why")}
        if any(e.description and "{" in e.description for e in step.expect):
            update["expect"] = [e.model_copy(update={"description": text(e.description, "expect.description")})
                                if e.description and "{" in e.description else e for e in step.expect]
        return step.model_copy(update=update)

    def _render_command(self, step: Step, context: dict[str, Any], transport: Transport) -> str | None:
        if step.run is not None:
            return render(step.run, context, TemplateSite(step.id, "run"), shell=True)
        if step.probe is not None:
            from spec_debug.probes.bundle import ensure_bundle
            from spec_debug.probes.registry import get_probe

            spec = get_probe(step.probe)
            args = render_value(step.with_, context, TemplateSite(step.id, "with"))
            python = args.pop("python", None) or context.get("python") or "python3"
            bundle = ensure_bundle(transport)
            return " ".join(
                [shell_quote(python), shell_quote(bundle), shell_quote(spec.module), shell_quote(json.dumps(args, default=str))]
            )
        return None

    def _errored(self, step: Step, host: str, message: str, command: str | None) -> StepRecord:
        now = utc_now()
        return StepRecord(
            id=step.id, host=host, title=step.title, status="error", message=self._clean(message), command=self._clean(command), started_at=now, finished_at=now
        )

    def _cut_short(
        self, started_at: str, duration_s: float, attempts: int, stdout: StreamCapture, stderr: StreamCapture, bare: bool = False,
    ) -> dict[str, Any]:
        """The fields of an errored step's record that say how far it got: its output, artifacts
        and time until the connection broke."""
        return {
            "stdout": self._clean(_masked_whole(stdout.text("surrogateescape")) if bare else stdout.text("surrogateescape")),
            "stderr": self._clean(stderr.text("surrogateescape")),
            "truncated": stdout.truncated or stderr.truncated,
            "duration_s": round(duration_s, 6),
            "started_at": started_at,
            "attempts": attempts,
            "artifacts": [
                str(c.spill_path.relative_to(self.store.run_dir)) for c in (stdout, stderr) if c.spill_path and c.spill_path.exists()
            ],
        }

    def _captures(self, step: Step, host: str, attempt: int, bare: bool = False) -> tuple[StreamCapture, StreamCapture]:
        """The step's two streams. ``bare``: its command prints a secret's value bare on stdout
        (prints_secret_value), which is masked whole wherever it is written."""
        reporter = self.options.reporter
        on_line = None
        if reporter.wants_output_lines:
            def on_line(stream: str, line: str, _host: str = host, _step: str = step.id) -> None:
                # --show-output goes to a terminal or a CI log, which is kept and shared too.
                reporter.output_line(_host, _step, stream, self._clean(mask_lines(line) if bare and stream == "stdout" else line))
        suffix = "" if attempt == 1 else f".attempt{attempt}"
        stem = f"{step.id}{suffix}"
        watch, collect = watched_patterns(step), collected_patterns(step)
        artifact_limit = self._artifact_limit(step)
        # A probe's JSON and a json: capture's document are parsed whole (StreamCapture.whole_text),
        # as printed: the artifact holds it masked where the run redacts. Only the streams read so.
        whole_sources = {c.from_ for c in step.capture if c.json_path is not None} | ({"stdout"} if step.probe else set())
        keep_whole = {name for name in ("stdout", "stderr") if self.options.redact and whole_sources & {name, "output"}}
        return tuple(  # type: ignore[return-value]
            StreamCapture(
                name, self.options.capture_limit, self.store.artifact_path(_safe_name(host), _fitted(f"{stem}.{name}.log")), on_line,
                # The spilled file is masked like run.json: it is shared with the record.
                redactor=(None if not self.options.redact else LineMaskingRedactor() if bare and name == "stdout"
                          else StreamRedactor(self._secrets)), watch=watch, collect=collect,
                artifact_limit=artifact_limit, spill_root=self.store.run_dir, keep_whole=name in keep_whole,
            )
            for name in ("stdout", "stderr")
        )

    def _artifact_limit(self, step: Step) -> int | None:
        """The step's artifact_limit, else the run's (None or 0: all)."""
        return self.options.artifact_limit if step.artifact_limit is None else step.artifact_limit

    def _capped_artifacts(self, stdout: StreamCapture, stderr: StreamCapture) -> dict[str, int]:
        """Each artifact that lost its middle at the artifact limit (relative to the run folder),
        and the bytes it lacks."""
        return {
            str(c.spill_path.relative_to(self.store.run_dir)): c.artifact_dropped
            for c in (stdout, stderr) if c.artifact_dropped and c.spill_path is not None
        }

    def _capped_note(self, capped_artifacts: dict[str, int]) -> str | None:
        """Which artifacts lost their middle at the artifact limit, and how many bytes: a reader of
        the artifact must not take its end for what followed its head."""
        capped = [f"{path} lacks {dropped} bytes from its middle" for path, dropped in capped_artifacts.items()]
        if not capped:
            return None
        return f"artifact limit reached: {' and '.join(capped)} (raise --artifact-limit or the step's artifact_limit to keep more)"

    def _execute(
        self, step: Step, host: str, transport: Transport, command: str, context: dict[str, Any], facts: dict[str, Any]
    ) -> tuple[StepRecord, list[Finding]]:
        started_at = utc_now()
        # The step's duration is its wall time, the retry_delay waits included: a poll of
        # `retries: 60, retry_delay: 5` that waited five minutes said "(0.3 s)", its commands'
        # time alone.
        step_started = time.monotonic()
        attempts = 0
        timeouts = 0  # attempts that timed out, before this one
        total_duration = 0.0
        until_failed = False
        until_error: str | None = None
        superseded: tuple[StreamCapture, ...] = ()
        # The interrupt came before the step's `until` held: between attempts (during
        # retry_delay), or as an attempt ended on its own. Its last attempt passed, and the
        # step said "passed": a wait for a server that never came up, cut by Ctrl-C.
        until_unmet = False
        # The interrupt came while the step waited to retry (retry_delay): its last attempt ran
        # to its end, and what it said was dropped for "interrupted" alone.
        waited_to_retry = False
        # A command that prints a secret's value bare (`vault kv get -field=password ...`): no
        # pattern knows the value for one, so its stdout is masked whole (secret_commands.py).
        bare = self.options.redact and prints_secret_value(command)
        while True:
            attempts += 1
            # The record keeps the last attempt's output only, and so do the artifacts: a step
            # polling `journalctl -u sglang` until the server is up left one unlisted copy of the
            # whole journal per attempt (300 attempts of a 50 MB journal: 15 GB).
            for capture in superseded:
                _remove_spill(capture)
            stdout, stderr = self._captures(step, host, attempts, bare)
            superseded = (stdout, stderr)
            attempt_started = time.monotonic()
            with self._lock:
                self._spilling.extend(superseded)
            try:
                try:
                    outcome = transport.run(command, stdout=stdout, stderr=stderr, timeout_s=step.timeout)
                finally:
                    with self._lock:
                        self._spilling[:] = [c for c in self._spilling if c is not stdout and c is not stderr]
                    stdout.close()
                    stderr.close()
            except TransportError as exc:
                # The connection broke under this attempt: what the step printed until then is
                # the evidence of why (a host dying under load prints its last words: a CUDA
                # OOM, an NCCL timeout). _run_step records it with the error.
                exc.cut_short = self._cut_short(  # type: ignore[attr-defined]
                    started_at, total_duration + time.monotonic() - attempt_started, attempts, stdout, stderr, bare
                )
                left_running = getattr(exc, "left_running", None)  # timed out, the kill not sent: ssh.py
                if left_running is not None:
                    exc.cut_short["left_running"] = self._left_running_record(left_running)  # type: ignore[attr-defined]
                if getattr(exc, "timed_out", False):
                    # It ran for its whole timeout and its kill did not reach the host (ssh.py,
                    # _not_killed): "error" (shown "could not run") hid the timeout, where a
                    # timed-out step whose pid never came, as unkilled, says "timeout".
                    exc.cut_short["status"] = "timeout"  # type: ignore[attr-defined]
                raise
            # Ended by the interrupt's kill (or so close to it that the two cannot be told apart):
            # a pass of its expectations read a log cut short (`not_contains: CUDA out of memory`
            # on the first second of a load), and said "passed" with exit code 143.
            total_duration += outcome.duration_s
            evaluation = evaluate_attempt(step, host, outcome, stdout, stderr, context, facts, attempts, timeouts,
                                          redact=self.options.redact)
            # A probe whose JSON was read answered the stop itself (drafter_eval's scores so far):
            # over SSH its exit code is not known after the kill (None), where locally it exits 0.
            killed_answering = False
            if (self.abort.is_set() and step.probe is not None and evaluation.status == "error"
                    and outcome.exit_code in (-signal.SIGKILL, 128 + signal.SIGKILL)):
                # The stop's kill gives a SIGTERM half a second (proctree.kill_tree): drafter_eval,
                # on a loaded host, printed its scores so far and was SIGKILLed as it exited (137),
                # and the step was "interrupted" with them dropped. JSON it printed that says it
                # answered the stop is its answer, as over SSH, where no exit code is read then.
                as_answered = evaluate_attempt(step, host, replace(outcome, exit_code=None), stdout, stderr, context,
                                               facts, attempts, timeouts, redact=self.options.redact)
                if as_answered.status == "passed" and _says_stopped(as_answered.facts):
                    evaluation, killed_answering = as_answered, True  # its record keeps the 137
            answered = step.probe is not None and evaluation.status == "passed" and (
                outcome.exit_code is None or killed_answering)
            killed_by_abort = self.abort.is_set() and outcome.exit_code != 0 and not answered
            timeouts += outcome.timed_out
            if outcome.left_running is not None:
                # The timeout's message says it (evaluate_attempt); an interruption's, below.
                if outcome.timed_out and attempts <= step.retries:
                    evaluation.message = f"{evaluation.message}; not retried: another attempt would run beside it"
                break
            if self.abort.is_set() or outcome.timed_out and attempts > step.retries:
                if self.abort.is_set() and step.until is not None and not killed_by_abort:
                    until_unmet = not self._until(step, evaluation, context, outcome, stdout, stderr)[0]
                break
            if stdout.survived_kill is not None:
                # A process stuck in the kernel (a hung GPU driver) outlived the timeout's kill:
                # another attempt would hang beside it, holding the same driver lock.
                if attempts <= step.retries:
                    evaluation.message = f"{evaluation.message}; not retried: another attempt would hang beside it"
                break
            # The last attempt's until counts too: a step that waited for "ready" through every
            # retry and never saw it used to end as passed (it had no expectation to fail).
            done, until_error = self._until(step, evaluation, context, outcome, stdout, stderr)
            if done or attempts > step.retries:
                until_failed = step.until is not None and not done
                break
            if self.abort.wait(step.retry_delay):  # Ctrl-C during the wait ends it at once
                until_unmet = step.until is not None
                waited_to_retry = True
                break
        status, message, step_facts, findings, expectations = (
            evaluation.status, evaluation.message, evaluation.facts, evaluation.findings, evaluation.expectations
        )
        if attempts > 1 and status in ("failed", "error") and not outcome.timed_out and not self.abort.is_set():
            # As a timeout says its attempts (attempt.timeout_words): "exit code 1" after retries: 2
            # read as one try, and the fix the reader reached for ("add retries") was there.
            message = f"{message} (attempt {attempts} of {attempts})" if message else message
        if until_failed and status == "passed" and not self.abort.is_set():
            status, message, findings = self._until_never_held(
                step, host, attempts, outcome, stdout, stderr, context, facts, step_facts, findings, until_error,
                evaluation.defaulted,
            )
        hint = one_word_command_hint(step, context, stderr.checked_text()) if outcome.exit_code == 127 else None
        if hint is not None and status != "passed":
            message = hint if message is None else f"{message}; {hint}"
        capped_artifacts = self._capped_artifacts(stdout, stderr)
        for note in (background_note(stdout, stderr), self._capped_note(capped_artifacts)):
            if note is not None:
                message = note if message is None else f"{message}; {note}"
        if self.abort.is_set() and (status != "passed" or killed_by_abort or until_unmet):
            # The command was killed by the interrupt: its failure says nothing about the host.
            last_status, last_message = status, message
            status, message, findings = "error", interrupted_words(self.record.abort_reason), []
            if waited_to_retry and last_status != "passed" and last_message:
                # A health check polled with retries, stopped by Ctrl-C after 3 tries: the record
                # said "interrupted" and "no step ran to an answer", not what the tries said.
                said = {"failed": " failed:", "error": " could not run:"}.get(last_status, ":")
                message += (f"; it was waiting to retry (attempt {attempts} of {step.retries + 1}{said} "
                            f"{last_message.removesuffix(f' (attempt {attempts} of {attempts})')})")
            if until_unmet and not killed_by_abort:
                message += f"; until {step.until!r} had not held after {attempts} attempt(s)"
            if stdout.survived_kill is not None:
                message += "; " + killed_words(stdout.survived_kill)
            if outcome.left_running is not None:  # Ctrl-C before the pid line, or during _await_pid
                message += "; " + outcome.left_running.words()
        facts.update(step_facts)
        if bare:
            self._learn_values(_printed_values(stdout.host_text()))
        self._learn_secrets(step_facts)
        recorded_facts = self._clean(step_facts)
        with self._lock:
            self.record.facts[host].update(recorded_facts)
        artifacts = [
            str(c.spill_path.relative_to(self.store.run_dir)) for c in (stdout, stderr) if c.spill_path and c.spill_path.exists()
        ]
        result = StepRecord(
            id=step.id,
            host=host,
            title=step.title,
            status=status,
            exit_code=outcome.exit_code,
            duration_s=round(max(total_duration, time.monotonic() - step_started), 6),
            stdout=self._clean(_masked_whole(stdout.text("surrogateescape")) if bare else stdout.text("surrogateescape")),
            stderr=self._clean(stderr.text("surrogateescape")),
            truncated=stdout.truncated or stderr.truncated,
            facts=recorded_facts,
            command=self._clean(command),
            attempts=attempts,
            started_at=started_at,
            finished_at=utc_now(),
            message=self._clean(message),
            artifacts=artifacts,
            expectations=self._clean(expectations),
            # StepRecord.capped_artifacts (record.py): which artifacts the artifact limit cut, and
            # the bytes each lacks. Until that field is declared pydantic drops it (`message`
            # says the same in words, _capped_note).
            capped_artifacts=capped_artifacts,
            # Typed, for a script or a later run: what the message says of it in words.
            left_running=None if outcome.left_running is None else self._left_running_record(outcome.left_running),
        )
        return result, findings

    def _left_running_record(self, left_running: LeftRunning) -> StepLeftRunning:
        return StepLeftRunning(host=left_running.host, check=self._clean(left_running.check), waited_s=round(left_running.waited_s, 3))

    def _until_never_held(
        self, step: Step, host: str, attempts: int, outcome: CommandOutcome, stdout: StreamCapture, stderr: StreamCapture,
        context: dict[str, Any], facts: dict[str, Any], step_facts: dict[str, Any], findings: list[Finding],
        until_error: str | None = None, defaulted: dict[str, str] | None = None,
    ) -> tuple[str, str, list[Finding]]:
        """A step whose `until` was still false after its last attempt failed (as Ansible's
        until/retries does): the step's own finding templates say what that means, else SD001.
        An `until` that could not be evaluated on the last attempt says why: "was still false"
        sent the author looking at the host for a typo in a fact name (`facts.redy`)."""
        check_context = {**context, "facts": {**facts, **step_facts}, "exit_code": outcome.exit_code,
                         "stdout": stdout.expression_text(), "stderr": stderr.expression_text()}
        if until_error is not None:
            message = f"until {step.until!r} could not be evaluated after {attempts} attempt(s): {until_error}"
        else:
            # With the last attempt's values, as a failed `that:` says them: how far from
            # ready the server was (facts.tokens_per_s = 12.5) is the first thing to ask.
            assert step.until is not None
            message = f"until {step.until!r} was still false after {attempts} attempt(s)" + values_said(
                step.until, check_context, redact=self.options.redact, defaulted=defaulted)
        evidence = [message, *output_tail(stdout.checked_text("surrogateescape"), stderr.checked_text("surrogateescape"))]
        if step.findings:
            findings = findings + [render_finding(t, host, step, check_context, evidence) for t in step.findings]
        else:
            findings = findings + [runner_finding("SD001", host=host, step=step.id, evidence=evidence,
                                                  title=f"Step {step.id!r}: {message}")]
        return "failed", message, findings

    def _until(
        self, step: Step, evaluation: AttemptResult, context: dict[str, Any], outcome: CommandOutcome, stdout: StreamCapture, stderr: StreamCapture,
    ) -> tuple[bool, str | None]:
        """Whether the step is done, and why its `until` could not be evaluated (else None). An
        expression that fails counts as false, so polling goes on (a capture that matches
        nothing while the server loads is None: `facts.tokens > 0` fails until it does), and
        the last attempt's error is said if it never holds."""
        if step.until is None:
            return evaluation.status == "passed", None
        attempt_context = {**context, "facts": {**context["facts"], **evaluation.facts}, "exit_code": outcome.exit_code, "stdout": stdout.expression_text(), "stderr": stderr.expression_text()}
        try:
            return evaluate_condition(step.until, attempt_context, TemplateSite(step.id, "until")), None
        except TemplateError as exc:
            # "step 'wait', until: facts.redy is not set: ...": the step and site are said already.
            said = exc.message.splitlines()[0].removeprefix(f"step {step.id!r}, until: ")
            return False, said + (f" ({exc.hint})" if exc.hint else "")

    def _fetch(self, step: Step, host: str, transport: Transport, context: dict[str, Any]) -> tuple[StepRecord, list[Finding]]:
        assert step.fetch is not None
        started = time.monotonic()
        started_at = utc_now()
        fetched: list[str] = []
        problems: list[str] = []
        notes: list[str] = []  # what was matched and not copied (folders), the step still passing
        limit = self._artifact_limit(step)
        budget = FetchBudget(limit or None, self.store.artifact_path(_safe_name(host)))
        disk_bound: list[str] = []
        # The step's timeout bounds the whole fetch, listings and copies (fetch_deadline): where
        # it ran out, and the sources or files not reached then.
        timed_out: str | None = None
        not_reached: list[str] = []
        # The sources and files the run's stop kept from being begun, once the step met it (a
        # copy it cut; else a source's listing it refused says so itself: "not listed",
        # _expand_remote_glob).
        stopped_before: list[str] = []
        met_stop = False
        # The listing or copy given up at the deadline, for the reports (report/views.py, not_copied).
        given_up: dict[str, Any] | None = None
        with fetch_deadline(step.timeout) as deadline:
            for index, source in enumerate(step.fetch.sources()):
                if timed_out is not None or deadline is not None and deadline.passed():
                    timed_out = timed_out or "between two files"
                    not_reached.append(source)
                    continue
                if met_stop:
                    stopped_before.append(source)
                    continue
                pattern: str | None = None
                try:
                    pattern = render(source, context, TemplateSite(step.id, f"fetch.src[{index}]"), path=True)
                    dest_dir = render(step.fetch.dest, context, TemplateSite(step.id, "fetch.dest"), path=True)
                    passed_over: list[str] = []
                    remotes = _expand_remote_glob(pattern, transport, GLOB_TIMEOUT_S if deadline is None else deadline.left(), passed_over)
                    # Matched with files, a folder is not copied: said in the step's message, as the
                    # console and the reports show a passed step's (rendered as a problem's is, below).
                    notes += [f"{source}: {pattern + ': ' if pattern != source else ''}{note}" for note in passed_over]
                except TransportError as exc:
                    exc.cut_short = self._fetch_cut_short(started_at, started, fetched)  # type: ignore[attr-defined]
                    raise
                except ListingTimedOut as exc:
                    # The rendered pattern too, as below: `{{ log_dir }}/*.log` alone did not say
                    # which folder (a --var, the inventory's, a fact) the host hung listing.
                    named = source if pattern in (None, source) else f"{source} ({pattern})"
                    if deadline is None:
                        problems.append(f"{named}: {exc}")
                    else:
                        timed_out = f"while listing {named}: {exc}"
                        given_up = {"src": pattern, "while": "listing"}  # rendered: the path the host was asked for
                    continue
                except (SpecDebugError, OSError, ValueError) as exc:
                    # "{{ log_dir }}/*.log: no file on the host matches this pattern" named no
                    # path the host was asked for: log_dir may come from the host's inventory
                    # vars or a fact. The rendered pattern follows, as an OSError's own path does.
                    rendered = f"{pattern}: " if isinstance(exc, ValueError) and pattern not in (None, source) else ""
                    problems.append(f"{source}: {rendered}{getattr(exc, 'message', None) or exc}")
                    continue
                for remote in remotes:
                    if timed_out is not None or deadline is not None and deadline.passed():
                        timed_out = timed_out or "between two files"
                        not_reached.append(remote)
                        continue
                    if self.abort.is_set():
                        # Each copy after the stop was tried, and said "copy of <file> stopped"
                        # of a file never begun.
                        met_stop = True
                        stopped_before.append(remote)
                        continue
                    try:
                        local = safe_artifact_path(self.store.artifact_path(_safe_name(host)), local_name(dest_dir),
                                                   local_name(readable(PurePosixPath(remote).name)))
                        local = unclaimed_path(local, PurePosixPath(remote))
                        # local is resolved; run_dir is as given (--out defaults to the relative "runs").
                        artifact = str(local.relative_to(self.store.run_dir.resolve()))
                        max_bytes = budget.max_bytes()
                        # What stopped a file, for the reports' table of files not copied (report/views.py,
                        # not_copied): the step's limit (raise it) or the controller's free disk (raising will not help).
                        by_disk = budget.by_disk
                        try:
                            transport.get(remote, local, max_bytes)
                        except FetchTooLarge as exc:
                            problems.append(budget.too_large(remote, exc))
                            disk_bound += [remote] if by_disk else []
                            continue
                        except FetchCut as exc:
                            problems.append(budget.was_cut(remote, artifact, exc))
                            disk_bound += [remote] if by_disk else []
                            fetched.append(artifact)
                            continue
                        budget.copied(local)
                        fetched.append(artifact)
                    except TransportError as exc:
                        exc.cut_short = self._fetch_cut_short(started_at, started, fetched)  # type: ignore[attr-defined]
                        raise
                    except InterruptedError:
                        # The stop cut it (local.py; ssh_errors.CopyInterrupted): the transport's
                        # words named the file again, with the host, after the engine's own.
                        met_stop = True
                        problems.append(f"copy of {remote} stopped")
                    except FetchTimedOut as exc:
                        timed_out = f"while copying {exc.what}"
                        given_up = {"src": remote, "while": "copying", "artifact": None, "bytes_kept": 0}
                        # The transport kept what it had copied (fetch_deadline.keep_partial).
                        kept = mark_given_up(local, exc.timeout_s, readable(remote)) if local.exists() else None
                        if kept is not None:
                            given_up.update(artifact=artifact, bytes_kept=kept)
                            timed_out += f" (its first {human_size(kept)} kept in {artifact}, marked where cut)"
                    except (SpecDebugError, OSError, ValueError) as exc:
                        said = str(getattr(exc, "message", None) or exc)
                        if "Is a directory" in said:  # EISDIR's words, locally and from the SSH transport
                            said += f" (fetch copies files: name them, or with a pattern such as {remote.rstrip('/')}/*.log)"
                        problems.append(f"{source if remote == pattern else remote}: {said}")
        problems = [readable(problem) for problem in problems]
        not_reached = [readable(name) for name in not_reached]
        stopped_before = [readable(name) for name in stopped_before]
        timed_out = None if timed_out is None else readable(timed_out)
        status = "timeout" if timed_out is not None else "error" if problems else "passed"
        findings = [runner_finding("SD003", host=host, step=step.id, evidence=problems)] if problems else []
        if timed_out is not None:
            assert step.timeout is not None
            said = timed_out_words(step.timeout, timed_out, not_reached, len(fetched))
            if given_up is not None and given_up.get("artifact"):
                fetched.append(given_up["artifact"])  # after the count: the words say it is cut
            problems.insert(0, said)
            findings.insert(0, runner_finding("SD002", host=host, step=step.id, evidence=[said]))
        if stopped_before:
            # Only with the run stopped, so said after its "interrupted: <why>" (below).
            status = "error" if status == "passed" else status
            problems.append(not_reached_words(stopped_before))
        message = "; ".join(problems + [readable(note) for note in notes]) or None
        if self.abort.is_set() and status != "passed":
            # A copy stopped by the interrupt says nothing about the host (as a `run:` step's
            # kill, _run_step): it was an SD003 warning, a finding for what the user did.
            status, findings = "error", []
            message = interrupted_words(self.record.abort_reason) + (f"; {message}" if message else "")
        result = StepRecord(
            id=step.id, host=host, title=step.title, status=status, duration_s=round(time.monotonic() - started, 6),
            started_at=started_at, finished_at=utc_now(), message=self._clean(message), artifacts=fetched,
            facts=self._clean(readable_values({
                "fetched": fetched, **budget.facts(), "fetch_limit": limit or None, "fetch_disk_bound": disk_bound,
                "fetch_timed_out": timed_out is not None, "fetch_not_reached": not_reached + stopped_before,
                "fetch_given_up": given_up, "fetch_timeout": step.timeout})),
        )
        return result, findings

    def _fetch_cut_short(self, started_at: str, started: float, fetched: list[str]) -> dict[str, Any]:
        """The fields of a fetch step's record that say how far it got when the connection broke
        (an sshd killed, a reboot, a network cut): _run_step records them with the error. The
        files copied whole until then lay in artifacts/ while the record listed none, and the
        step started at the break, 0 s long: the reports did not link the logs fetched before
        the host went down, which say why it did. The file cut by the break is not kept
        (ssh_sftp removes it), so it is not listed."""
        return {"started_at": started_at, "duration_s": round(time.monotonic() - started, 6), "artifacts": list(fetched)}

    # ---------------------------------------------------------------- finish

    def _finish(self) -> None:
        record = self.record
        record.finished_at = utc_now()
        # A stop that came as the last steps ended on their own (Ctrl-C, a CI job's SIGTERM, a
        # closed terminal's SIGHUP) cut nothing: every host ran each of its steps to its end
        # (_run_host) and they were judged. "aborted" (exit 3) hid their verdict, a failed check
        # included; the run ends as its hosts did, abort_reason saying the stop came.
        if self.abort.is_set() and (not record.hosts or any(h.status in ("pending", "running", "aborted")
                                                            for h in record.hosts)):
            record.status = "aborted"
            for host in record.hosts:
                if host.status in ("pending", "running"):
                    host.status = "aborted"
        elif any(h.status == "error" for h in record.hosts):
            record.status = "error"
        elif any(f.severity == "error" for f in record.findings):
            record.status = "failed"
        else:
            record.status = "passed"
        try:
            self.save(force=True)
        except RecordWriteError as exc:
            if not exc.out_of_space:
                raise
            self._save_cut(exc, aborted=False)
        self.options.reporter.run_finished(record)

    def _clean_findings(self, findings: list[Finding]) -> list[Finding]:
        """Every text of a finding masked, not only its evidence: a failed expectation's title
        quotes the needle and the output it saw (`expected output contains 'HF_TOKEN=hf_...'`)."""
        if not self.options.redact:
            return findings
        # Not code, severity, host or step: a short secret value ("info", "SD00") would mask
        # part of them and the finding would no longer be one.
        texts = ("title", "evidence", "remediation", "references", "facts")
        return [f.model_copy(update={k: self._clean(getattr(f, k)) for k in texts}) for f in findings]

    def _learn_secrets(self, step_facts: dict[str, Any]) -> None:
        """A fact captured under a secret's name (`(?P<session_token>...)`) is masked as its
        value in every text recorded from here on, as a `--var` named so is: run.json's facts
        said ***REDACTED*** while the next step's command (`curl -H "X-Auth: {{
        facts.session_token }}"`), the step's own output and both reports showed the value."""
        if not self.options.redact or not step_facts:
            return
        self._learn_values(secret_values(step_facts))

    def _learn_values(self, values: tuple[str, ...]) -> None:
        """Each of ``values`` is masked in every text recorded from here on (_learn_secrets)."""
        new = [value for value in values if value not in self._secrets]
        if not new:
            return
        forms = {*new, *(f for v in new for f in forms_in_command(v)), *(f for v in new for f in forms_in_check(v))}
        with self._lock:
            self._secrets = tuple(sorted({*self._secrets, *forms}, key=len, reverse=True))
            add_known_secret_values(self._secrets)

    def _clean(self, value: Any) -> Any:
        if not self.options.redact:
            return value
        # The values first: a pattern masks `HF_TOKEN=it` of `HF_TOKEN=it's-hunter2` (its value
        # ends at the `'`), and the value was then no longer there to find: `'s-hunter2` stayed.
        return redact_with_values(value, self._secrets)


def _masked_whole(text: str) -> str:
    """A bare secret's output (prints_secret_value) masked line by line: the record's truncation
    markers stay, they are spec-debug's words."""
    if "bytes truncated; " not in text:
        return mask_lines(text)
    parts, last = [], 0
    for marker in TRUNCATION_MARKER.finditer(text):
        parts += [mask_lines(text[last:marker.start()]), marker.group()]
        last = marker.end()
    return "".join(parts) + mask_lines(text[last:])


_NOT_A_SECRET = {"null", "none", "true", "false", "<nil>", "n/a", "<sensitive>"}


def _printed_values(text: str) -> tuple[str, ...]:
    """The values a bare secret's output printed, to be masked where else they show (a finding
    or an expectation that quotes the output, a fact captured from it under any name, a later
    step's command): its lines, 4 characters or more (as secret_values keeps a --var's), not an
    empty answer (`null` of a missing field, which masked would hide every other null of the
    run); the first 64 only."""
    lines = (line.strip() for line in text.splitlines()[:64])
    return tuple(line for line in lines if 4 <= len(line) <= 4096 and line.lower() not in _NOT_A_SECRET)


def _step_view(result: StepRecord, step: Step) -> dict[str, Any]:
    """A finished step as later templates see it: as recorded (secrets masked), its output
    without the record's truncation marker (StreamCapture.host_text). `captures`: the fact
    names its capture: list sets whether or not it ran, None for a probe or fetch step (whose
    facts are known only once it ran), so an unset fact names the step meant to set it."""
    return {
        "status": result.status, "exit_code": result.exit_code,
        "stdout": without_markers(result.stdout), "stderr": without_markers(result.stderr),
        "message": result.message, "facts": result.facts, "attempts": result.attempts, "duration_s": result.duration_s,
        "captures": None if step.probe is not None or step.fetch is not None else captured_names(step),
    }


def _says_stopped(step_facts: dict[str, Any]) -> bool:
    """Whether a probe's facts say it was stopped before its end: a `stopped` line at the top
    or in one of its namespaces (drafter_eval: eval.stopped)."""
    return bool(step_facts.get("stopped")) or any(
        isinstance(value, dict) and bool(value.get("stopped")) for value in step_facts.values()
    )


def answered_stop(result: StepRecord) -> bool:
    """Whether a probe answered the run's stop with what it had so far: it passed and its facts
    say it was stopped (only a stop or a timeout's SIGTERM makes a probe say so, and a timeout
    is not a pass)."""
    return result.status == "passed" and isinstance(result.facts, dict) and _says_stopped(result.facts)


def cut_by_stop(result: StepRecord) -> bool:
    """Whether the run's stop cut this step (its message is interrupted_words')."""
    return result.status == "error" and (result.message or "").startswith("interrupted: ")


def interrupted_words(abort_reason: str | None) -> str:
    """A step's message when the interrupt killed it: "interrupted: <why>". Ctrl-C's abort
    reason is itself "interrupted (Ctrl-C)" (the words a host's error and the report show), so
    the plain prefix read "interrupted: interrupted (Ctrl-C)"; its word is given once here.
    The prefix stays: stepthrough and readers of run.json tell a killed step by it."""
    reason = abort_reason or "run aborted"
    if reason.startswith("interrupted (") and reason.endswith(")"):
        reason = reason[len("interrupted ("):-1]
    return "interrupted: " + reason


_QUEUED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _signals_queued() -> Iterator[list[BaseException]]:
    """While the body runs, SIGINT, SIGTERM and SIGHUP append to the list the exception their
    handler would have raised (KeyboardInterrupt, or cli.py's SignalInterrupt with its reason)
    instead of raising it: the body acts on them where it chooses. A handler that returns
    without raising runs as before. Ignored and default dispositions are left alone (SIG_DFL
    on SIGTERM still ends the process). Handlers can only be set from the main thread;
    elsewhere (a library caller's worker) no signal reaches the body anyway."""
    queued: list[BaseException] = []
    if threading.current_thread() is not threading.main_thread():
        yield queued
        return
    previous: dict[int, Callable[..., Any]] = {}

    def queue(signum: int, frame: Any) -> None:
        try:
            previous[signum](signum, frame)
        except BaseException as exc:  # what it raises is the stop being asked for
            queued.append(exc)

    try:
        for signum in _QUEUED_SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler):
                previous[signum] = handler
                signal.signal(signum, queue)
        yield queued
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


GLOB_TIMEOUT_S = 60.0
"""How long listing a fetch pattern's files may take, unless the step sets `timeout:`."""

MAX_GLOB_FILES = 200
"""Files one fetch pattern may name: `/var/log/*` on a busy host is thousands."""
_PATH_MAX = 4096  # bytes of one Linux path at most (torvalds/linux include/uapi/linux/limits.h)

_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")
"""A number the CLI kept as text for its trailing zeros (cli._scalar)."""
_GLOB_CHARS = re.compile(r"[*?\[]")
# A bracket expression kept for the shell only when it holds nothing a quote would change.
_BRACKET_EXPRESSION = re.compile(r"\[!?\]?[A-Za-z0-9_.,:^-]*\]")


def remote_glob_command(pattern: str) -> str:
    """A POSIX sh command printing, NUL-separated, the regular files that pattern names on the
    host. `*`, `?` and `[...]` are the shell's; every other character is quoted (a path with a
    space or a `$` stays text); a leading `~/` is the login's home. scp(1) reads a remote glob
    the same way: the remote shell expands it.

    What it names that is no regular file follows an empty name, after a letter (d a
    folder, l a symbolic link to no file, o anything else): a pattern that matched files and folders copied the files and dropped
    the folders without a word, where scp(1) says "not a regular file" of each. Only the names
    that are no file take the extra tests."""
    return (f'for f in {_glob_words(pattern)}; do if [ -f "$f" ]; then printf \'%s\\0\' "$f"; continue; fi; if [ -d "$f" ]; then t=d; '
            'elif [ -L "$f" ]; then t=l; elif [ -e "$f" ]; then t=o; else continue; fi; printf \'\\0%s%s\\0\' "$t" "$f"; done; exit 0')


def _split_listing(names: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """remote_glob_command's names: (the regular files, (letter, name) of each that is none)."""
    files: list[str] = []
    others: list[tuple[str, str]] = []
    at = 0
    while at < len(names):
        name = names[at]
        if name:
            files.append(name)
        elif at + 1 < len(names) and len(names[at + 1]) > 1 and names[at + 1][0] in _NOT_FILE_KINDS:
            others.append((names[at + 1][0], names[at + 1][1:]))
            at += 1
        at += 1
    return files, others


def _glob_words(pattern: str) -> str:
    """pattern as the words of a POSIX sh `for` list (remote_glob_command)."""
    words: list[str] = []
    literal = ""
    at = 0
    if pattern.startswith("~/"):
        words.append("~/")
        at = 2
    while at < len(pattern):
        bracket = _BRACKET_EXPRESSION.match(pattern, at) if pattern[at] == "[" else None
        if pattern[at] in "*?" or bracket is not None:
            if literal:
                words.append(shell_quote(literal))
                literal = ""
            words.append(bracket.group(0) if bracket is not None else pattern[at])
            at = bracket.end() if bracket is not None else at + 1
        else:
            literal += pattern[at]
            at += 1
    if literal:
        words.append(shell_quote(literal))
    return "".join(words)


def _expand_remote_glob(pattern: str, transport: Transport, timeout_s: float, passed_over: list[str] | None = None) -> list[str]:
    """The files a fetch pattern names on the host: pattern itself when it has no `*?[`
    (a missing file then fails its copy, with the host's own words). What else it matched
    (folders, links to no file), when there were files to copy, goes into passed_over as words
    to show: `<pattern>: not copied: /data/run-3 (a folder); ...`."""
    if not _GLOB_CHARS.search(pattern):
        return [pattern]
    # Room for MAX_GLOB_FILES names of PATH_MAX bytes and one more: a listing cut at the capture
    # limit (256 KiB: 2,600 names of 100 bytes) was counted from its head and tail only.
    stdout = _Listing("stdout", limit_bytes=(MAX_GLOB_FILES + 1) * _PATH_MAX * 2)
    stderr = StreamCapture("stderr")
    try:
        outcome = transport.run(remote_glob_command(pattern), stdout=stdout, stderr=stderr, timeout_s=timeout_s)
    finally:
        stdout.close()
        stderr.close()
    if outcome.timed_out:
        # A folder on a dead NFS server or FUSE mount: the shell's readdir waits in the kernel.
        # The few names it printed are no listing: "no file matches" sent people to the path.
        # timeout_s is what was left of the step's timeout: 0.9987 is said as 1.
        raise ListingTimedOut(f"listing the files this pattern names took over {round(timeout_s, 1):g} s (a hung NFS or FUSE mount?); "
                              f"nothing was copied ({killed_words(stdout.survived_kill)})")
    if outcome.exit_code is None:
        # No status and no timeout: the transport did not run the listing, the run being
        # stopped (local.py and ssh.py refuse a command once interrupted). "no file on the host
        # matches this pattern" said the files were not there.
        raise ValueError("not listed: the run was interrupted")
    names, others = _split_listing(stdout.names())
    if stdout.truncated:
        names = [name for name in names if "bytes truncated; " not in name]
        raise ValueError(f"more than {len(names)} files match this pattern (at most {MAX_GLOB_FILES}): name fewer")
    if not names:
        if others:
            raise ValueError(f"no file on the host matches this pattern, only what fetch does not copy: {_not_files_words(others, False)}")
        raise ValueError("no file on the host matches this pattern")
    if len(names) > MAX_GLOB_FILES:
        raise ValueError(f"{len(names)} files match this pattern (at most {MAX_GLOB_FILES}): name fewer")
    if others and passed_over is not None:
        passed_over.append(f"not copied: {_not_files_words(others, False)}")
    return names


# What a fetch pattern matched that fetch does not copy (remote_glob_command's letters).
_NOT_FILE_KINDS = {"d": "a folder", "l": "a symbolic link to no file", "o": "not a regular file"}
_NOT_FILES_SHOWN = 3


def _not_files_words(found: list[tuple[str, str]], truncated: bool) -> str:
    """`/data/run-3 (a folder); fetch copies regular files: ...`: what a pattern matched that is no file.

    The listing copies regular files only (a log, a config; `[ -f ]` follows a link to one).
    `src: /var/log/sglang*` where sglang is a folder of logs, or `*.log` matching only links into
    a purged scratch disk, said "no file on the host matches this pattern" while `ls` there
    listed them: the user looked for a typo in the path. scp(1) says as much per name ("not a
    regular file")."""
    shown = ", ".join(f"{name} ({_NOT_FILE_KINDS[kind]})" for kind, name in found[:_NOT_FILES_SHOWN])
    left = len(found) - _NOT_FILES_SHOWN
    more = " and more" if truncated else f" and {left} more" if left > 0 else ""
    folder = next((name for kind, name in found if kind == "d"), None)
    fix = f": for those in a folder, write a pattern such as {folder.rstrip('/')}/*.log" if folder is not None else ""
    return f"{shown}{more}; fetch copies regular files{fix}"


class _Listing(StreamCapture):
    """A remote glob's NUL-separated names, each as the host's bytes: a file name is bytes on
    Linux, and one written by a latin-1 or Shift-JIS tool (`gen_\xe9t\xe9.log`) is no UTF-8.
    Decoded with U+FFFD for those bytes, the name was a file the host does not have ("No such
    file"); surrogateescape keeps them (PEP 383) and the copy sends them back as they came."""

    def names(self) -> list[str]:
        if self.truncated:
            return self.text().split("\0")  # counted only: "more than N files match"
        return (bytes(self._head) + bytes(self._tail)).decode("utf-8", "surrogateescape").split("\0")


_UNDECODABLE = re.compile("[\udc80-\udcff]")


def readable(text: str) -> str:
    """text with each byte of a host's file name that is not UTF-8 (a surrogateescape, see
    _Listing) as %XX: the record is UTF-8 JSON and the terminal prints UTF-8, which a lone
    surrogate is not (UnicodeEncodeError)."""
    return _UNDECODABLE.sub(lambda byte: f"%{ord(byte.group()) - 0xDC00:02X}", text)


def readable_values(value: Any) -> Any:
    """readable() over every text of a record's facts (lists and mappings of them)."""
    if isinstance(value, str):
        return readable(value)
    if isinstance(value, list):
        return [readable_values(item) for item in value]
    if isinstance(value, dict):
        return {key: readable_values(item) for key, item in value.items()}
    return value


def _write_failure(error: RecordWriteError) -> str:
    """Why a record write failed, as the OS said it ("No space left on device")."""
    return _without_kept(error.message).rsplit(": ", 1)[-1]


def _without_kept(message: str) -> str:
    """A failed record write's first line, without "(the previous version is kept)": a later
    write may well replace that version."""
    return message.splitlines()[0].removesuffix(" (the previous version is kept)")


def _remove_spill(capture: StreamCapture) -> None:
    if capture.spill_path is not None:
        try:
            capture.spill_path.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only or vanished artifacts folder: nothing to free


def _safe_name(name: str) -> str:
    """A host's name as its artifacts folder is named: ASCII, within NAME_MAX (an inventory
    alias of 300 characters ended its host with "internal error: OSError: File name too long").
    A name the cleaning changed ends with ~ and a hash of the whole name: gpü01 and gpö01 (or
    gpu 01 and gpu_01) both became gp_01, and the second host's artifacts of a step replaced the
    first's, which run.json still named as its own. A plain name is kept as it is."""
    cleaned = re.sub(r"[^A-Za-z0-9_.@-]", "_", name)
    if cleaned != name or cleaned in ("", ".", ".."):
        cleaned += "~" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return _fitted(cleaned)


def local_name(name: str) -> str:
    """name, with each character the controller's file-system encoding cannot hold written as
    %XX of its UTF-8 bytes (readable()'s spelling for a host's undecodable bytes). Under
    LC_ALL=C with PYTHONUTF8=0 (a cron job's or a bare CI runner's environment) that encoding
    is ASCII: a host's log named résumé-中.log was fetched over SFTP (paths are UTF-8 on the
    wire) and then failed as SD003 "'ascii' codec can't encode character" when written; the
    record must name a file every reader can open in the same locale."""
    encoding = sys.getfilesystemencoding()
    try:
        name.encode(encoding)
        return name
    except UnicodeEncodeError:
        return "/".join(_spelled(part, encoding) for part in name.split("/"))


# The longest file name Linux's file systems hold, in bytes (NAME_MAX, linux/limits.h).
_NAME_MAX = 255


def _spelled(part: str, encoding: str) -> str:
    """One component of local_name, cut to fit NAME_MAX: %XX makes each non-ASCII byte three,
    so a host's name of 29 CJK characters and .log (91 bytes, which a UTF-8 host holds at ease)
    became 265 and its write failed as "File name too long"."""
    pieces = [char if _encodes(char, encoding) else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
              for char in part]
    return _cut(part, pieces, encoding)


def _cut(part: str, pieces: list[str], encoding: str) -> str:
    """pieces (part's characters, each as it is spelled) joined, or when that runs past NAME_MAX
    the whole pieces of its start, a hash of the whole name so two long names that share a start
    stay two, and its extension."""
    spelled = "".join(pieces)
    if len(spelled.encode(encoding)) <= _NAME_MAX:
        return spelled
    dot = max((at for at, piece in enumerate(pieces) if piece == "."), default=-1)
    extension = "".join(pieces[dot:]) if dot > 0 else ""
    if len(extension) > 16:  # no extension, a dot inside a long name
        extension = ""
    kept = f"~{hashlib.sha256(part.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}{extension}"
    room = _NAME_MAX - len(kept.encode(encoding))
    start: list[str] = []
    for piece in pieces[: dot if extension else len(pieces)]:
        room -= len(piece.encode(encoding))
        if room < 0:
            break
        start.append(piece)
    return "".join(start) + kept


def _encodes(char: str, encoding: str) -> bool:
    try:
        char.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def safe_artifact_path(base: Path, dest: str, remote_name: str) -> Path:
    """A local path under base for a fetched file; remote names can never escape it."""
    if remote_name in ("", ".", "..") or "/" in remote_name or "\\" in remote_name or "\x00" in remote_name:
        raise ValueError(f"refusing remote file name {remote_name!r}")
    target = (base / dest / remote_name).resolve()
    base_resolved = base.resolve()
    if base_resolved != target and base_resolved not in target.parents:
        raise ValueError(f"refusing path outside the artifacts folder: {dest}/{remote_name}")
    return target


def unclaimed_path(local: Path, remote: PurePosixPath) -> Path:
    """local, or a free name beside it when an earlier fetch of this run took it: the target's
    and the draft's config.json share a name, and the second copy replaced the first under
    the record of the step that fetched it. The remote folder's name goes first
    (draft-config.json), then a counter. Each is cut to NAME_MAX: a log of 200 bytes fetched
    from two run folders of 100 (a host holds each at ease) made a 301-byte name, and the
    second copy failed as SD003 "File name too long"."""
    if not local.exists():
        return local
    if remote.parent.name:
        candidate = local.with_name(_fitted(f"{local_name(readable(remote.parent.name))}-{local.name}"))
        if not candidate.exists():
            return candidate
    counter = 2
    while True:
        candidate = local.with_name(_fitted(f"{local.stem}-{counter}{local.suffix}"))
        if not candidate.exists():
            return candidate
        counter += 1


def _fitted(name: str) -> str:
    """name (already in the file-system encoding's spelling), cut to NAME_MAX as _spelled cuts.
    A character local_name spelled %XX (ASCII under LC_ALL=C) is one piece: cut one byte at a
    time, "%E4%B8%AD" lost its tail and the kept start ended "%E4%B8%A~hash.log", a name whose
    %XX no longer reads back as the host's."""
    return _cut(name, _SPELLED_CHAR.findall(name), sys.getfilesystemencoding())


# One character as local_name spells it: the %XX of a UTF-8 lead byte and its continuation
# bytes (RFC 3629 section 3), or any one character.
_SPELLED_CHAR = re.compile(r"%[C-F][0-9A-F](?:%[89AB][0-9A-F]){1,3}|.", re.DOTALL)


def run_playbook(
    loaded: LoadedPlaybook,
    targets: list[HostTarget],
    store: RunStore,
    cli_vars: dict[str, Any] | None = None,
    options: RunOptions | None = None,
) -> RunRecord:
    return Run(loaded, targets, store, cli_vars, options).execute()
