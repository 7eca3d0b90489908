"""What one attempt of a step means: pure decisions over its output (no I/O).

Given the command's outcome and output, the step's captures, expectations and finding
templates (or its probe's parse and check), decide the step's status and findings.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass, field
from typing import Any

from spec_debug.errors import SpecDebugError, TemplateError
from spec_debug.playbook.models import Expectation, FindingTemplate, Step
from spec_debug.playbook.templating import (
    CONTEXT_NAMES, NOT_SET, TemplateSite, as_condition, attributes_of, evaluate, names_used, render, render_value, values_read,
)
from spec_debug.playbook.yaml_nodes import nests_too_deep
from spec_debug.probes.hostmain import ERROR_KEY
from spec_debug.record import Finding
from spec_debug.redact import cut_outside_secret, is_secret_name, redact_value
from spec_debug.runner.capture import MAX_FACT_DEPTH, CaptureError, JsonTooDeepError, apply_captures, parse_json_output
from spec_debug.runner.output import TRUNCATION_MARKER, StreamCapture, last_drawing, shown_repr, without_markers
from spec_debug.runner.output_regex import anchored_to_text_ends, can_match_newline, compile_first_match
from spec_debug.runner.runner_findings import CHECK_NOT_EVALUATED, TITLE_LIMIT, catalog_defaults, runner_finding
from spec_debug.runner.transport import CommandOutcome

EVIDENCE_TAIL_LINES = 6


@dataclass
class AttemptResult:
    status: str
    message: str | None
    facts: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    expectations: list[dict[str, Any]] = field(default_factory=list)
    defaulted: dict[str, str] = field(default_factory=dict)
    """The facts of this attempt set to their capture's `default:`, with why (capture.apply_captures)."""


