"""What a report shows, computed once from the record (templates only lay it out)."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any, Callable
from urllib.parse import quote

from spec_debug.record import (Finding, HostRecord, RunRecord, StepRecord, given_var_names, known_value, severity_rank, shell_word,
                               some_names, split_program)
from spec_debug.playbook.loader import shipped_playbooks_dir
from spec_debug.playbook.run_folder_input import playbook_argument
from spec_debug.redact import MASK
from spec_debug.report.terminal import FIX_LIMIT
from spec_debug.runner.fetch_limit import human_size
from spec_debug.runner.runner_findings import checks_not_evaluated, said_checks_not_evaluated


def _parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def verdict(record: RunRecord) -> tuple[str, str]:
    """(css class, one sentence) — the first thing an on-call engineer reads."""
    css, text = _verdict(record)
    if record.abort_reason and record.status in ("passed", "failed", "error"):
        # A stop that cut nothing (engine.Run._finish): the run ends as its hosts did, and the
        # report says the stop came, as the console's verdict line does.
        text += f" The run was stopped ({record.abort_reason}) after every step had run; nothing was cut."
    broken = checks_not_evaluated(record.findings)
    if broken:
        # A `that:` that raised (text compared with a number, a fact no step sets) is a warning:
        # the console's verdict counted them, the reports said "No errors; 2 warning(s) to
        # review" over a playbook whose own checks went unanswered.
        text += f" {said_checks_not_evaluated(broken)} (SD003: fix the playbook as each says)."
    return css, text


def steps_not_reached(record: RunRecord) -> list[dict[str, list[str]]]:
    """The playbook's steps (PlaybookRef.step_ids) a host has no record of, and the step it was
    cut in (HostRecord.running_step) left out: the run stopped (SIGTERM, Ctrl-C, the controller
    killed) or the host dropped before them. Hosts that lack the same steps are one entry
    ({"hosts": [...], "steps": [...]}), in the order of the hosts. Nothing for a record written
    before step_ids: which steps the playbook had is not known then."""
    planned = record.playbook.step_ids
    if not planned:
        return []
    recorded: dict[str, set[str]] = defaultdict(set)
    for step in record.steps:
        recorded[step.host].add(step.id)
    groups: dict[tuple[str, ...], list[str]] = {}
    for host in record.hosts:
        missing = tuple(step_id for step_id in dict.fromkeys(planned)
                        if step_id not in recorded[host.name] and step_id != host.running_step)
        if missing:
            groups.setdefault(missing, []).append(host.name)
    return [{"hosts": hosts, "steps": list(steps)} for steps, hosts in groups.items()]


def not_reached_words(record: RunRecord) -> str:
    """`not reached: after, report` (`... on gpu2, gpu3` where other hosts ran them), or "".
    Hosts that lack different steps are said group by group (`c on gpu01; a, b, c on gpu02`):
    a fleet stopped with hosts still queued behind --forks was "not reached: a, b, c on gpu01,
    gpu02", the steps of the hosts never started said of those that had run a and b."""
    groups = steps_not_reached(record)
    if not groups:
        return ""
    if len(groups) == 1:
        hosts = groups[0]["hosts"]
        where = "" if len(hosts) == len(record.hosts) else f" on {some_names(hosts)}"
        return f"not reached: {some_names(groups[0]['steps'])}{where}"
    said = [f"{some_names(group['steps'])} on {some_names(group['hosts'])}" for group in groups[:_GROUPS_SAID]]
    if len(groups) > _GROUPS_SAID:
        rest = sum(len(group["hosts"]) for group in groups[_GROUPS_SAID:])
        said.append(f"other steps on {rest} more host(s)")
    return f"not reached: {'; '.join(said)}"


# The groups of hosts not_reached_words says one by one (a fleet cut at many different steps
# keeps the verdict one line; the reports' list names every host's).
_GROUPS_SAID = 3


