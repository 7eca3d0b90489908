"""Live progress for `spec-debug run`, on stderr (stdout stays clean for --json).

Progress is a view: when stderr goes away mid-run (the SSH session or terminal closed, so
writes fail with EIO; `2>&1 | head` exited, so EPIPE) the display stops and the run goes on,
recording to the end. A failed write used to end a host as an internal error, or leave the
record "running" with nothing run and exit 1 as if there were findings.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from spec_debug.cli_common import shown_text
from spec_debug.counted import counted
from spec_debug.playbook.models import Step
from spec_debug.record import Finding, HostRecord, RunRecord, StepRecord
from spec_debug.report.terminal import screen_text
from spec_debug.runner.engine import NOT_STARTED
from spec_debug.runner.reporter import Reporter

if TYPE_CHECKING:
    from spec_debug.stepthrough import TerminalGate

_STATUS_STYLE = {"passed": "green", "failed": "red", "error": "red", "timeout": "red", "skipped": "blue"}
_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "blue"}


def _shown(text: str) -> str:
    """Text a host printed (output lines, messages and titles that quote it), as the report
    shows it: its escape sequences never reach this terminal (OSC 52 writes the clipboard, an
    OSC left open swallows the lines after it; rich passes ESC through), and a tqdm line is its
    last redraw, not every bar glued together."""
    return escape(screen_text(text))


NOTE_LIMIT = 300
"""Characters of a step's message on its progress line, as a finding's title (runner_findings.TITLE_LIMIT)."""

_HINT_LINE = "\n  hint: "
"""How a step's message carries its hint (attempt.py): the hint is the line under it."""


def _step_note(message: str) -> str:
    """A step's message as its progress line shows it: one line (the hint on the line under it)
    of at most NOTE_LIMIT characters. A failed `contains:` of a pasted log line, or a `that:`
    comparing with a long text, printed the whole text on the step's line (3,000 characters,
    the lines after it pushed off the screen), and a message quoting a host's multi-line
    error broke the step's line in two. run.json and the reports keep the whole message."""
    said, _, hint = message.partition(_HINT_LINE)
    note = _one_line(said)
    return note if not hint else f"{note}\n  hint: {_one_line(hint)}"


def _one_line(text: str, limit: int | None = NOTE_LIMIT) -> str:
    """The text's lines joined into one, cut at ``limit`` characters (None: a finding's title,
    cut where it is made)."""
    line = " ".join(part.strip() for part in screen_text(text).splitlines() if part.strip())
    if limit is not None and len(line) > limit:
        line = f"{line[:limit]}… ({len(line) - limit:,} characters more in run.json and the report)"
    return escape(line)


_NAMED_ABORTED = 8
"""Hosts stopped before their first step named one by one; the rest are counted."""

_OUTPUT_BACKLOG = 5000
"""--show-output lines of one host waiting to be printed, at most: past it a step's later lines are not
shown as they come; when it ends, "… N more lines not shown" and its last _OUTPUT_TAIL lines
(a traceback, a benchmark's summary) are. The lines are printed by a thread of their own:
printed by the thread that reads the step's output (rich takes ~0.1 ms a line), a step writing
50 MB took 20 s instead of 1.5 (its output pipe and SSH window full, the command waiting on its
writes: a benchmark measured slower, a timeout hit), and a terminal paused with Ctrl-S stopped
the command itself."""
_OUTPUT_BACKLOG_CHARS = 4 * 1024 * 1024
"""And at most this much text of one host waiting: a line is up to --capture-limit long (256 KiB),
and 5000 of them held a GB."""
_OUTPUT_BACKLOG_HOSTS = 8
"""The backlogs are each host's: one host flooding its log (a server at debug level) filled a
backlog of the run's, and every other host's lines from then on were counted, not shown (the last
20 of each step at its end). All hosts' waiting lines together stay within this many backlogs."""
_OUTPUT_TAIL = 20