def evaluate_attempt(
    step: Step,
    host: str,
    outcome: CommandOutcome,
    stdout: StreamCapture,
    stderr: StreamCapture,
    context: dict[str, Any],
    facts: dict[str, Any],
    attempt: int = 1,
    timed_out_before: int = 0,
    *,
    redact: bool = True,
) -> AttemptResult:
    """What one attempt of a step means: its status, message, new facts, findings and expectation
    results. `attempt` counts from 1; `timed_out_before` is how many attempts before it timed out;
    `redact` False (--no-redact): a failed check names a value under a secret-like name too."""
    # A byte that is no UTF-8 kept as a surrogate (PEP 383), as the step's record keeps it
    # (engine.py): a finding's tail of stderr, a check's observed text said U+FFFD where run.json
    # said `err \xff` for the same byte. run.json and the reports show it as \xe9 (record.carriable).
    out_text, err_text = stdout.checked_text("surrogateescape"), stderr.checked_text("surrogateescape")
    step_facts: dict[str, Any] = {}
    defaulted: dict[str, str] = {}
    findings: list[Finding] = []
    if outcome.timed_out:
        # With no pid to kill (ssh.py, _left_running) the command may still run: "process tree
        # killed" would send the reader to rerun the step beside it.
        kill = outcome.left_running.words() if outcome.left_running is not None else killed_words(stdout.survived_kill)
        message = f"{timeout_words(step.timeout, attempt, timed_out_before)}; {kill}"
        timed_out = runner_finding("SD002", host=host, step=step.id, evidence=[message, *_tail(out_text, err_text)])
        said_so_far = _probe_result_at_timeout(step, host, outcome, stdout, out_text, err_text, context, facts)
        step_facts, so_far = said_so_far if said_so_far is not None else ({}, [])
        return AttemptResult("timeout", message, step_facts, [timed_out, *so_far], [])
    if step.probe is not None:
        # The probe's JSON read whole where the capture limit cut it (`--capture-limit 0`).
        probe_text = (stdout.whole_text() if stdout.truncated else None) or out_text
        probe_result = probe_facts(step, host, outcome, probe_text, err_text, context, facts)
        if isinstance(probe_result, ProbeFailure):
            message, hint = probe_result.message, probe_result.hint
            finding = runner_finding("SD003", host=host, step=step.id, evidence=[message, *_tail("", err_text)], hint=hint)
            # The step's line keeps the hint as the terminal showed it; the finding makes it the fix.
            said = message if not hint else f"{message}\n  hint: {hint}"
            return AttemptResult("error", said, step_facts, [finding], [])
        step_facts, findings = probe_result
    capture_failed: str | None = None  # the captures' error, where the step is judged without them
    unread_output: list[Finding] = []
    try:
        # The surrogate a byte that is no UTF-8 is kept as: a file name a latin-1 tool wrote, read
        # from `ls` and used by a later step (`cat {{ facts.log }}`, a fetch), was U+FFFD and named
        # no file on the host. The command sends it back as the byte (local.py, ssh.py).
        step_facts.update(apply_captures(step.capture, out_text, err_text, _WholeStreams(stdout, stderr), defaulted))
    except (CaptureError, ValueError, TypeError) as exc:
        capture_failed = f"capture failed: {exc}"
        unread = runner_finding("SD003", host=host, step=step.id, evidence=[capture_failed])
        if step.probe is not None or not _fails_without_facts(step, outcome):
            return AttemptResult("error", capture_failed, step_facts, [unread], [])
        # The command's own failure reads no capture: `curl -sf URL; exit 22` with a json:
        # capture said only "output is not JSON" (an SD003 warning) and the run PASSED, exit 0,
        # where the same step without its capture failed (SD001). It is judged as without
        # them, as Ansible fails a `command` task on its rc before its output is parsed; a
        # `that:` reads the facts and is not evaluated.
        unread_output = [unread]
    check_context = {
        **context,
        "facts": {**facts, **step_facts},
        "exit_code": outcome.exit_code,
        # What the host printed: the record's truncation marker is spec-debug's note (host_text).
        "stdout": stdout.expression_text(),
        "stderr": stderr.expression_text(),
    }
    expectations: list[dict[str, Any]] = []
    failed: list[Expectation] = []
    failed_said: list[str] = []
    unreadable: list[TemplateError] = []
    unreadable_checks: list[str] = []
    for expectation in step.expect:
        if capture_failed is not None and expectation.that is not None:
            expectations.append({"expect": expectation.describe(), "passed": False, "observed": f"not evaluated: {capture_failed}"})
            continue
        # Every expectation is checked: the first that could not be evaluated (a capture that
        # matched nothing) stopped the others, and an SD201 error finding after it, or a failure
        # before it, became one SD003 warning: the run said PASSED over a failed check.
        try:
            held, observed = _check(expectation, outcome, out_text, err_text, check_context, step.id, (stdout, stderr), redact=redact,
                                    defaulted=defaulted)
        except TemplateError as exc:
            unreadable.append(exc)
            unreadable_checks.append(expectation.describe())
            expectations.append({"expect": expectation.describe(), "passed": False, "observed": f"not evaluated: {exc.message}"})
            continue
        expectations.append({"expect": expectation.describe(), "passed": held, "observed": observed})
        if not held:
            failed.append(expectation)
            failed_said.append(f"expected {expectation.describe()}, observed {observed}")
    # The hint is the fix ("guard it: ... is not none", a version's parts as numbers): it was
    # dropped here, and the finding gave SD003's generic fix only.
    # Titled as the playbook's check, not "A step could not run or its output could not be read":
    # the step ran and its output was read, and the run said PASSED (warnings) with no word
    # that the check itself is broken (`facts.loss < 5` over a text, a name that is no fact).
    not_evaluated = [runner_finding("SD003", host=host, step=step.id, evidence=[exc.message], hint=exc.hint,
                                    title=f"{CHECK_NOT_EVALUATED}: {check}")
                     for exc, check in zip(unreadable, unreadable_checks)]
    if capture_failed is not None and not failed and step.expect:
        # Nothing the captures do not feed failed: the step's answer is the unread output.
        return AttemptResult("error", capture_failed, step_facts, unread_output, [])
    if unreadable and not failed:
        return AttemptResult("error", "; ".join(exc.message for exc in unreadable), step_facts, findings + not_evaluated,
                             expectations)
    findings += not_evaluated
    if not failed and step.expect:
        return AttemptResult("passed", None, step_facts, findings, expectations, defaulted)
    if not step.expect and step.probe is None and outcome.exit_code not in (0, None):
        # No expectations written: a non-zero exit is the failure.
        failed_message = exit_words(outcome)
        evidence = [failed_message, *_tail(out_text, err_text)]
        templates = step.findings
        if templates:
            findings += [render_finding(t, host, step, check_context, evidence) for t in templates]
        else:
            findings.append(runner_finding("SD001", host=host, step=step.id, evidence=evidence, title=f"Step {step.id!r} failed: {failed_message}"))
        if capture_failed is not None:
            failed_message = f"{failed_message}; {capture_failed}"
        return AttemptResult("failed", failed_message, step_facts, findings + unread_output, expectations, defaulted)
    if not failed:
        return AttemptResult("passed", None, step_facts, findings, expectations, defaulted)
    said = "; ".join(failed_said)
    message = said + "".join(f"; {exc.message}" for exc in unreadable) + (f"; {capture_failed}" if capture_failed else "")
    evidence_base = [said, *_tail(out_text, err_text)]
    inline = [e.finding for e in failed if e.finding is not None]
    for template in inline:
        findings.append(render_finding(template, host, step, check_context, evidence_base))
    if len(inline) < len(failed):
        if step.findings:
            findings += [render_finding(t, host, step, check_context, evidence_base) for t in step.findings]
        elif not inline:
            findings.append(runner_finding("SD001", host=host, step=step.id, evidence=evidence_base, title=f"Step {step.id!r}: {said}"))
    return AttemptResult("failed", message, step_facts, findings + unread_output, expectations, defaulted)