def _verdict(record: RunRecord) -> tuple[str, str]:
    errors = [f for f in record.findings if f.severity == "error"]
    unreachable = [h.name for h in record.hosts if h.status == "error"]
    if record.status == "aborted":
        # The steps that never ran, named: "the record holds the steps that finished" over a
        # table of two steps read as a playbook of two steps.
        missed = not_reached_words(record)
        return "aborted", (f"Run aborted ({record.abort_reason or 'interrupted'}); the record holds the steps that finished"
                           + (f"; {missed}." if missed else "."))
    if record.status == "running":
        # The final write never happened: the controller was killed (SIGKILL, OOM, a closed
        # laptop), hit a second Ctrl-C, or is still running. Never call such a record clean.
        why = f" after {record.abort_reason}" if record.abort_reason else ""
        # HostRecord.running_step: the step each host was in at the last write, cut by the stop
        # and in no table of the report; its command may still be running on the host.
        cut = [f"{h.running_step} on {h.name}" for h in record.hosts if h.running_step]
        return "aborted", (
            f"Run did not finish{why}: the controller stopped before its final write (or is still running); "
            f"the record holds the {len(record.steps)} step(s) that finished."
            + (f" Cut mid-step: {some_names(cut)} (its command may still be running there)." if cut else "")
            + (f" {missed[0].upper()}{missed[1:]}." if (missed := not_reached_words(record)) else "")
        )
    unfinished = [h.name for h in record.hosts if h.status in ("pending", "running")]
    if unfinished:
        return "error", f"{len(unfinished)} host(s) stopped without a result: {some_names(unfinished)}."
    if unreachable:
        # The hosts that did run may have failed checks too: said here, a fleet's banner (and a
        # CI job's summary title) named only the unreachable hosts, and a wrong launch flag on
        # the others read as if those were fine.
        out = set(unreachable)
        ran = [f for f in errors if f.host not in out]
        also = (f" The hosts that ran have {len(ran)} error finding(s): "
                f"{some_names(list(dict.fromkeys(f'{f.code} {f.title}' for f in ran)))}.") if ran else ""
        return "error", f"{len(unreachable)} host(s) could not be checked: {some_names(unreachable)}.{also}"
    if errors:
        codes = some_names(list(dict.fromkeys(f"{f.code} {f.title}" for f in errors)))
        return "failed", f"{len(errors)} error finding(s): {codes}."
    unknown = _unknown_states(record)
    if unknown:
        # A status or severity from a newer spec-debug: this version cannot tell whether it is
        # good news, so it never calls the run clean (the report shows each as written).
        return "warning", f"Not judged: this spec-debug does not know {some_names(unknown, 3)}; review them below."
    warnings = [f for f in record.findings if f.severity == "warning"]
    if all_skipped(record):
        # Every step skipped (vars not given, when: false): nothing was looked at, which is not
        # the same as nothing found.
        reasons = list(dict.fromkeys(s.message or "skipped" for s in record.steps))
        return "warning", f"Nothing was checked: all {len(record.steps)} step(s) were skipped ({some_names(reasons, 2)})."
    if no_step_answered(record):
        # Every step could not run, timed out or was skipped: "No errors; 7 warning(s) to review"
        # over a host whose Python is missing (each probe its own SD003) read as a clean bill.
        tally = ", ".join(f"{n} {_NO_ANSWER[status]}" for status in _NO_ANSWER
                          if (n := sum(1 for s in record.steps if s.status == status)))
        first = next(s for s in record.steps if s.status != "skipped")
        return "warning", (f"Nothing was checked: no step ran to an answer ({tally}); "
                           f"first, {first.id}: {_clipped(first.message or first.status)}")
    if warnings:
        unchecked = nothing_checked(record)
        also = f" {unchecked[0].upper()}{unchecked[1:]}." if unchecked else ""
        return "warning", f"No errors; {len(warnings)} warning(s) to review.{also}"
    return "passed", "Clean: no error or warning findings."


# The statuses of a step that gave no answer about the host, as the verdict counts them.
_NO_ANSWER = {"error": "could not run", "timeout": "timed out", "skipped": "skipped"}


def all_skipped(record: RunRecord) -> bool:
    """Whether the run has steps and every one was skipped (vars not given, `when:` false)."""
    return bool(record.steps) and all(s.status == "skipped" for s in record.steps)


def no_step_answered(record: RunRecord) -> bool:
    """Whether the run has steps and none gave an answer about a host (passed or failed)."""
    return bool(record.steps) and all(s.status in _NO_ANSWER for s in record.steps)


def unchecked_hosts(record: RunRecord) -> list[str]:
    """The hosts where a step could not run or timed out and no step gave an answer: their
    findings are warnings at most, so they "passed", though nothing on them was looked at. A
    host whose steps were all skipped by design (`when:` for another group) is not one."""
    statuses: dict[str, set[str]] = defaultdict(set)
    for step in record.steps:
        statuses[step.host].add(step.status)
    return [h.name for h in record.hosts
            if statuses[h.name] <= _NO_ANSWER.keys() and statuses[h.name] & {"error", "timeout"}]


