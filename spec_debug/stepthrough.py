"""`spec-debug run ... --step`: walk a newcomer through a playbook, one step at a time.

Before each step: its title, why it matters, and the exact command. Then run / skip / quit.
After it: the result and any finding in plain words. Quitting leaves a valid run record.
"""

from __future__ import annotations

import os
import re
import select
import sys
import threading

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from spec_debug.ansi import visible_controls
from spec_debug.cli_common import shown_text
from spec_debug.playbook.models import Step
from spec_debug.record import Finding, StepRecord
from spec_debug.report.markdown_prose import LIST_ITEM
from spec_debug.runner.reporter import StepGate

_CHOICES = {"r": "run", "run": "run", "": "run", "s": "skip", "skip": "skip", "q": "quit", "quit": "quit"}


_HELP_WORDS = frozenset({"?", "h", "help"})
# The catalog's word for the playbook in a fix (diagnose/codes.py, SD001)
_EXPLAIN_PLACEHOLDER = "`spec-debug explain PLAYBOOK`"
END_OF_INPUT = "stdin closed at the step-through prompt"
"""The run's abort reason when the prompt read end of input (no one answered q)."""


def _help_text(host: str, step: Step, playbook: str | None = None) -> str:
    """What each answer of the step prompt does (`?` at the prompt). playbook: how `explain`
    is given the playbook that runs (its path as `run` was given it), for a step of one's own."""
    from spec_debug.playbook.loader import _shipped_steps

    # each line within 80 columns (a host name aside): rich folds a longer one mid-sentence
    lines = [f"  r, Enter  run this step on {escape(host)} now, then see what it found",
             "  s         skip it: it is recorded as skipped and the next step is asked about",
             "  q         quit: no more steps, on any host; the record keeps those so far"]
    # `explain ID` walks through the shipped step of that id: named for that step only, not for
    # a step of one's own playbook that has the same id (`engine`) and another purpose
    owners = [playbook for playbook, shipped, _ in _shipped_steps()
              if shipped.get("id") == step.id and shipped.get("why") == step.why]
    if owners:
        from spec_debug.cli_extra import _shipped_step_owner

        # `explain engine` is perf_regression's engine step: hidden_state_format's, another why,
        # is `explain hidden_state_format engine` (the help named `explain engine` for both)
        explained = _shipped_step_owner(step.id)
        topic = step.id if explained is not None and explained[0] in owners else f"{owners[0]} {step.id}"
        lines.append(f"  spec-debug explain {escape(topic)} says more about this step")
    elif playbook:
        # A step of one's own playbook: `explain FILE STEP` walks through it (the help named no
        # command for it, and `explain STEP` knows shipped steps only)
        import shlex

        command = escape(f"spec-debug explain {playbook} {shlex.quote(step.id)}")
        said = f"  {command} says more about this step"
        # within 80 columns: a long path goes on a line of its own, not folded mid-path
        lines.extend([said] if len(said) <= 80 else ["  more about this step:", f"    {command}"])
    return "\n".join(lines)


def _reflow(text: str) -> str:
    """A `why: |` block is hard-wrapped for the YAML file; in a panel of another width those
    line ends made ragged lines. Lines are joined as Markdown joins them (a blank line still
    separates paragraphs) and the panel wraps them.

    A list item (`- `, `* `, `1. `) keeps its own line, as Markdown keeps it and `explain`
    shows it: a why of "Checks:" over two "- " items was one line, "Checks: - the flag - the
    layers". So does every line of a fenced block (``` or ~~~), as `explain` shows it: its
    commands were joined into one line ("```sh nvidia-smi ... ps -o pid ... ```"), which run
    nothing sensible when pasted."""
    lines: list[str] = []
    joinable = False  # whether the next prose line continues the last one
    fence: str | None = None  # the marker that closes the open fenced block
    for line in text.strip().splitlines():
        stripped = line.strip()
        if fence is not None:
            lines.append(line.rstrip())
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group(1)
            lines.append(line.rstrip())
            joinable = False
        elif not stripped:
            if lines and lines[-1]:
                lines.append("")  # one blank line between paragraphs, as before
            joinable = False
        elif joinable and not LIST_ITEM.match(line):
            lines[-1] += " " + stripped
        else:
            lines.append(stripped)
            joinable = True
    return "\n".join(lines)