def _fails_without_facts(step: Step, outcome: CommandOutcome) -> bool:
    """Whether the step could fail on what reads no capture: a non-zero exit with no `expect:`,
    or an expectation other than `that:` (exit_code, contains, not_contains, matches)."""
    if not step.expect:
        return outcome.exit_code not in (0, None)
    return any(e.that is None for e in step.expect)


def timeout_words(timeout_s: float | None, attempt: int, timed_out_before: int) -> str:
    """`timed out after 1 s on each of 3 attempts`. A step with `retries:` that timed out every
    time said "timed out after 1 s", and its reader took it for one try: the attempts are said."""
    said = f"timed out after {timeout_s:g} s"
    if attempt == 1:
        return said
    if timed_out_before == attempt - 1:
        return f"{said} on each of {attempt} attempts"
    before = "the one before it" if attempt == 2 else f"the {attempt - 1} before it"
    if timed_out_before == 0:
        return f"{said} on attempt {attempt} ({before} did not time out)"
    return f"{said} on attempt {attempt} ({timed_out_before} of {before} timed out too)"


def background_note(stdout: StreamCapture, stderr: StreamCapture) -> str | None:
    """What to tell the author when the step's command exited but left processes running that
    still hold its output (the transport stopped waiting for it: local.py, _DRAIN_AFTER_EXIT_S)."""
    if stdout.held_open_by is None and stderr.held_open_by is None:
        return None
    holders = dict((stdout.held_open_by or []) + (stderr.held_open_by or []))
    named = ", ".join(f"pid {pid} ({_shorten(command)})" for pid, command in sorted(holders.items())[:3])
    who = f"left running in the background: {named}" if named else "a process it left running in the background"
    streams = " and ".join(c.name for c in (stdout, stderr) if c.held_open_by is not None)
    return (
        f"{who}, still writing to this step's {streams}; its output is read and dropped until this host's steps end, "
        "then its next write fails (SIGPIPE ends most programs). To keep it running, send its output to a file: "
        "nohup CMD > /tmp/server.log 2>&1 &"
    )