class ConsoleReporter(Reporter):
    def __init__(self, console: Console, *, show_output: bool = False, spinner: bool = True,
                 gate: "TerminalGate | None" = None) -> None:
        self.console = console
        # `--step`: the step-through's "→ step ..." line and its findings are the account of a
        # step the user ran; step_finished's line under them said it again ("passed launch_flags"
        # right after "its checks found a problem", each finding twice)
        self.gate = gate
        self.wants_output_lines = show_output
        self._lock = threading.Lock()
        self._status = None
        self._started = time.monotonic()
        self._multi_host = False
        self._spinner = spinner
        self._gone = False
        self._hosts_with_steps: set[str] = set()
        self._aborted_unstarted = 0
        self._record: RunRecord | None = None
        self._lines: deque[tuple[str, str, str, str]] = deque()
        self._waiting_chars = 0
        self._waiting_by_host: dict[str, list[int]] = {}  # host -> [its lines waiting, their chars]
        self._lines_waiting = threading.Condition()
        # (host, step id) past the backlog -> [lines not kept, its last lines]
        self._overflow: dict[tuple[str, str], tuple[list[int], deque[tuple[str, str, str, str]]]] = {}
        self._printer: threading.Thread | None = None
        self._print_lines_lock = threading.Lock()  # one writer of output lines at a time, in order

    def _print(self, *args: object, **kwargs: object) -> None:
        if self._gone:
            return
        # A byte that is no UTF-8 (a host alias typed in a Latin-1 shell, a path in a message)
        # as run.json and stderr's errors show it, `\xe9`: written as it was, the stream's
        # backslashreplace printed `h\udce9`, a form nothing else of the run uses.
        args = tuple(shown_text(a) if isinstance(a, str) else a for a in args)
        try:
            self.console.print(*args, **kwargs)  # type: ignore[arg-type]
        except (OSError, ValueError):  # ValueError: the stream was closed
            self._lost_output()

    def _lost_output(self) -> None:
        self._gone = True
        status, self._status = self._status, None
        if status is not None:
            try:
                status.stop()
            except (OSError, ValueError):
                pass

    def run_started(self, record: RunRecord) -> None:
        self._record = record
        self._multi_host = len(record.hosts) > 1
        self._print(
            f"[bold]spec-debug[/] running [cyan]{escape(record.playbook.name)}[/] on "
            f"{counted(len(record.hosts), 'host')} → {escape(record.run_id)}",
            soft_wrap=True,  # the run id is pasted into `spec-debug report ID`: never folded inside it
        )
        if self.console.is_terminal and self._spinner and not self._gone:
            self._status = self.console.status("starting…")
            try:
                self._status.start()
            except (OSError, ValueError):
                self._lost_output()

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The spinner stopped while something else owns the terminal (a key's passphrase
        prompt: rich redraws its line over the prompt, so the run looked stuck)."""
        with self._lock:
            status = self._status
            if status is not None:
                try:
                    status.stop()
                except (OSError, ValueError):
                    self._lost_output()
                    status = None
        try:
            yield
        finally:
            if status is not None and self._status is status and not self._gone:
                try:
                    status.start()
                except (OSError, ValueError):
                    self._lost_output()

    def _prefix(self, host: str) -> str:
        return f"[magenta]{escape(host)}[/] " if self._multi_host or host != "local" else ""

    def step_started(self, host: str, step: Step, command: str | None) -> None:
        status = self._status
        if status is not None:
            try:
                status.update(shown_text(f"{escape(host)}: {escape(step.id)} — {escape(step.title or '')}"))
            except (OSError, ValueError):
                self._lost_output()

    def output_line(self, host: str, step_id: str, stream: str, line: str) -> None:
        """Queued for the printer thread: never waits on the terminal (_OUTPUT_BACKLOG)."""
        with self._lines_waiting:
            waiting = self._waiting_by_host.get(host)
            if waiting is None:
                waiting = self._waiting_by_host[host] = [0, 0]
            if ((host, step_id) in self._overflow or waiting[0] >= _OUTPUT_BACKLOG or waiting[1] >= _OUTPUT_BACKLOG_CHARS
                    or len(self._lines) >= _OUTPUT_BACKLOG * _OUTPUT_BACKLOG_HOSTS
                    or self._waiting_chars >= _OUTPUT_BACKLOG_CHARS * _OUTPUT_BACKLOG_HOSTS):
                # From here on to its end the step's lines wait in its tail: shown after the lines
                # before them, never between them.
                dropped, tail = self._overflow.setdefault((host, step_id), ([0], deque(maxlen=_OUTPUT_TAIL)))
                dropped[0] += len(tail) == _OUTPUT_TAIL
                tail.append((host, step_id, stream, line))
                return
            self._lines.append((host, step_id, stream, line))
            self._waiting_chars += len(line)
            waiting[0] += 1
            waiting[1] += len(line)
            if self._printer is None:
                self._printer = threading.Thread(target=self._print_lines, name="spec-debug-output", daemon=True)
                self._printer.start()
            self._lines_waiting.notify()

    def _print_lines(self) -> None:
        while True:
            with self._lines_waiting:
                while not self._lines:
                    self._lines_waiting.wait()
            with self._print_lines_lock:
                self._print_waiting()

    def _print_waiting(self) -> None:
        """The waiting output lines, in order (the caller holds _print_lines_lock)."""
        while True:
            with self._lines_waiting:
                if not self._lines:
                    return
                waiting = self._lines.popleft()
                self._waiting_chars -= len(waiting[3])
                of_host = self._waiting_by_host[waiting[0]]
                of_host[0] -= 1
                of_host[1] -= len(waiting[3])
            self._print_line(*waiting)

    def _flush_lines(self, finished: tuple[str, str] | None = None) -> None:
        """Print the waiting output lines in order; then, for the step that finished (host, step
        id), or for every step when the run ends (None), how many lines were not shown and its last lines."""
        with self._print_lines_lock:
            self._print_waiting()
            with self._lines_waiting:
                if finished is None:
                    overflowed, self._overflow = list(self._overflow.items()), {}
                else:
                    overflowed = [(finished, self._overflow.pop(finished))] if finished in self._overflow else []
            for (host, step_id), (dropped, tail) in overflowed:
                if dropped[0]:
                    self._print(f"{self._prefix(host)}[dim]{escape(step_id)}| … {counted(dropped[0], 'more line')} not shown "
                                f"(written faster than this terminal shows them); the run record keeps them[/]",
                                highlight=False, soft_wrap=True)
                for kept in tail:
                    self._print_line(*kept)

    def _print_line(self, host: str, step_id: str, stream: str, line: str) -> None:
        style = "dim" if stream == "stdout" else "dim red"
        # Not folded (soft_wrap), as the step lines: off a terminal (a CI log, `2>run.log`) rich
        # folded a line at 80 columns, and moved a long word (a path, a JSON line) whole below
        # the `step|` prefix, so a grep for the host's line found it cut in two or three.
        self._print(f"{self._prefix(host)}[{style}]{escape(step_id)}| {_shown(line)}[/]", highlight=False, soft_wrap=True)

    def output_ended(self, host: str, step: Step) -> None:
        if self.wants_output_lines:
            self._flush_lines((host, step.id))

    def step_finished(self, host: str, step: Step, result: StepRecord, findings: list[Finding]) -> None:
        self.output_ended(host, step)  # its output before its status line
        with self._lock:
            self._hosts_with_steps.add(host)
            if self.gate is not None and self.gate.told(host, step.id):
                return
            style = _STATUS_STYLE.get(result.status, "white")
            message = result.message or ""
            if self.gate is not None and result.status == "skipped" and message.startswith(("skipped: ", "not run: ")) \
                    and not findings:
                # A step skipped by requires:, when:, an empty command or an earlier step's
                # on_failure: stop, at --step: in the step-through's "→" words, as the steps around
                # it ("→ first passed: ..."), not a bare progress line ("skipped needs_x provide
                # --var x=...") between them.
                self.gate.said_skipped(host, step, _step_note(message.removeprefix("skipped: ").removeprefix("not run: ")))
                return
            if result.status == "skipped" and message.startswith("skipped: "):
                # the status column already says it: "skipped gpu_busy skipped: when ..." (the
                # record's message keeps the word for the reports, where it stands alone)
                message = message[len("skipped: "):]
            note = f" [dim]{_step_note(message)}[/]" if message else ""  # a passed step's says what it left behind
            # Not folded (soft_wrap), as the host error lines: off a terminal rich folds at 80
            # columns, inside the path or expression a note quotes ("cannot write \n/srv/...").
            self._print(
                f"{self._prefix(host)}[{style}]{result.status:>7}[/] {escape(step.id)}"
                + (f" [dim]({result.duration_s:.2f} s)[/]" if result.status != "skipped" else "") + note,
                highlight=False, soft_wrap=True,
            )
            for finding in findings:
                self._print(
                    f"{self._prefix(host)}        [{_SEVERITY_STYLE[finding.severity]}]{finding.code}[/] {_one_line(finding.title, None)}",
                    highlight=False, soft_wrap=True,
                )

    def host_finished(self, host: HostRecord) -> None:
        # Under the lock, as step_finished: hosts finish in their own threads, and a fleet whose
        # hosts time out together (a hung bastion) printed its error lines one after the other,
        # then their hints, each hint no longer under the host it fixes.
        with self._lock:
            self._host_finished(host)

    def _host_finished(self, host: HostRecord) -> None:
        if host.status == "error":
            # Not folded: a hint holds a command to paste (ssh-keygen -R HOST, a path to a key).
            self._print(f"[bold red]host {escape(host.name)} error:[/] {_shown(host.error or '')}", soft_wrap=True)
            if host.hint:
                self._print(f"  hint: {_shown(host.hint)}", soft_wrap=True)
        elif host.status == "aborted" and host.error and not self._had_steps(host.name):
            # Stopped while connecting (Ctrl-C, SIGTERM at a stalled sshd): no step line names
            # the host, and the run ended on a bare "ABORTED: 0 error(s)".
            # A fleet stopped at once (200 hosts, 16 at a time) names a few, then counts.
            # Not folded, as the error line above: in a CI log "step-through" then "prompt" on a
            # line of its own, and a grep for the host's line found half of it.
            self._aborted_unstarted += 1
            if self._aborted_unstarted <= _NAMED_ABORTED:
                reason = host.error.removesuffix(f"; {NOT_STARTED}")
                if host.started_at is None and reason != host.error:
                    # Queued behind --forks: run.json's error says why and that it never began
                    # ("<reason>; not started: the run was stopped before this host's turn"), and
                    # "aborted before its first step: <that>" said it a third time.
                    self._print(f"[yellow]host {escape(host.name)} not started:[/] {_shown(reason)} before its turn", soft_wrap=True)
                else:
                    self._print(f"[yellow]host {escape(host.name)} aborted before its first step:[/] {_shown(host.error)}", soft_wrap=True)
        elif host.status == "aborted" and host.error and not self._step_said_stop(host.name):
            # Stopped between two steps (Ctrl-C at a later host's --step prompt): it had run a
            # step, so was not "before its first", and no step line said it was stopped; the
            # run ended on "ABORTED: 0 error(s)" naming no host.
            answered = self._answered_stop(host.name)
            if answered is not None:
                # drafter_eval stopped mid-evaluation returned its scores so far (a passed step):
                # "before its next step" said the stop came after it, on a playbook with none.
                self._print(f"[yellow]host {escape(host.name)} aborted during step {escape(answered)}:[/] "
                            f"{_shown(host.error)}; its probe returned what it had so far", soft_wrap=True)
            else:
                self._print(f"[yellow]host {escape(host.name)} aborted before its next step:[/] {_shown(host.error)}", soft_wrap=True)

    def _step_said_stop(self, host: str) -> bool:
        """Whether a line already says the stop: a step the signal stopped while it ran
        ("interrupted: Ctrl-C"), or the prompt the user answered q at (engine.py's reason)."""
        if self._record is None or self._record.abort_reason in ("quit in step-through mode",
                                                                  "stdin closed at the step-through prompt"):
            return True  # no record to tell, or the user's own quit: say nothing rather than twice
        return any(s.host == host and (s.message or "").startswith("interrupted") for s in list(self._record.steps))

    def _answered_stop(self, host: str) -> str | None:
        """The id of the host's last step where its probe answered the run's stop with what it
        had so far (engine.answered_stop), else None."""
        from spec_debug.runner.engine import answered_stop

        steps = [s for s in list(self._record.steps) if s.host == host] if self._record is not None else []
        last = steps[-1] if steps else None
        if last is not None and answered_stop(last):
            return last.id
        return None

    def _had_steps(self, host: str) -> bool:
        """Whether a step of this host is in the record. A step skipped at the `--step` prompt
        is recorded but never reaches step_finished (the prompt itself said "skipped"): a user
        who skipped the first step and quit at the second was told the host "aborted before its
        first step", above a last line saying every step was skipped. list(): other hosts'
        threads insert into the steps meanwhile."""
        if host in self._hosts_with_steps:
            return True
        return self._record is not None and any(s.host == host for s in list(self._record.steps))

    def run_finished(self, record: RunRecord) -> None:
        if self.wants_output_lines:
            self._flush_lines()  # a host that ended mid-step (connection lost) had no step_finished
        status, self._status = self._status, None
        more = self._aborted_unstarted - _NAMED_ABORTED
        if more > 0:
            self._print(f"[yellow]and {more} more host(s) aborted before their first step[/]")
        if status is not None:
            try:
                status.stop()
            except (OSError, ValueError):
                self._gone = True