def nothing_checked(record: RunRecord) -> str | None:
    """"nothing was checked ..." where the whole run, or a host of it, gave no answer; else None."""
    if all_skipped(record):
        if record.status == "aborted":
            # `run --step` answered s then q: the record holds the steps reached, not the
            # playbook; "every step was skipped" was said of a run whose later steps never came up
            return (f"nothing was checked: {len(record.steps)} step(s) skipped, then the run stopped"
                    if len(record.steps) > 1 else "nothing was checked: 1 step skipped, then the run stopped")
        return "nothing was checked: every step was skipped"
    if no_step_answered(record):
        return "nothing was checked: no step ran to an answer"
    unchecked = unchecked_hosts(record)
    return f"nothing was checked on {some_names(unchecked)}: no step ran to an answer" if unchecked else None


def _clipped(text: str, limit: int = 240) -> str:
    """A step's message within the one-line verdict."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _unknown_states(record: RunRecord) -> list[str]:
    """The statuses and severities this version does not know, each with where it is."""
    found: list[str] = []
    if not known_value(RunRecord, "status", record.status):
        found.append(f"the run status {record.status!r}")
    for what, model, items, name in (
        ("host", HostRecord, record.hosts, lambda h: h.name),
        ("step", StepRecord, record.steps, lambda s: f"{s.host}/{s.id}"),
    ):
        for status in dict.fromkeys(i.status for i in items if not known_value(model, "status", i.status)):
            names = [name(i) for i in items if i.status == status]
            found.append(f"{what} status {status!r} ({some_names(names, 2)})")
    for severity in dict.fromkeys(f.severity for f in record.findings if not known_value(Finding, "severity", f.severity)):
        codes = list(dict.fromkeys(f.code for f in record.findings if f.severity == severity))
        found.append(f"severity {severity!r} ({some_names(codes, 2)})")
    return found


def host_rank(record: RunRecord) -> Callable[[str | None], int]:
    """A host's place in the run's host list (the inventory's order), for sorting by host: by
    name, gpu10 came before gpu2 and a fleet's tables were in an order no inventory has. A
    finding of no host, or of one the list lacks, comes after the run's hosts."""
    ranks = {host.name: index for index, host in enumerate(record.hosts)}
    return lambda name: ranks.get(name, len(ranks)) if name is not None else len(ranks) + 1


def fleet_summary(record: RunRecord) -> list[dict[str, Any]]:
    """Which hosts share each finding code (a fleet's common cause stands out)."""
    hosts_by_code: dict[str, set[str]] = defaultdict(set)
    first: dict[str, Finding] = {}
    for finding in record.findings:
        hosts_by_code[finding.code].add(finding.host or "-")
        first.setdefault(finding.code, finding)
    rank = host_rank(record)
    rows = [
        {"code": code, "severity": first[code].severity, "title": first[code].title,
         "hosts": sorted(hosts, key=lambda name: (rank(None if name == "-" else name), name))}
        for code, hosts in hosts_by_code.items()
    ]
    return sorted(rows, key=lambda r: (-severity_rank(r["severity"]), r["code"]))


def timeline(record: RunRecord) -> list[dict[str, Any]]:
    start = _parse_time(record.started_at)
    rows = []
    for step in record.steps:
        at = _parse_time(step.started_at)
        offset = (at - start).total_seconds() if at and start else None
        rows.append({"offset_s": offset, "host": step.host, "id": step.id, "status": step.status, "duration_s": step.duration_s})
    return sorted(rows, key=lambda r: (r["offset_s"] is None, r["offset_s"] or 0.0))


def step_links(record: RunRecord) -> dict[str, dict[str, dict[str, str | None]]]:
    """Per host and step id, the anchors a finding links to: its row in the Steps table and its
    raw output in the appendix (None where the step printed nothing, so the appendix has none).
    Numbered by position: host names and step ids may hold characters an id cannot."""
    links: dict[str, dict[str, dict[str, str | None]]] = {}
    for number, step in enumerate(record.steps, 1):
        links.setdefault(step.host, {}).setdefault(step.id, {
            "step": f"step-{number}", "output": f"output-{number}" if step.stdout or step.stderr else None})
    return links


def report_view(record: RunRecord) -> dict[str, Any]:
    verdict_class, verdict_text = verdict(record)
    rank = host_rank(record)
    findings = sorted(record.findings, key=lambda f: (-severity_rank(f.severity), f.code, rank(f.host), f.host or ""))
    # The known severities always (templates index them), then any a newer spec-debug wrote.
    by_severity: dict[str, list[Finding]] = {sev: [] for sev in ("error", "warning", "info")}
    for finding in findings:
        by_severity.setdefault(finding.severity, []).append(finding)
    severities = sorted(by_severity, key=lambda sev: (-severity_rank(sev), sev))
    start, end = _parse_time(record.started_at), _parse_time(record.finished_at)
    # One pass over the findings (a loop per host was hosts x findings: 2,000 x 20,000 in a fleet).
    host_findings: dict[str, dict[str, int]] = {host.name: {"error": 0, "warning": 0, "info": 0} for host in record.hosts}
    for finding in record.findings:
        counts = host_findings.get(finding.host) if finding.host is not None else None
        if counts is not None:
            counts[finding.severity] = counts.get(finding.severity, 0) + 1
    return {
        "verdict_class": verdict_class,
        "verdict_text": verdict_text,
        "findings_sorted": findings,
        "findings_by_severity": by_severity,
        "severities": severities,
        "reading_notes": record.reading_notes,
        "output_limit": output_limit([len(text) for step in record.steps for text in (step.stdout, step.stderr) if text]),
        # a fix quoting a captured fact (`remediation: "shorten {{ facts.line }}"`) is cut as its
        # evidence is: one 100,000-character **Fix:** line per finding
        "fix_limit": FIX_LIMIT,
        "evidence_limit": evidence_limit(record.findings),
        "command_limit": command_limit(record),
        "duration_s": (end - start).total_seconds() if start and end else None,
        "fleet": fleet_summary(record),
        "timeline": timeline(record),
        "host_findings": host_findings,
        "charts": _charts(record),
        "not_copied": not_copied(record),
        "unreachable": unreachable_hosts(record),
        # The fleet table's cause for a host that "passed" with no step run to an answer.
        "unchecked": set(unchecked_hosts(record)),
        # each names the host or jump host it is about: one jump host's, recorded on every host
        # of a fleet behind it, is said once
        "host_warnings": list(dict.fromkeys(warning for host in record.hosts for warning in host.warnings)),
        "artifacts": artifact_rows(record),
        # each finding links to its step's row and its raw output
        "step_links": step_links(record),
        "not_reached": steps_not_reached(record),
    }


UNREACHABLE_SHOWN = 10
"""Hosts listed with their cause at the top of a report; the fleet summary lists them all."""

# The options of `spec-debug run` that say how hosts are reached, where runs go and how much of
# each output a run keeps: kept in the retry command. The limits were left out, and a run given
# `--artifact-limit 0` (keep all) was retried at the 256M default: the log it came back for was
# cut. --var values are left out: they are reused from run.json by --retry-failed (run.json
# masks secrets, and a masked value passed back would be used as the secret). A --var-file is
# kept: it is where a secret is kept out of shell history, and the retry, left without it, stopped
# with "the value of hf_token was masked ...; pass it again".
_REACH_OPTIONS = {"--inventory", "-i", "--ssh-config", "-F", "--known-hosts", "--connect-timeout", "--out", "-o",
                  "--capture-limit", "--artifact-limit", "--var-file"}
_REACH_FLAGS = {"--accept-new", "--batch"}


def unreachable_hosts(record: RunRecord) -> dict[str, Any]:
    """The hosts that could not be checked (status error: unreachable, refused the login, dropped
    mid-run), each with its cause, and the command that re-runs only them. In a fleet the verdict
    named them, but their cause sat in the fleet table under every finding of the hosts that
    ran: the reader of the top of a report did not see why, nor how to retry."""
    # The hint too (set USER, ssh-keygen -R ...): a host stopped by an error that is no
    # connection failure (no SD005 finding carries it) had its how-to-fix in run.json alone.
    hosts = [{"name": h.name, "cause": h.error or "no cause recorded", "hint": h.hint}
             for h in record.hosts if h.status == "error"]
    return {"hosts": hosts[:UNREACHABLE_SHOWN], "more": max(0, len(hosts) - UNREACHABLE_SHOWN),
            "retry": _retry_command(record) if hosts else None}


def _retry_command(record: RunRecord) -> str:
    program, args = split_program(list(record.command_line))
    args = args if args[:1] == ["run"] else []
    kept: list[str] = []
    out = "runs"
    index = 1
    while index < len(args):
        arg = args[index]
        name, eq, value = arg.partition("=")
        if name in _REACH_OPTIONS and eq:
            pair = [name, value]
        elif arg in _REACH_OPTIONS and index + 1 < len(args):
            pair = [arg, args[index + 1]]
            index += 1
        elif not arg.startswith("--") and len(arg) > 2 and arg[:2] in _REACH_OPTIONS:
            # `-oout/x`, `-ihosts.ini`: the value attached, as click takes it. Dropped, the
            # command named `runs/<id>` for a run kept in out/x, and ran without the inventory.
            pair = [arg[:2], arg[2:]]
        elif arg in _REACH_FLAGS:
            pair = [arg]
        else:
            pair = []
        if pair[:1] and pair[0] in ("--out", "-o"):
            out = pair[1]
        kept += pair
        index += 1
    folder = f"{out.rstrip('/') or '/'}/{record.run_id}"
    playbook = playbook_argument(record.playbook.name, record.playbook.path, shipped_playbooks_dir())
    words = [*program, "run", playbook, *kept, "--retry-failed", folder]
    return " ".join(map(shell_word, words)) + _masked_vars(record, args)


def _masked_vars(record: RunRecord, args: list[str]) -> str:
    """` --var NAME="${NAME:?...}"` for each secret the run was given by --var, which run.json
    masks: without it the command as shown stopped with "the value of hf_token was masked ...;
    pass it again". Read from the environment variable of that name, upper-cased, the shell
    stops with the name to set where it is unset, rather than run with an empty key."""
    names = sorted(name for name in given_var_names(args, files_unknown=False) or ()
                   if name.isidentifier() and MASK in str(record.vars.get(name, "")))
    return "".join(f' --var {name}="${{{name.upper()}:?set {name.upper()} to the value of {name}}}"' for name in names)


def _size(value: object) -> str:
    return human_size(value) if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else "?"


def _limit_words(size: int) -> str:
    """A size as `artifact_limit` and `--artifact-limit` read it, rounded up: `300M`, `10G`."""
    mib = -(-size // 2**20)
    return f"{mib}M" if mib < 1024 else f"{-(-mib // 1024)}G"


def _entries(value: object) -> list[dict[str, Any]]:
    """The entries of a fact such as `fetch_skipped`; nothing for a value of another shape (a
    `run:` step may capture a fact of that name)."""
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


def not_copied(record: RunRecord) -> dict[str, Any]:
    """What a fetch step did not copy whole (its facts `fetch_skipped`, `fetch_cut`, and at its
    timeout `fetch_given_up`, `fetch_not_reached`) and the
    output artifacts cut at the artifact limit (StepRecord.capped_artifacts), one row each, and
    per step how to keep them. run.json and the step's message said so; the reports showed only
    the SD003 evidence, and a capped artifact nowhere, so a reader took a cut copy for whole.
    The hints are one per step, not per host: a fleet that hit the same limit gets one line."""
    rows: list[dict[str, Any]] = []
    needed: dict[str, int | None] = {}  # step id -> the fetch limit that copies what it skipped on every host
    by_disk: dict[str, None] = {}
    capped_steps: dict[str, None] = {}
    timed_out: dict[str, str] = {}  # step id -> its timeout, for a fetch step given up at it
    for step in record.steps:
        skipped, cut = _entries(step.facts.get("fetch_skipped")), _entries(step.facts.get("fetch_cut"))
        limit = step.facts.get("fetch_limit")
        limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else None
        disk_bound = set(map(str, step.facts.get("fetch_disk_bound") or [])) if isinstance(step.facts.get("fetch_disk_bound"), list) else set()
        for entry in skipped + cut:
            src = str(entry.get("src", "?"))
            what = "not copied" if "bytes" in entry else "cut: it held more than its size said (a log still written?)"
            size = _size(entry.get("bytes")) if "bytes" in entry else f"first {_size(entry.get('bytes_kept'))} kept"
            if src in disk_bound:
                what += ": the controller's disk has too little free space"
                by_disk[step.id] = None
            else:
                what += f": over the step's fetch limit of {_size(limit)}" if limit is not None else ""
                wanted = sum(e["bytes"] for e in skipped if isinstance(e.get("bytes"), int)) + limit if limit is not None else None
                known = needed.get(step.id, 0)
                needed[step.id] = None if wanted is None or known is None else max(known, wanted)
            rows.append({"host": step.host, "step": step.id, "file": src, "size": size, "what": what})
        for path, dropped in step.capped_artifacts.items():
            rows.append({"host": step.host, "step": step.id, "file": str(path), "size": f"{_size(dropped)} dropped",
                         "what": "output cut at the artifact limit: its head and end are kept, its middle dropped"})
            capped_steps[step.id] = None
        given_up = _timed_out_rows(step)
        rows += given_up
        if given_up:
            timed_out.setdefault(step.id, _timeout_words(step))
    hints = []
    for step_id, wanted in needed.items():
        example = _limit_words(wanted) if wanted else "20G"
        hints.append(f"step {step_id}: set `artifact_limit: {example}` on the step (`0` copies all), or run with `--artifact-limit {example}`")
    hints += [f"step {step_id}: free space on the controller's disk, or pass `--out DIR` on a bigger one" for step_id in by_disk]
    hints += [f"step {step_id}: set `artifact_limit:` on the step (`0` keeps all) or run with `--artifact-limit`"
              for step_id in capped_steps if step_id not in needed]
    hints += [f"step {step_id}: its {timeout} ran out: raise `timeout:` on the step, or fetch a file from a slow or hung mount "
              "in a step of its own" for step_id, timeout in timed_out.items()]
    return {"rows": rows, "hints": hints}


def _timeout_words(step: StepRecord) -> str:
    timeout = step.facts.get("fetch_timeout")
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        return f"timeout of {timeout:g} s"
    return "timeout"  # a record written before the fact


def _timed_out_rows(step: StepRecord) -> list[dict[str, Any]]:
    """A fetch step given up at its timeout (facts `fetch_timed_out`, `fetch_given_up`,
    `fetch_not_reached`): the copy or listing in progress then, and each source or file it never
    reached. Only the step's message named them, in one long line: a reader of the report could
    not tell that three logs were never copied. A record without these facts gets no rows."""
    if step.facts.get("fetch_timed_out") is not True:
        return []
    ran_out = f"the step's {_timeout_words(step)} ran out"
    rows: list[dict[str, Any]] = []
    given_up = step.facts.get("fetch_given_up")
    if isinstance(given_up, dict):
        if given_up.get("while") == "listing":
            size, what = "not listed", f"given up while listing its files: {ran_out}; none of them was copied"
        elif given_up.get("artifact"):
            size = f"first {_size(given_up.get('bytes_kept'))} kept"
            what = f"given up while being copied: {ran_out}; the artifact keeps what came before, marked where it ends"
        else:
            size, what = "nothing kept", f"given up while being copied: {ran_out} before a byte of it came"
        rows.append({"host": step.host, "step": step.id, "file": str(given_up.get("src", "?")), "size": size, "what": what})
    not_reached = step.facts.get("fetch_not_reached")
    for src in not_reached if isinstance(not_reached, list) else []:
        rows.append({"host": step.host, "step": step.id, "file": str(src), "size": "not reached",
                     "what": f"never copied: {ran_out} before its copy began"})
    return rows


def artifact_href(path: str) -> str | None:
    """A link to an artifact relative to the run folder (where report.html sits), or None for
    a path that is not one: absolute, `..`, or `//host` (a record is anyone's file, and a link
    must not lead out of the run folder)."""
    parts = PurePosixPath(path).parts
    if not path or path.startswith(("/", "\\")) or ".." in parts or "\\" in path or not path.isprintable():
        return None
    return quote(path, safe="/")


def artifact_rows(record: RunRecord) -> list[dict[str, Any]]:
    """Each step's artifacts with a link and, next to it, what the copy lacks."""
    rows = []
    for step in record.steps:
        cut = {str(e.get("artifact")): e for e in _entries(step.facts.get("fetch_cut"))}
        given_up = step.facts.get("fetch_given_up")
        for path in step.artifacts:
            note = ""
            if path in step.capped_artifacts:
                note = f"cut at the artifact limit: {_size(step.capped_artifacts[path])} dropped from its middle"
            elif path in cut:
                note = f"only the first {_size(cut[path].get('bytes_kept'))} of {cut[path].get('src', 'the file')}: it held more"
            elif isinstance(given_up, dict) and given_up.get("artifact") == path:
                note = (f"only the first {_size(given_up.get('bytes_kept'))} of {given_up.get('src', 'the file')}: "
                        "its copy was given up at the step's timeout")
            rows.append({"host": step.host, "step": step.id, "path": path, "href": artifact_href(path), "note": note})
    return rows


OUTPUT_BUDGET = 6_000_000
"""Characters of raw output one report shows in all. Each stream is clipped to 20,000 (head and
tail) by itself, and a fleet run (200 hosts x 30 steps of pip lists and server logs) made a
123 MB report.html that a browser hangs on; run.json keeps every byte."""
OUTPUT_CEILING = 20_000


def output_limit(lengths: list[int], budget: int = OUTPUT_BUDGET) -> int:
    """The characters each output stream keeps so that all of them fit the budget: short outputs
    are shown whole and the long ones share what is left alike (the water level over the
    lengths), at most OUTPUT_CEILING each. The budget is a bound, not a wish: a floor of 2,000
    per stream made it one as soon as a run had more than budget / 2,000 long streams (200 hosts
    x 30 steps of logs: 12 million characters of output for a budget of 6 million; 25,000
    findings quoting their stdout: 50 million for 2 million), so a fleet's streams keep less
    than 2,000 each, still their head and their tail."""
    if sum(min(n, OUTPUT_CEILING) for n in lengths) <= budget:
        return OUTPUT_CEILING
    left, ordered = budget, sorted(lengths)
    for index, length in enumerate(ordered):
        share = left // (len(ordered) - index)
        if length > share:
            return min(OUTPUT_CEILING, share)
        left -= length
    return OUTPUT_CEILING


EVIDENCE_BUDGET = 2_000_000
"""Characters of findings' evidence one report shows in all, shared as the raw outputs share
OUTPUT_BUDGET. Each finding's evidence was cut to 20,000 by itself and nothing bounded the sum:
`evidence: ["{{ stdout }}"]` on 100 hosts x 10 steps was 20 MB of report; run.json keeps it whole."""


def evidence_limit(findings: list[Finding]) -> int:
    """The characters each finding's evidence keeps (output_limit over EVIDENCE_BUDGET): short
    evidence whole, long evidence its head and tail."""
    return output_limit([len("\n".join(f.evidence)) for f in findings if f.evidence], EVIDENCE_BUDGET)


COMMAND_BUDGET = 2_000_000
"""Characters of step commands one report shows in all. Each was cut to 20,000 by itself: a
10,000-character inline script run on 100 hosts x 10 steps was 10 MB of report.md; run.json keeps
each command whole."""


def command_limit(record: RunRecord) -> int:
    """The characters each step's command keeps (output_limit over COMMAND_BUDGET): short
    commands whole, long ones their head and tail."""
    return output_limit([len(step.command) for step in record.steps if step.command], COMMAND_BUDGET)


def _charts(record: RunRecord) -> dict[str, Any]:
    """Numbers worth a picture, found in the facts by their contract names."""
    charts: dict[str, Any] = {}
    for host, facts in record.facts.items():
        measured, baseline = facts.get("measured_tok_s"), facts.get("baseline_tok_s")
        if _drawable(measured) and _drawable(baseline) and "throughput" not in charts:
            predicted = facts.get("predicted_tok_s")
            bars = [("baseline (no spec)", float(baseline)), ("measured", float(measured))]
            if _drawable(predicted):
                bars.append(("predicted (fixed)", float(predicted)))
            charts["throughput"] = {"host": host, "bars": bars}
        acceptance = facts.get("full_accuracy") or facts.get("target_acceptance")
        if isinstance(acceptance, list) and "acceptance" not in charts:
            # One bar per draft position k; a position with no number (NaN: no rows reached it)
            # keeps its place, without a bar.
            values = [float(v) if _drawable(v) and v <= 1 else None for v in acceptance]
            if any(v is not None for v in values):
                charts["acceptance"] = {"host": host, "values": values}
    return charts


def _drawable(value: Any) -> bool:
    """A number a bar can show: a benchmark that failed measures NaN (0/0) or inf, a
    percentage (74.2) is not a fraction, and a negative throughput is an error code; drawn,
    they gave bars of width "nan" or 7,000 px tall over the page. The facts table still
    lists them as they were captured."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