def killed_words(survivors: list[tuple[int, str, str]] | None) -> str:
    """What the timeout's kill did: a process that waits in the kernel outlives SIGKILL
    (runner/local.py, _REAP_AFTER_KILL_S), and "killed" would send the reader looking elsewhere."""
    if survivors is None:
        return "process tree killed"
    named = ", ".join(f"pid {pid} ({_shorten(command)}, state {state})" for pid, state, command in survivors[:3])
    return (
        f"{named or 'its process'} still alive after SIGKILL and left running: a process in state D waits "
        "in the kernel (a GPU driver that stopped answering, e.g. nvidia-smi after an Xid error in dmesg; "
        "a dead NFS or FUSE mount) and dies only when that wait ends"
    )


def one_word_command_hint(step: Step, context: dict[str, Any], err_text: str) -> str | None:
    """Why a step exited 127 when a var holding a whole command line (`server_cmd: python -m
    sglang.launch_server --tp 8`) was interpolated quoted, as every value is: the shell looked
    for one program named by the whole line ("python -m ...: command not found", bash; dash
    says "not found")."""
    if step.run is None or "not found" not in err_text:
        return None
    names = [*names_used(step.run), *attributes_of(step.run, "vars")]  # it rendered: it parses
    for name in dict.fromkeys(names):
        value = context.get("vars", {}).get(name, context.get(name))
        if isinstance(value, str) and len(value.split()) > 1 and (
            f"{value}: command not found" in err_text or f"{value}: not found" in err_text
        ):
            return (f"var {name!r} holds a whole command line, and values are quoted as one word: "
                    f"write {{{{ {name} | raw }}}} to run it as a command")
    return None


def _shorten(command: str, limit: int = 80) -> str:
    command = " ".join(command.split())  # a `python -c` script's newlines, on one line
    # Masked after (Run._clean): cut inside a --var secret's value, its first part stayed.
    return command if len(command) <= limit else command[: cut_outside_secret(command, limit - 1)] + "…"


def _python_hint(step: Step, context: dict[str, Any]) -> str:
    """Where to name the Python a probe step ran with. The runner takes the step's `with:
    python:`, else the var python (engine.py, _render_command): for `with: python: "{{ venv
    }}/bin/python"` the hint was "--var python=...", which the run then refused as no var of
    the playbook."""
    given = step.with_.get("python")
    if given is None or given == "{{ python }}":
        if "python" in context:
            return "name the host's Python with --var python=/path/to/python3"
        return f"name the host's Python in the playbook: give step {step.id!r} with: python: /path/to/python3"
    read = [name for name in (*names_used(str(given)), *attributes_of(str(given), "vars"))
            if name not in CONTEXT_NAMES and name in context]
    if read:
        return f"the step's Python is with: python: {given!r}: pass --var {read[0]}=... to match the host"
    return f"the step's Python is with: python: {given!r}: correct it in the playbook (step {step.id!r})"


@dataclass(frozen=True)
class ProbeFailure:
    """Why a probe gave no facts, and what its error said to do about it (an error of ours on the
    host carries a hint: "run `git lfs pull` in the checkpoint repository")."""

    message: str
    hint: str | None = None


def _too_deep(name: str) -> ProbeFailure:
    return ProbeFailure(f"probe {name} printed JSON nested too deep to read (lists and objects within each other, "
                        f"more than {MAX_FACT_DEPTH} levels deep)")


def _probe_result_at_timeout(
    step: Step, host: str, outcome: CommandOutcome, stdout: StreamCapture, out_text: str, err_text: str,
    context: dict[str, Any], facts: dict[str, Any],
) -> tuple[dict[str, Any], list[Finding]] | None:
    """The facts and findings of the JSON a timed-out probe printed as it was stopped, else None.

    The timeout's kill sends SIGTERM first (proctree.kill_tree, ssh._KILL_SCRIPT) and its
    stream is read on (local._read_dying_words): drafter_eval answers it with the scores of the
    samples scored so far (`stopped`, `partial`). Only a run stopped as a whole reached the
    report with them; at a step's `timeout:` they were a raw line in the appendix and the
    finding said "timed out" alone. The step is still a timeout; what the probe said is read
    as if it had ended. Output that is no probe result (none, cut, an error) adds nothing."""
    if step.probe is None or not out_text.strip():
        return None
    probe_text = (stdout.whole_text() if stdout.truncated else None) or out_text
    result = probe_facts(step, host, outcome, probe_text, err_text, context, facts)
    return None if isinstance(result, ProbeFailure) else result