# A fence opens a code block: three or more backticks or tildes, up to three spaces in (CommonMark).
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _copied(artifacts: list[str], named: int = 3) -> str:
    """The files a fetch step copied, as run.json names them (relative to the run folder): the
    first few, then how many more."""
    from spec_debug.counted import counted

    shown = ", ".join(artifacts[:named])
    return shown if len(artifacts) <= named else f"{shown} and {counted(len(artifacts) - named, 'more file')}"


def _probe_summary(name: str) -> str:
    from spec_debug.probes.registry import all_probes

    spec = all_probes().get(name)
    return spec.summary if spec else ""


class TerminalGate(StepGate):
    def __init__(self, console: Console, stdin=None, *, takes_vars: bool = True, fleet: bool = False,
                 playbook: str | None = None) -> None:
        self.console = console
        # The playbook as `explain` takes it (explain._run_argument), for `?` at the prompt to
        # name `spec-debug explain PLAYBOOK STEP` for a step of one's own playbook
        self.playbook = playbook
        # True for a run on several hosts (`run --step -i hosts.ini`): each step is asked about
        # host by host, and "→ two failed: ..." did not say on which (the panel above names it,
        # a screen up after a long command); the lines say "→ two on gpu02 failed: ..."
        self.fleet = fleet
        # False for `demo --step`: the demo takes no --var, so an SD004 note's "what to do" (pass
        # a --var on the `spec-debug run` line) cannot be done there (after_step)
        self.takes_vars = takes_vars
        # sys.stdin is None when the process started with file descriptor 0 closed (`<&-`, a
        # daemon or a job runner that closes it): there is no answer to read, which is end of
        # input, not an AttributeError that failed the host as "internal error".
        self.stdin = stdin if stdin is not None else sys.stdin
        self._pending = b""
        # The prompt waits in a host worker thread while the main thread waits for the hosts.
        # Ctrl-C (or SIGTERM/SIGHUP) reaches the main thread only: the runner then waits for
        # every host to stop, and a worker blocked in readline() never would (the run hung
        # until Enter was pressed). So the prompt polls stdin and gives up when the runner says
        # the run is stopping (stop_waiting, called after the runner recorded the signal as the
        # reason). It once gave up on the signal itself, from a handler of its own: then the
        # host's "quit" could reach the record before the runner's reason, and a SIGTERM at the
        # prompt was recorded as "quit in step-through mode" on a loaded machine.
        self._stop = threading.Event()
        self._gone = False
        self._told: set[tuple[str, str]] = set()  # (host, step id): after_step said how it ended
        self.skipped: list[str] = []  # the ids of the steps answered s, in order

    def told(self, host: str, step_id: str) -> bool:
        """Whether after_step gave the account of this step (the progress line then says nothing
        more of it: cli_progress.ConsoleReporter.step_finished); asked once per step."""
        try:
            self._told.remove((host, step_id))
        except KeyError:
            return False
        return True

    def said_skipped(self, host: str, step: Step, reason: str) -> None:
        """The account of a step the runner skipped without asking (requires:, when:, an empty
        command), in the words of after_step; reason is markup (cli_progress._step_note)."""
        self._say(f"→ {escape(step.id)}{self._on(host)} [blue]skipped[/]: {reason}", soft_wrap=True)

    def _on(self, host: str) -> str:
        """The words after a step's id on a fleet, ' on HOST'; on one host none (the run's first line names it)."""
        return f" on [magenta]{escape(host)}[/]" if self.fleet else ""

    def _say(self, *args: object, **kwargs: object) -> None:
        """console.print, for a terminal that may have gone away: a closed terminal or SSH session
        fails every write with EIO (a closed pipe with EPIPE). That OSError left the prompt (and
        after_step, before the runner committed the step) and ended the host as "internal error:
        OSError: [Errno 5] Input/output error"; with nobody left to answer, it is end of input."""
        if self._gone:
            return
        # A byte that is no UTF-8 in a message or host name shown `\xe9`, as run.json shows it
        # (cli_common.shown_text), not as the stream's backslashreplace `\udce9`.
        args = tuple(shown_text(a) if isinstance(a, str) else a for a in args)
        try:
            self.console.print(*args, **kwargs)  # type: ignore[arg-type]
        except (OSError, ValueError):  # ValueError: the stream was closed
            self._gone = True

    def stop_waiting(self) -> None:
        self._stop.set()

    def _fileno(self) -> int | None:
        try:
            return self.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # io.StringIO in tests, a closed stdin
            return None

    def _readline(self) -> str | None:
        """One answer line; "" at end of input; None when the run is being stopped."""
        if self.stdin is None:
            return ""
        fd = self._fileno()
        if fd is None:
            try:
                return self.stdin.readline()
            except (OSError, ValueError):  # a closed file object: nothing more to read
                return ""
        # Raw reads with our own buffer: select() cannot see lines already sitting in
        # sys.stdin's buffer (two answers piped at once would then wait forever).
        while b"\n" not in self._pending:
            if self._stop.is_set():
                return None
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO from a terminal that went away (a closed ssh session): no more input
                chunk = b""
                self._gone = True
            if not chunk:  # end of input
                line, self._pending = self._pending, b""
                return line.decode("utf-8", "replace")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", "replace") + "\n"

    def _with_playbook(self, finding: Finding) -> str:
        """A finding's fix with the catalog's placeholder filled in where the gate knows the
        playbook: SD001 said "Read the step's `why` (`spec-debug explain PLAYBOOK`)" at the step
        of a playbook whose path the user had just typed; it names `explain FILE STEP`."""
        fix = finding.remediation
        if self.playbook and _EXPLAIN_PLACEHOLDER in fix:
            import shlex

            topic = f"{self.playbook} {shlex.quote(finding.step)}" if finding.step else self.playbook
            fix = fix.replace(_EXPLAIN_PLACEHOLDER, f"`spec-debug explain {topic}`")
        return fix

    def _interactive(self) -> bool:
        try:
            return bool(self.stdin.isatty())
        except (AttributeError, OSError, ValueError):
            return False

    def before_step(self, host: str, step: Step, command: str | None) -> str:
        host, command = shown_text(host), (shown_text(command) if command else command)
        sections: list[list[RenderableType]] = []
        if step.why:
            sections.append([Text.from_markup(f"[bold]Why:[/] {escape(visible_controls(_reflow(step.why)))}")])
        if step.probe:
            # The command of a probe step is an opaque `python3 bundle-<hash>.pyz ...` line: say
            # in words what the probe does before showing it.
            sections.append([Text.from_markup(f"[bold]Probe:[/] {escape(step.probe)}"
                                              + (f" - {escape(_probe_summary(step.probe))}" if _probe_summary(step.probe) else ""))])
        if command:
            # Indented as a block, so that a `run: |` block's lines and the wrapped tail of a
            # long line both sit under the header (they started at column 0, like a new command).
            sections.append([Text.from_markup(f"[bold]Command on {escape(host)}:[/]"),
                             Padding(Text(visible_controls(command.rstrip("\n"))), (0, 0, 0, 2))])
        elif step.fetch is not None:
            sections.append([Text.from_markup(f"[bold]Fetch from {escape(host)}:[/] {escape(visible_controls(', '.join(step.fetch.sources())))}")])
        parts: list[RenderableType] = []
        for section in sections:
            parts.extend(([Text("")] if parts else []) + section)
        title = f"{step.id}: {visible_controls(step.title)}" if step.title else step.id
        # rich cuts a panel's title to the panel's width ("first: First look at the engine ver"
        # in a 40-column tmux split); a title that cannot fit the border ("╭─ " and " ─╮") is
        # the panel's first line instead, wrapped like the rest.
        if step.title and Text(title).cell_len + 6 > self.console.width:
            parts = [Text(visible_controls(step.title), style="bold")] + ([Text("")] if parts else []) + parts
            title = step.id
        content: RenderableType = Group(*parts) if parts else Text("(no description)")
        self._say(Panel(content, title=escape(title), expand=False))
        while True:
            self._say("[bold]run[/] (r, Enter) / [bold]skip[/] (s) / [bold]quit[/] (q)? ", end="")
            # Read even when the writes failed: scripted answers still come from a pipe when only
            # stderr went away (`2>&1 | head` exited), as the run goes on when progress cannot be shown.
            line = self._readline()
            if line is None:  # Ctrl-C or SIGTERM while waiting: the runner is stopping
                self._say()
                return "quit"
            if line == "":  # end of input: treat as quit, the record stays valid
                self.quit_reason = END_OF_INPUT
                self._say()
                self._say("end of input (stdin closed): quitting; the steps so far are kept in the record.")
                if self._gone:
                    # The terminal itself went away (its writes fail too): a closed terminal or SSH
                    # session also sends SIGHUP, a moment apart. Give the runner that moment to
                    # record it (stop_waiting ends the wait): the record says "hung up", not "quit".
                    self._stop.wait(1.0)
                return "quit"
            if not self._interactive():
                # A scripted answer (piped stdin) is not echoed by a terminal: without this the
                # next line was printed after the question mark and the transcript read
                # "quit (q)? → first passed".
                # As text, not markup or terminal controls: an answer `[/x]` raised MarkupError
                # and ended the host's run; an ESC[8m in it concealed the rest of the output.
                self._say(Text(visible_controls(line.strip())))
            answer = line.strip().lower()
            if answer in _HELP_WORDS:
                # `?` is the help key of other step-by-step prompts (git add -p); it was "please
                # answer r, s or q (got '?')", which says nothing of what each answer does.
                # soft_wrap: a command is one line to copy, not folded mid-path (its lines are
                # written within 80 columns, _help_text)
                self._say(_help_text(host, step, self.playbook), highlight=False, soft_wrap=True)
                continue
            choice = _CHOICES.get(answer)
            if choice == "skip":
                self.skipped.append(step.id)
                # The runner records the skip but shows nothing for it: the user saw the next
                # step's panel (or the summary) with no word about the step they skipped.
                self._say(f"→ {escape(step.id)}{self._on(host)} [blue]skipped[/] (your choice); it is recorded as skipped.")
            if choice:
                return choice
            self._say(f"please answer r, s or q (got {escape(repr(line.strip()))}); ? says what each does", highlight=False)

    def after_step(self, host: str, step: Step, result: StepRecord, findings: list[Finding]) -> None:
        # The message as the run's progress line shows it (cli_progress._step_note): one line of at
        # most NOTE_LIMIT characters, its hint on the line under it. The whole message printed here
        # (a failed `contains:` quoting a 3,000-character log line) while the progress line said
        # "… (N characters more in run.json and the report)"; run.json keeps it whole.
        from spec_debug.cli_progress import _one_line, _step_note

        self._told.add((host, step.id))
        words = {
            "passed": "[green]passed[/]: everything this step checks looks healthy.",
            "failed": "[red]failed[/]: an expectation did not hold.",
            "error": "[red]could not run[/]",
            "timeout": "[red]timed out[/] and was stopped.",
            "skipped": "[blue]skipped[/].",
        }[result.status]
        if result.status == "passed" and step.fetch is not None and result.artifacts:
            # A fetch checks nothing: "everything this step checks looks healthy" said nothing of
            # what it did, and the user went looking for the copied files in the run folder.
            words = f"[green]passed[/]: copied {escape(visible_controls(_copied(result.artifacts)))} (in the run folder)."
        elif (result.status == "passed" and step.run is not None and result.exit_code == 0
              and not step.expect and step.until is None):
            # A `run:` step with no expect: checks only its exit code (its findings: are what a
            # non-zero exit reports): "everything
            # this step checks looks healthy" claimed checks that the step does not have.
            words = "[green]passed[/]: its command exited 0 (a step with no expect: checks nothing more)."
        if result.status == "timeout" and result.left_running is not None:
            # Its kill did not reach the host, or it had no pid to kill: "and was stopped" was not so.
            words = "[red]timed out[/] and may still be running."
        if result.status == "failed" and result.message:
            # The message says what failed; "an expectation did not hold" was wrong for a step
            # with no expect: at all, which fails on its exit code alone.
            words = f"[red]failed[/]: {_step_note(result.message)}"
            if not step.expect and step.run is not None:
                said, hint_line, hint = words.partition("\n")  # the hint stays the line under it
                words = f"{said} (a step with no expect: passes when its command exits 0){hint_line}{hint}"
        elif result.status == "error" and result.message and result.message.startswith("interrupted"):
            # Ctrl-C or SIGTERM stopped the command it had started: "could not run interrupted:
            # interrupted (Ctrl-C)" read as if the command had failed to start.
            reason = result.message.removeprefix("interrupted: ")
            words = f"[yellow]was stopped[/] while it ran: {escape(reason)}; the run stops here."
        elif result.message and result.status != "passed":
            words += f" {_step_note(result.message)}"
        problems = [f for f in findings if f.severity in ("error", "warning")]
        if result.status == "passed" and problems:
            # A probe step "passes" when it ran; its checks report what they found as findings.
            # "everything this step checks looks healthy" above an SD101 error contradicted it.
            words = (f"[green]ran[/]; its checks found {len(problems)} problem(s):" if len(problems) > 1
                     else "[green]ran[/]; its checks found a problem:")
        elif result.status == "passed" and any(f.code == "SD004" for f in findings):
            # "configs passed; notes:" above "SD004: Not checked ..." (no draft config.json: none
            # of the step's checks ran; an engine skipped: the served layers went unchecked) read
            # as a healthy step (codes.py: "a clean report with SD004 is a partial diagnosis").
            words = "[yellow]ran[/], but not everything was checked:"
        elif result.status == "passed" and findings:
            words = "[green]passed[/]; notes:"
        if result.status == "passed" and result.message:
            # What a passed step left behind or passed over (a folder a fetch pattern matched: "not
            # copied: logs/sub (a folder)"), as its progress line says it: only the steps that did
            # not pass had their message told here, so the step-through kept it from the user.
            note = _step_note(result.message)
            if words.endswith(":") and "\n" not in note:
                words = f"{words[:-1]}; {note}:"
            else:
                words = f"{words} {note}"
        # Not folded (soft_wrap), as the progress lines and the error hints: off a terminal (a CI
        # log, `2>&1 | tee`) rich folded at 80 columns, and at the terminal's width on one, inside
        # the command or path a remediation gives to paste ("--speculative-num-steps 3 \n
        # --speculative-eagle-topk 1"); the terminal wraps a long line itself.
        self._say(f"→ {escape(step.id)}{self._on(host)} {words}", soft_wrap=True)
        for finding in findings:
            if finding.code == "SD004" and not self.takes_vars:
                # Why the step could not look on this host (its evidence: "engine forward not read:
                # sglang is not installed in this Python"), as the demo's closing lines say it
                # (demo._say_result); the title and fix asked for a --var the demo does not take.
                from spec_debug.demo import not_checked_reason

                reason = not_checked_reason(finding, self.skipped)
                self._say(f"  [bold]{finding.code}[/] ({finding.severity}): not checked on this host: "
                          f"{escape(visible_controls(reason))}", soft_wrap=True)
                continue
            self._say(f"  [bold]{finding.code}[/] ({finding.severity}): {escape(visible_controls(finding.title))}",
                      soft_wrap=True)
            if finding.code == "SD004" and finding.evidence:
                # What went unchecked and why ("engine forward not read: sglang is not installed in
                # this Python", diagnose/steps/common.not_checked): the title names only the --var
                # to give, and the demo's step-through says the reason (above).
                self._say(f"    {_one_line(finding.evidence[0])}", soft_wrap=True)  # escaped by _one_line
            if finding.remediation:
                self._say(f"    what to do: {escape(visible_controls(self._with_playbook(finding)))}", soft_wrap=True)