def probe_facts(
    step: Step, host: str, outcome: CommandOutcome, out_text: str, err_text: str, context: dict[str, Any], facts: dict[str, Any]
) -> tuple[dict[str, Any], list[Finding]] | ProbeFailure:
    from spec_debug.probes.registry import ProbeContext, get_probe

    spec = get_probe(step.probe or "")
    try:
        data = parse_json_output(out_text)
    except CaptureError as exc:
        if TRUNCATION_MARKER.search(out_text):
            # The probe's JSON was cut by --capture-limit: say that, not "no output".
            return ProbeFailure(f"probe {spec.name}: {exc}")
        if isinstance(exc, JsonTooDeepError):
            # It printed JSON, too deep for json to read: "printed no JSON (exit code 0): no
            # output" sent the user looking for a crash.
            return _too_deep(spec.name)
        first = (err_text.strip().splitlines() or ["no output"])[-1]
        # With the signal that ended it: an OOM-killed probe (a checkpoint loaded into too little
        # memory) said only "printed no JSON (exit code 137)", then bash's "Killed" or nothing.
        message = f"probe {spec.name} printed no JSON ({exit_words(outcome)}): {first}"
        if outcome.exit_code == 127:  # the shell found no such program: the host's Python is elsewhere
            message += f"; {_python_hint(step, context)}"
        return ProbeFailure(message)
    if nests_too_deep(data):
        # JSON 900 levels deep parses, then the facts walked through redaction and run.json
        # ended the host with "internal error: RecursionError" (a capture refuses it: capture.py).
        return _too_deep(spec.name)
    if isinstance(data, dict) and ERROR_KEY in data:
        error = data[ERROR_KEY]
        hint = error.get("hint") if isinstance(error, dict) else None
        return ProbeFailure(f"probe {spec.name} failed on the host: {error.get('type')}: {error.get('message')}",
                            hint if isinstance(hint, str) and hint else None)
    if outcome.exit_code not in (0, None):
        # With the signal that ended it, as a probe killed before its JSON says (an OOM kill while
        # the checkpoint is freed said only "exited with code 137").
        return ProbeFailure(f"probe {spec.name} printed its JSON, then ended with {exit_words(outcome)}")
    try:
        probe_facts = spec.parse(data) if spec.parse else (data if isinstance(data, dict) else {"result": data})
        findings: list[Finding] = []
        if spec.check is not None:
            args = render_value(step.with_, context, TemplateSite(step.id, "with"))
            probe_context = ProbeContext(
                step_id=step.id, host=host, args=args, facts=probe_facts,
                host_facts={**facts, **probe_facts}, vars=context["vars"],
            )
            findings = [f.model_copy(update={"host": f.host or host, "step": f.step or step.id}) for f in spec.check(probe_context)]
    except SpecDebugError as exc:
        return ProbeFailure(f"probe {spec.name}: {exc.message}", exc.hint)
    except Exception as exc:  # a checker bug must not take the run down; it is reported on the step
        return ProbeFailure(f"probe {spec.name}: checking its output failed: {type(exc).__name__}: {exc}")
    return probe_facts, findings


def render_finding(template: FindingTemplate, host: str, step: Step, context: dict[str, Any], evidence: list[str]) -> Finding:

    defaults = catalog_defaults(template.code)
    site = TemplateSite(step.id, f"finding {template.code}")

    def text(value: str | None, fallback: str) -> str:
        if value is None:
            return fallback
        try:
            return render(value, context, site)
        except TemplateError as exc:
            return f"{value} [template error: {exc.message}]"

    rendered_evidence = [text(e, e) for e in template.evidence] + evidence
    title = text(template.title, defaults.title or f"{template.code} in step {step.id}")
    if "\n" in title or "\r" in title:
        # `title: "free memory {{ steps.mem.stdout }}"` took the output's newline(s): a title is
        # one line (the console's finding line, the report's heading and verdict read "2 GiB ."
        # with a stray break). Its lines are joined by a space; every word stays.
        title = " ".join(title.split())
    if len(title) > TITLE_LIMIT:
        # `title: "bad value {{ facts.x }}"` with a fact of 128 KiB printed a 131,000-character
        # line on the terminal and made the report's heading of it; the whole title stays in
        # the finding, as its first evidence item.
        rendered_evidence.insert(0, f"title: {title}")
        cut = cut_outside_secret(title, TITLE_LIMIT)  # masked after (Run._clean_findings): no token left in part
        title = f"{title[:cut]}… ({len(title) - cut:,} characters more: the whole title is its first evidence)"
    return Finding(
        code=template.code,
        severity=template.severity or defaults.severity,
        title=title,
        host=host,
        step=step.id,
        evidence=rendered_evidence,
        remediation=text(template.remediation, defaults.remediation),
        references=template.references or list(defaults.references),
    )


def _check(
    expectation: Expectation, outcome: CommandOutcome, out_text: str, err_text: str, context: dict[str, Any], step_id: str,
    streams: tuple[StreamCapture, ...] = (), *, redact: bool = True, defaulted: dict[str, str] | None = None,
) -> tuple[bool, str]:
    # stdout's last line and stderr's first are two lines: `printf 'done'` then an error on
    # stderr must not read as "doneRuntimeError" (no ^ match, a needle found across both).
    output = out_text + ("\n" if out_text and err_text and not out_text.endswith("\n") else "") + err_text
    output = without_markers(output)  # what the host printed, not what spec-debug says of the cut
    if expectation.exit_code is not None:
        wanted = expectation.exit_code if isinstance(expectation.exit_code, list) else [expectation.exit_code]
        return outcome.exit_code in wanted, exit_words(outcome)
    if expectation.contains is not None or expectation.not_contains is not None:
        needle = expectation.contains if expectation.contains is not None else expectation.not_contains
        found = needle in output
        where = ""
        if not found and needle:
            # A long log keeps only its head and tail in the record: "not_contains: CUDA out
            # of memory" must not pass because the line fell in the part cut out of it.
            pattern = re.compile(re.escape(needle))
            found = _in_cut_part(pattern, streams) is not None
            where = (" (in the part of the output cut from the record)" if found
                     else _unsearched(pattern, streams) + _across_cut_lines(pattern, streams))
        observed = ("found" if found else "not found") + where
        return (found, observed) if expectation.contains is not None else (not found, observed)
    if expectation.matches is not None:
        pattern = compile_first_match(expectation.matches)
        match = pattern.search(output)
        if match is not None:
            return True, f"matched {shown_repr(match.group(0))}"
        match = _in_cut_part(pattern, streams)
        if match is not None:
            return True, f"matched {shown_repr(match.group(0))} (in the part of the output cut from the record)"
        return False, "no match" + _unsearched(pattern, streams) + _across_cut_lines(pattern, streams)
    assert expectation.that is not None
    value = evaluate(expectation.that, context, TemplateSite(step_id, "expect.that"))
    held = as_condition(value, expectation.that, TemplateSite(step_id, "expect.that"))
    if held:
        return True, shown_repr(value)
    # "expected that facts.tps > vars.min_tps, observed False" gave the on-call engineer the
    # verdict but not the numbers: they were in run.json's facts, and in the vars of the run.
    return False, shown_repr(value) + values_said(expectation.that, context, redact=redact, defaulted=defaulted)


VALUE_LIMIT = 200
"""Characters of one value a failed check quotes (a fact may be a 100 KB log)."""


def values_said(expression: str, context: dict[str, Any], *, redact: bool = True, defaulted: dict[str, str] | None = None) -> str:
    """` (facts.tps = 12.5, vars.min_tps = 80)`: what a failed `that:` (or an `until:` that
    never held) compared, '' when it reads only itself (`that: facts.ready`). With ``redact``
    False (--no-redact, which keeps every secret in run.json) values named like secrets are said too.
    ``defaulted``: the step's facts that are their capture's `default:` (`facts.tps = 0 (the
    capture's default: nothing matched)`): said as a plain value, the default read as a measurement."""
    said = []
    for name, value in values_read(expression, context):
        why = defaulted.get(name[len("facts."):]) if defaulted and name.startswith("facts.") else None
        if name == expression.strip() and why is None:
            continue  # its value is the observed value
        if value is NOT_SET:
            said.append(f"{name} not set")
            continue
        if redact and is_secret_name(name.rsplit(".", 1)[-1]):
            # As run.json masks a value under a key named like a secret (redact.redact_value):
            # in `facts.hf_token = '...'` no pattern knows the token's shape. Not written as
            # `facts.hf_token = ***REDACTED***`: the record's NAME=value pattern masks what
            # follows "= ". So None and '' (no secret, and often why the check failed: the
            # token was not found) are said with "is": `facts.api_token = None` was recorded
            # `facts.api_token = ***REDACTED***`, as if a token had been read.
            said.append(f"{name} is {value!r}" if value is None or value == "" else f"{name} not shown (named like a secret)")
            continue
        text = shown_repr(redact_value(value) if redact else value)  # a dict's keys named like secrets, a token's own shape
        if len(text) > VALUE_LIMIT:
            # Masked after (Run._clean): a cut inside a --var secret's value left its first part.
            cut = cut_outside_secret(text, VALUE_LIMIT) if redact else VALUE_LIMIT
            text = f"{text[:cut]}… ({len(text) - cut:,} characters more)"
        said.append(f"{name} = {text}" if why is None else f"{name} = {text} ({why})")
    return f" ({', '.join(said)})" if said else ""


# What a killed command's status means on the host: the kernel's OOM killer sends SIGKILL
# (torvalds/linux mm/oom_kill.c), which is what a checkpoint load or a server start that
# outgrows host memory ends with; a shell reports a child killed by signal N as 128 + N
# (POSIX 2.8.2, Exit Status for Commands).
_SIGNAL_NOTES = {signal.SIGKILL: "the out-of-memory killer, or kill -9", signal.SIGSEGV: "a crash",
                 signal.SIGABRT: "an abort, e.g. a failed assertion in native code", signal.SIGBUS: "a crash (bad memory access)"}


def exit_words(outcome: CommandOutcome) -> str:
    """`exit code 137 (signal 9, SIGKILL: the out-of-memory killer, or kill -9)`."""
    code = outcome.exit_code
    number = outcome.signal
    if outcome.signal_name is not None:
        # What ssh(1) exits with for it (255), and the signals it may have been (ssh.py, _outcome).
        return (f"exit code {code} (killed by a signal sshd reports only as {outcome.signal_name}, one it does not name: "
                "SIGBUS (a bad memory access: a file read through mmap that was cut short), SIGXCPU or SIGXFSZ "
                "(a CPU time or file size limit: ulimit -t, -f), SIGTRAP, SIGSYS)")
    via_shell = number is None and isinstance(code, int) and 128 < code <= 128 + 64
    if via_shell:
        number = code - 128  # type: ignore[operator]
    if number is None:
        return f"exit code {code}"
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"exit code {code}" + ("" if via_shell else f" (signal {number})")
    note = _SIGNAL_NOTES.get(signal.Signals(number))
    what = f"{name}: {note}" if note else name
    if via_shell:
        return f"exit code {code} (128 + {number}: killed by {what})"
    return f"exit code {code} (signal {number}, {what})"


def _in_cut_part(pattern: re.Pattern[str], streams: tuple[StreamCapture, ...]) -> re.Match[str] | None:
    for stream in streams:
        if stream.truncated:
            found = stream.search_whole(pattern)
            if found is not None:
                return found
    return None


@dataclass
class _WholeStreams:
    """capture.WholeOutput over a step's two streams: a stream cut by the capture limit answers
    from what it watched or collected as it passed, a whole one from its text."""

    stdout: StreamCapture
    stderr: StreamCapture

    def _streams(self, source: str) -> tuple[StreamCapture, ...]:
        return {"stdout": (self.stdout,), "stderr": (self.stderr,)}.get(source, (self.stdout, self.stderr))

    def first(self, source: str, pattern: re.Pattern[str]) -> Any:
        for stream in self._streams(source):
            found = stream.first_watched(pattern) if stream.truncated else pattern.search(stream.checked_text())
            if found is not None:
                return found
        return None

    def every(self, source: str, pattern: re.Pattern[str]) -> list[Any] | None:
        matches: list[Any] = []
        for stream in self._streams(source):
            found = stream.collected(pattern) if stream.truncated else list(pattern.finditer(stream.checked_text()))
            if found is None:
                return None
            matches += found
        return matches

    def text(self, source: str) -> str | None:
        texts = [stream.whole_text() if stream.truncated else stream.checked_text("surrogateescape")
                 for stream in self._streams(source)]
        if any(text is None for text in texts):
            return None
        return "\n".join(text for text in texts if text)  # as apply_captures joins `output`


def collected_patterns(step: Step) -> tuple[re.Pattern[str], ...]:
    """The `all: true` regex captures' patterns (StreamCapture.collect)."""
    patterns = [re.compile(c.regex, re.MULTILINE) for c in step.capture if c.regex is not None and c.all]
    return tuple({(p.pattern, p.flags): p for p in patterns}.values())


def watched_patterns(step: Step) -> tuple[re.Pattern[str], ...]:
    """The patterns searched in the whole stream (StreamCapture.watch): _check's, and single
    regex captures'. They are found in the raw stream as it passes, since the spilled copy is
    masked."""
    patterns = [compile_first_match(c.regex) for c in step.capture if c.regex is not None and not c.all]
    for expectation in step.expect:
        needle = expectation.contains if expectation.contains is not None else expectation.not_contains
        if needle:
            patterns.append(re.compile(re.escape(needle)))
        elif expectation.matches is not None:
            patterns.append(compile_first_match(expectation.matches))
    return tuple({(p.pattern, p.flags): p for p in patterns}.values())  # each searched once


def _unsearched(pattern: re.Pattern[str], streams: tuple[StreamCapture, ...]) -> str:
    lost = [s.name for s in streams if not s.searched_whole(pattern)]
    return f" (in the kept output only: part of {' and '.join(lost)} was not saved)" if lost else ""


def _across_cut_lines(pattern: re.Pattern[str], streams: tuple[StreamCapture, ...]) -> str:
    """The note for a regex or text that can span lines, not found in a stream cut by the
    capture limit: the cut part is searched a line at a time (search_whole), and
    `matches: '^Loading(?s:.*)^Done'` said only "no match" when Done fell in the cut part."""
    cut = [s.name for s in streams if s.truncated]
    if not cut or anchored_to_text_ends(pattern.pattern, pattern.flags) or not can_match_newline(pattern.pattern, pattern.flags):
        return ""
    return (f" (the part of {' and '.join(cut)} cut from the record is searched a line at a time: a match across "
            "lines there is not seen; a larger --capture-limit keeps the whole output)")


def output_tail(out_text: str, err_text: str) -> list[str]:
    """The last lines of a step's output, as a finding's evidence (stderr's when it has any)."""
    return _tail(out_text, err_text)


def _tail(out_text: str, err_text: str) -> list[str]:
    # A progress bar (tqdm, pip, huggingface-cli download) redraws one line with \r: it is one
    # line, in its last state, as the terminal showed it. Split at \r too (str.splitlines), its
    # redraws filled the evidence and pushed out the lines before the error.
    text = err_text.strip() or out_text.strip()
    if not text:
        return []  # nothing printed: no empty evidence line under the message
    lines = [last_drawing(line) if "\r" in line else line for line in text.split("\n")]
    # Masked after (Run._clean_findings): a line cut inside a token kept its first part unmasked.
    return [line[:cut_outside_secret(line, 300)] for line in lines[-EVIDENCE_TAIL_LINES:]]


