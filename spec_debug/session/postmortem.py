"""A blameless postmortem from a :class:`SessionAnalysis`, rendered with the
``postmortem.md.j2`` / ``postmortem.html.j2`` templates.

Sections follow the Google SRE book's example postmortem (Appendix D: summary, impact, root
causes, detection, lessons learned, action items, timeline) and PagerDuty's template
(PagerDuty/incident-response-docs ``docs/after/post_mortem_template.md``); the wording is
blameless (what happened and how, never who). Every claim carries the ``[msg N]`` it comes
from, linked to a "Supporting information" entry.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any, Literal

from markupsafe import Markup, escape

from spec_debug.counted import counted
from spec_debug.redact import redact_text, redact_value
from spec_debug.report.render import make_environment
from spec_debug.session.analysis import PIVOT_WINDOW, SessionAnalysis, not_up_yet
from spec_debug.session.baselines import BaselineBook, Row, launched_model, reading_row
from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.distill import in_time_order, select_commands, trigger_said
from spec_debug.session.events import MAIN_AGENT
from spec_debug.session.failures import NOT_RUN, WORDED_KINDS, error_said, failure_said, summary_said
from spec_debug.session.file_edits import FileEdit
from spec_debug.session.formats.common import only_attachments
from spec_debug.session.formats.instants import instant
from spec_debug.session.host_changes import changes_host, redeploys, starts_service
from spec_debug.session.records import CommandRecord, ErrorRecord, LoopRecord, MetricRecord, PivotRecord
from spec_debug.session.reverts import Reverts, rolls_back, switches_source
from spec_debug.session.segments import COMPACTION_TITLE
from spec_debug.session.shell import _LAUNCH as _LAUNCH_WORDS
from spec_debug.session.shell import CATEGORY_TITLES, note_variables
from spec_debug.session.shell import split_words
from spec_debug.session.shell import template as command_template
from spec_debug.session.shell_words import simple_commands
from spec_debug.session.version_checks import checked_packages, installed_packages, pinned_versions

_MSG_REF = re.compile(r"\[msg (\d+)\]")
_REVERTED_AT = " was reverted at [msg "


def _then_space(text: str) -> str:
    return f"{text} " if text else ""


def _in_sentence(title: str) -> str:
    """A kind's title inside a sentence: its first letter lower, the names in it as written
    ("checking the GPUs", "running Python"; was "checking the gpus", "running python")."""
    return title[:1].lower() + title[1:]


def _said_once(lines: list[str]) -> list[str]:
    """Evidence lines with the same words once, with each message that said them: a sub-agent's
    last message and the main agent's Task result that hands it over hold one text ("[msg 62]
    Found it. d2t holds ..." and "[msg 153] Found it. d2t holds ...", two root-cause bullets
    alike); it is "[msg 62] [msg 153] Found it. ..." now."""
    out: list[str] = []
    at: dict[str, int] = {}
    for line in lines:
        m = _LEADING_MSG.match(line)
        if m is None or m.end() == len(line):
            out.append(line)
            continue
        words = line[m.end():]
        if words in at:
            k = at[words]
            out[k] = out[k][:-len(words)] + m.group(0) + words
        else:
            at[words] = len(out)
            out.append(line)
    return out


_LEADING_MSG = re.compile(r"(?:\[msg \d+\] )+")


def _first_msg(line: str) -> int:
    """The seq of a line's first [msg N] (lines without one last)."""
    m = _MSG_REF.search(line)
    return int(m.group(1)) if m else 1 << 62
TIMELINE_LIMIT = 200
SYMPTOM_CODES = frozenset({"SD501", "SD502", "SD503"})
"""Codes that describe the damage, not its cause: shown under detection and impact."""
_WAITING = frozenset({"health", "gpu_status", "process", "logs"})
"""Kinds of command that poll for a state (a server coming up, a GPU freeing): a loop of
them is waiting, not retrying a crash."""
_IMPACT_METRICS = ("throughput", "accept_length", "accept_rate", "standalone_accuracy", "validation_accuracy")
# the metrics whose readings at another batch size, model or load are not compared (_same_row)
_LOAD_METRICS = frozenset(("throughput", "accept_length", "accept_rate"))


def render_postmortem(analysis: SessionAnalysis, fmt: Literal["md", "html"], redact: bool = True) -> str:
    env = make_environment()
    env.filters["msg_links_md"] = _links_md
    env.filters["msg_links_html"] = _links_html
    env.filters["reading"] = _reading
    env.filters["counted"] = counted
    template = env.get_template(f"postmortem.{fmt}.j2")
    analysis, several = _one_numbering(in_time_order(analysis))
    view = postmortem_view(analysis)
    if several:
        return _session_refs(_render(template, view, redact))
    return _render(template, view, redact)


def _render(template: Any, view: dict[str, Any], redact: bool) -> str:
    # A postmortem is pasted into channels and wikis; the session quoted tokens as they were
    # typed (export HF_TOKEN=hf_..., curl -H "Authorization: Bearer ..."). Same rules as run.json.
    segments = view.pop("segments")
    if not redact:
        return template.render(**view, segments=segments)
    segments = [replace(seg, title=redact_text(seg.title)) for seg in segments]
    return template.render(**redact_value(view), segments=segments)


_SESSION_STRIDE = 10 ** 12
"""Message numbers of the k-th session are shifted by k times this while the postmortem is
built (no session has that many records), so that [msg 5] of two sessions stay apart."""
_SHIFTED_REF = re.compile(r"\[msg (\d{13,})\]")
_SHIFTED_ANCHOR = re.compile(r"\bmsg-(\d{13,})\b")


def _one_numbering(a: SessionAnalysis) -> tuple[SessionAnalysis, bool]:
    """The analysis of a folder of sessions with one numbering for all of them. Each session
    counts its messages from 0, so a folder of two had two [msg 5], one anchor, and a
    supporting entry that mixed one session's finding with the other's file and line."""
    order = {s.get("id"): k for k, s in enumerate(a.sessions, 1)}
    if len(order) < 2:
        return a, False

    def off(session: str) -> int:
        return order.get(session, 0) * _SESSION_STRIDE

    def up(seq: int | None, session: str) -> int | None:
        return None if seq is None else seq + off(session)

    def text(value: str, session: str) -> str:  # a [msg N] the analysis wrote into a text
        return _MSG_REF.sub(lambda m: f"[msg {int(m.group(1)) + off(session)}]", value)

    return replace(
        a,
        sessions=[{**s, "interrupted_seqs": [up(q, s.get("id")) for q in s.get("interrupted_seqs", ())]}
                  for s in a.sessions],
        prompts=[replace(p, seq=up(p.seq, p.session)) for p in a.prompts],
        commands=[replace(c, seq=up(c.seq, c.session), result_seq=up(c.result_seq, c.session)) for c in a.commands],
        errors=[replace(e, seq=up(e.seq, e.session), command_seq=up(e.command_seq, e.session)) for e in a.errors],
        metrics=[replace(m, seq=up(m.seq, m.session)) for m in a.metrics],
        findings=[replace(f, seq=up(f.seq, f.session), evidence=[text(e, f.session) for e in f.evidence],
                          evidence_seqs=[up(q, f.session) for q in f.evidence_seqs],
                          read_seqs=[up(q, f.session) for q in f.read_seqs]) for f in a.findings],
        pivots=[replace(p, seq=up(p.seq, p.session), trigger_seq=up(p.trigger_seq, p.session),
                        summary=text(p.summary, p.session)) for p in a.pivots],
        loops=[replace(lp, first_seq=up(lp.first_seq, lp.session), last_seq=up(lp.last_seq, lp.session))
               for lp in a.loops],
        hypotheses=[replace(h, seq=up(h.seq, h.session), outcome_seq=up(h.outcome_seq, h.session))
                    for h in a.hypotheses],
        segments=[replace(g, start_seq=up(g.start_seq, g.session), end_seq=up(g.end_seq, g.session),
                          title=text(g.title, g.session)) for g in a.segments],
        file_edits=[replace(e, seq=up(e.seq, e.session)) for e in a.file_edits],
        versions_seen=[replace(v, seq=up(v.seq, v.session)) for v in a.versions_seen],
    ), True


def _session_refs(rendered: str) -> str:
    """The shifted numbers back as "[msg k:N]" (message N of the k-th session listed) and
    anchors ``msg-k-N``."""
    rendered = _SHIFTED_REF.sub(lambda m: "[msg {}:{}]".format(*divmod(int(m.group(1)), _SESSION_STRIDE)), rendered)
    return _SHIFTED_ANCHOR.sub(lambda m: "msg-{}-{}".format(*divmod(int(m.group(1)), _SESSION_STRIDE)), rendered)


def _reading(value: Any) -> str:
    """A reading as the summary writes it ({:g}): the report's 3 significant digits made
    2345.6 tok/s "2.35e+03" and 54.85 "54.9" beside a summary that says 54.85."""
    return f"{value:g}" if isinstance(value, float) else str(value)


_TICKS = re.compile(r"`+")
_UNDERSCORE_EDGE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_ENTITY = re.compile(r"&(?=#?\w+;)")


def _code_spans(text: str) -> list[tuple[bool, str]]:
    """``text`` cut where CommonMark 0.31 (section 6.1) reads code spans: a run of n backticks
    opens one that the next run of exactly n closes; a run without such a closer is literal.
    Each part is (is_code, text), a code part with its delimiters."""
    parts, pos = [], 0
    runs = list(_TICKS.finditer(text))
    k = 0
    while k < len(runs):
        opener = runs[k]
        closer = next((j for j in range(k + 1, len(runs)) if len(runs[j].group()) == len(opener.group())), None)
        if closer is None:
            k += 1
            continue
        parts.append((False, text[pos:opener.start()]))
        parts.append((True, text[opener.start():runs[closer].end()]))
        pos, k = runs[closer].end(), closer + 1
    parts.append((False, text[pos:]))
    return parts


def _code_text(span: str) -> str:
    """What a code span shows: its delimiters off, and the one space each side that pads a
    span starting or ending with a backtick."""
    inner = span.strip("`")
    if len(inner) > 2 and inner[0] == inner[-1] == " " and inner.strip(" "):
        inner = inner[1:-1]
    return inner


def _code(text: str) -> str:
    """``text`` as one inline code span whatever it holds: a command with backticks in it
    (kill -0 `cat x.pid`) needs a longer delimiter than its own (CommonMark 0.31 section 6.1)."""
    ticks = "`" * (max((len(r) for r in _TICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _md_text(text: str) -> str:
    """Plain text that Markdown shows as typed. Transcripts are full of what Markdown reads as
    markup: `__init__.py` in every traceback (bold "init"), `*` in globs, `[...]` in lists and
    `<` in shell redirections and HTML (an HTML comment hides the rest of the postmortem,
    CommonMark 0.31 section 4.6). An underscore inside a word cannot open emphasis and is left
    alone, so `hidden_states` stays readable in the source."""
    for char in ("\\", "*", "[", "]", "<", "|", "`"):
        text = text.replace(char, "\\" + char)
    text = _UNDERSCORE_EDGE.sub(lambda _m: "\\_", text)
    return _ENTITY.sub(lambda _m: "\\&", text)


def _links_md(text: Any, cell: bool = False) -> str:
    """Transcript text as one line of Markdown, its [msg N] as links and its code spans kept.
    In a table cell (``cell``) a ``|`` is escaped inside code spans too, which GFM tables undo;
    elsewhere an escape inside a code span would be shown as typed."""
    out = []
    for is_code, part in _code_spans(" ".join(str(text if text is not None else "").splitlines())):
        if is_code:
            out.append(part.replace("|", "\\|") if cell else part)
            continue
        for i, piece in enumerate(_MSG_REF.split(part)):
            out.append(f"[[msg {piece}]](#msg-{piece})" if i % 2 else _md_text(piece))
    return "".join(out)


def _links_html(text: Any) -> Markup:
    out = []
    for is_code, part in _code_spans(str(text if text is not None else "")):
        if is_code:
            out.append(f"<code>{escape(_code_text(part))}</code>")
        else:
            out.append(_MSG_REF.sub(lambda m: f'<a href="#msg-{m.group(1)}">[msg {m.group(1)}]</a>', str(escape(part))))
    return Markup("".join(out))


def postmortem_view(a: SessionAnalysis) -> dict[str, Any]:
    """Everything the templates show, as plain data; each claim text names its [msg N]."""
    a = in_time_order(a)
    # A blank prompt (a bare Enter) or a screenshot pasted alone ("[Image #1]") reports nothing
    main_prompts = [p for p in a.prompts if p.agent == MAIN_AGENT and p.text.strip() and not only_attachments(p.text)]
    first_prompt = main_prompts[0] if main_prompts else None
    errors_found = [f for f in a.findings if f.severity == "error" and f.code not in SYMPTOM_CODES]
    reverts = Reverts(a.commands)
    impact = _impact(a, reverts)
    if first_prompt:
        # A report pasted as Markdown opens with its own heading ("# Ticket #161: ..."): the
        # template's heading already gives the level, so its marks would show as text.
        title = _short(_MD_HEADING_MARKS.sub("", first_prompt.text, count=1), 90)
    elif errors_found:  # a shell log has no report typed into it: what was found names the incident
        title = errors_found[0].title
    else:
        title = "Session " + ", ".join(str(s.get("id")) for s in a.sessions[:3]) if a.sessions else "Session analysis"

    summary = []
    if first_prompt:
        which = "The session" if len(a.sessions) <= 1 else "The first session"  # (in time order)
        summary.append(f"{which} started from this report [msg {first_prompt.seq}]: “{_short(first_prompt.text, 300)}”")
    n_agents = len(a.agents)
    summary.append(f"{counted(a.stats.get('events', 0), 'event')} from {counted(len(a.sessions), 'session')} and "
                   f"{counted(n_agents, 'agent')}: {counted(a.stats.get('tool_calls', 0), 'tool call')}, "
                   f"{counted(a.stats.get('errors', 0), 'error')}, "
                   f"{counted(len(a.pivots), 'change of approach', 'changes of approach')}, "
                   f"{counted(len(a.findings), 'coded finding')}.")
    if errors_found:
        summary.append("Root causes found: " + "; ".join(f"{f.code} {f.title} [msg {f.seq}]" for f in errors_found) + ".")
    tput = impact.get("throughput")
    stated = bool(tput) and not any(m.name == "throughput" and not m.baseline and m.source == "output"
                                    for m in a.metrics)
    if tput:
        # the host said where several were measured: the headline is the last one's alone
        on = f" on {tput['host']}" if tput["host"] and sum(r["name"] == "throughput" for r in impact["rows"]) > 1 else ""
        if tput["readings"] == 1:  # one reading is no change: "went from 54.8 to 54.8" says it was measured twice
            # one number of the report or a notes file alone (_impact's fallback to them) was no measurement
            how = "stated, not measured in the session" if stated else "measured once"
            line = f"Throughput{on} was {how}: {tput['after']:g} tok/s [msg {tput['after_seq']}]"
            if tput["other_loads"] and not stated:
                # read at two loads (a Decode batch log at one request, a benchmark of 256 at once):
                # "measured once" alone hid the other reading, which is no before of this one
                other = tput["other_loads"]
                shown = ", ".join(f"{o['value']:g} tok/s [msg {o['seq']}]" for o in other[:3])
                line = (f"Throughput{on} was measured once at the load of its last reading: {tput['after']:g} tok/s "
                        f"[msg {tput['after_seq']}]; {counted(len(other), 'other reading')} "
                        f"({shown}{', ...' if len(other) > 3 else ''}) {'was' if len(other) == 1 else 'were'} "
                        f"at another batch size or load, so no before and after is told")
        elif tput["before"] == tput["after"]:  # "went from 95 tok/s to 95 tok/s" told no change as one
            said = (" as reported", " as measured") if tput["before_reported"] else \
                (" first", " last") if tput["readings"] > 2 else ("", " again")
            line = (f"Throughput{on} was unchanged at {tput['after']:g} tok/s:{said[0]} [msg {tput['before_seq']}]"
                    f" and{said[1]} [msg {tput['after_seq']}]")
        else:
            said = " as reported" if tput["before_reported"] else ""
            line = (f"Throughput{on} went from {tput['before']:g} tok/s{said} [msg {tput['before_seq']}] to "
                    f"{tput['after']:g} tok/s [msg {tput['after_seq']}]")
        if impact.get("baseline"):
            b = impact["baseline"]
            line += f" against a {b['value']:g} tok/s baseline [msg {b['seq']}]"
        if tput["reverted_seq"] is not None:
            line += (f"; that reading measured {tput['reverted_change']}, which was reverted at "
                     f"[msg {tput['reverted_seq']}], and nothing was measured after the revert")
        summary.append(line + ".")
    elif impact.get("baseline"):  # "90 tok/s without speculation" and nothing measured with it
        b = impact["baseline"]
        summary.append(f"Throughput with speculation was not measured; the baseline without it is {b['value']:g} tok/s "
                       f"[msg {b['seq']}].")

    detection = []
    if first_prompt:
        detection.append(f"Reported by the user [msg {first_prompt.seq}].")
    sd501 = next((f for f in a.findings if f.code == "SD501"), None)
    if sd501:
        detection.append(f"Throughput below the no-speculation baseline: {sd501.evidence[0]}")
    loop_errors = _loop_errors(a)
    polls = _poll_errors(a, loop_errors)
    if sd501 is None and tput:
        # No baseline to compare with (an engineer's shell log): the first reading is what was
        # seen. Of the host read first (rows are in the order hosts were first read): the
        # headline row is the last host's, and a session that read the slow gpu-a, then a
        # healthy gpu-b, said "First measured throughput: 96.8 tok/s on gpu-b".
        seen = next(r for r in impact["rows"] if r["name"] == "throughput")
        host = f" on {seen['host_before']}" if seen.get("host_before") else ""
        if seen["before_reported"]:  # the user's report is the before (_reported_before)
            detection.append(f"Throughput as reported: {seen['before']:g} tok/s{host} [msg {seen['before_seq']}].")
        else:
            # the host's first reading, not the row's: a row holds the readings of one load (_same_row),
            # and a session that benchmarked at 1 request a second, then at 8, said "First measured
            # throughput: 140.2 tok/s [msg 4]" (8's) where 60.5 tok/s was measured first [msg 2]
            before = next((m for m in a.metrics if m.name == "throughput" and m.source == "output" and not m.baseline
                           and m.host == seen["host_before"]), None) if not stated else None
            before = before or next((m for m in a.metrics if m.name == "throughput" and m.source == "output"
                                     and m.seq == seen["before_seq"]), None)
            first = _first_after_changes(a, [before] if before is not None else [])
            when = f" (after the changes from [msg {first[1][0].seq}] on)" if first else ""
            value, seq = (before.value, before.seq) if before is not None else (seen["before"], seen["before_seq"])
            detection.append(f"First {'stated' if stated else 'measured'} throughput{when}: {value:g} tok/s{host} "
                             f"[msg {seq}].")
    loop_error = {id(lp): _loop_error_text(lp, loop_errors[(lp.session, lp.first_seq)]) for lp in a.loops}
    # "Connection refused" from a health check polled while the server loads is waiting, not the
    # incident's first error: name the first error that did not come from such a poll.
    # Nor is a call a hook blocked or the person refused: it never ran (failures.NOT_RUN).
    errors = [e for e in a.errors if (e.session, e.seq) not in polls and e.kind not in NOT_RUN] \
        or [e for e in a.errors if e.kind not in NOT_RUN] or a.errors
    # The agent's own failure (a 529 "Overloaded" from its API, retried) says nothing about the
    # incident: the first error a command or the work gave comes first when there is one.
    errors = [e for e in errors if e.kind != "agent_error"] or errors
    if errors:
        errors = _first_in_time(errors)
        e = errors[0]
        if (e.exception or "").endswith("ExceptionGroup") and len(errors) > 1 and errors[1].seq == e.seq:
            e = errors[1]  # the group only carries it: "unhandled errors in a TaskGroup (1 sub-exception)"
        waiting = " (while polling a service that was not up yet)" if (e.session, e.seq) in polls else ""
        detection.append(f"First error: {_error_words(e, 160, _exit_statuses(a, [e]))} [msg {e.seq}] "
                         f"({e.agent}){waiting}.")

    # a finding the user's report alone holds (each of its messages a prompt) was told, not seen
    prompt_seqs = {(p.session, p.seq) for p in a.prompts if p.agent == MAIN_AGENT}
    root_causes = [{
        "code": f.code, "severity": f.severity, "title": f.title, "seq": f.seq, "host": f.host,
        "reported": all((f.session, seq) in prompt_seqs for seq in (f.seq, *f.evidence_seqs)),
        # in the session's order: a baseline said late adds the lines of the earlier readings it
        # is compared with after the later ones ([msg 11], [msg 31], [msg 27], ...)
        "evidence": _said_once(sorted(f.evidence, key=_first_msg)), "remediation": f.remediation,
    } for f in sorted(a.findings, key=lambda f: (f.code in SYMPTOM_CODES, f.severity != "error", f.seq))]
    confirmed = [h for h in a.hypotheses if h.status == "confirmed"]

    # what prompted it, not only where (the reader saw "after [msg 45]" and went looking)
    turned_to = _turned_to(a)
    failed_at = _sub_agent_failures(a)
    went_well = [f"Changed approach after {_then_space(trigger_said(p, 100))}{_reported_at(failed_at, p)}"
                 f"[msg {p.trigger_seq}]: "
                 f"{_in_sentence(CATEGORY_TITLES[p.from_category])} → "
                 f"{turned_to.get((p.session, p.seq)) or _in_sentence(CATEGORY_TITLES[p.to_category])} "
                 f"[msg {p.seq}] ({p.agent})." for p in a.pivots]
    went_well += [f"Hypothesis confirmed [msg {h.outcome_seq}]: “{_short(h.text, 160)}” [msg {h.seq}]" for h in confirmed]
    resolution, read_before = _resolution(a, reverts)
    # a change measured again and found to help: the fix was checked, not assumed (a shell log
    # has no hypothesis to confirm, and said "nothing recognised" for a fix it measured)
    went_well += [f"The change was measured again: {line[0].lower()}{line[1:]}" for line in resolution
                  if line.startswith("Throughput rose from ") and _REVERTED_AT not in line][-1:]

    waits = {(c.session, c.seq) for c in a.commands if c.category in _WAITING}
    # a loop of commands the agent's new server refused while it loaded (a benchmark retried) waits too
    waits |= {key for key, errors in loop_errors.items() if errors and all((e.session, e.seq) in polls for e in errors)}
    loop_command = _loop_commands(a)
    went_wrong = []
    for lp in a.loops:
        command, where = loop_command[id(lp)]
        shown = _code(_short(command, 120)) + where
        if (lp.session, lp.first_seq) in waits:
            went_wrong.append(f"A poll failed {lp.count} times while waiting [msg {lp.first_seq}]…[msg {lp.last_seq}] "
                              f"({lp.agent}): {shown} — {_short(loop_error[id(lp)], 100)}")
        else:
            went_wrong.append(f"The same failing command ran {lp.count} times [msg {lp.first_seq}]…"
                              f"[msg {lp.last_seq}] ({lp.agent}): {shown} — "
                              f"{_short(loop_error[id(lp)], 100)}")
    went_wrong += _reverted_falls(a, reverts)
    kinds: dict[str, list[int]] = {}
    first: dict[str, ErrorRecord] = {}  # the first error of a kind with no exception's name that said something
    for e in a.errors:
        if (e.session, e.seq) not in polls:  # told once, by the poll's loop line above
            # a CUDA OOM raised as a plain RuntimeError is not the same failure as any other
            # RuntimeError: the kind the analyzer knows names it ("1 GPU out-of-memory error")
            by_kind = e.kind in _GENERIC_RAISED and (e.exception or "").rsplit(".", 1)[-1] in _GENERIC_NAMES[e.kind]
            key = _RAISED_AS.get(e.kind, e.kind) if by_kind else (e.exception or e.kind)
            kinds.setdefault(key, []).append(e.seq)
            if (by_kind or not e.exception) and key not in first and e.message.strip():
                first[key] = e
    # "1× exit_code [msg 6]" named no failure: the kind alone (exit_code, connection, agent_error)
    # does not say which command failed or how; an exception's name does ("1× IndexError"). A
    # kind the rest of the postmortem says in words is counted in words ("1 failed command"), and
    # its first error said as the timeline says it ("exit status 2: ls: cannot access ...")
    statuses = _exit_statuses(a, list(first.values()))
    went_wrong += [(counted(len(seqs), *_KIND_COUNTED[kind]) if kind in _KIND_COUNTED else f"{len(seqs)}× {kind}") + " "
                   + " ".join(f"[msg {s}]" for s in seqs[:5]) + ("…" if len(seqs) > 5 else "")
                   + (f" — {'the first: ' if len(seqs) > 1 else ''}{_error_words(first[kind], 120, statuses) if kind in _STATUS_SAID else _short(first[kind].message, 120)}"
                      if kind in first else "")
                   for kind, seqs in kinds.items()]
    went_wrong += [f"Hypothesis ruled out [msg {h.outcome_seq}]: “{_short(h.text, 160)}” [msg {h.seq}]"
                   for h in a.hypotheses if h.status == "ruled_out"]
    for agent in a.agents:
        if agent["id"] == MAIN_AGENT:
            if agent["status"] == "failed" and len(a.sessions) > 1:
                # of a folder: which session, and where ("Every tool call of the main session
                # failed (1)." was said once for each such session, the lines alike and unlinked)
                seqs = [e.seq for e in a.errors if e.session == agent.get("session") and e.agent == MAIN_AGENT]
                where = " " + " ".join(f"[msg {q}]" for q in seqs[:3]) + (" …" if len(seqs) > 3 else "") if seqs else ""
                went_wrong.append(f"Every tool call of session {agent.get('session')} failed "
                                  f"({agent['tool_calls']}){where}.")
            elif agent["status"] == "failed":  # the session itself, not a sub-agent it spawned
                went_wrong.append(f"Every tool call of the main session failed ({agent['tool_calls']}).")
        elif agent["status"] in ("failed", "missing", "interrupted", "running"):
            spawner = f" (spawned by {agent['spawned_by']})" if agent.get("spawned_by") else ""
            if agent["status"] == "missing":  # its transcript, not the agent: what it did is unknown
                went_wrong.append(f"Sub-agent {agent['id']}{spawner}: its transcript is missing, so what it did "
                                  "is not in this analysis.")
            elif agent["status"] == "running":  # its spawning call has no result: the session ended first
                went_wrong.append(f"Sub-agent {agent['id']}{spawner} never reported back: the session ended "
                                  "while it ran.")
            else:
                state = "was stopped by hand" if agent["status"] == "interrupted" else "failed"
                went_wrong.append(f"Sub-agent {agent['id']} {state}{spawner}.")
        elif agent["status"] == "completed" and agent.get("cut_off"):
            # the CLI's "completed" says the agent returned, not that it finished (cut_off)
            spawner = f" (spawned by {agent['spawned_by']})" if agent.get("spawned_by") else ""
            went_wrong.append(f"Sub-agent {agent['id']}{spawner} wrote no report after its last tool call (its "
                              f"transcript ends at [msg {agent['last_seq']}]), though the CLI says it completed: it "
                              "was cut off (its turn limit, its context, a stop) before it finished.")
    if a.stats.get("interrupts"):
        # where: the first few commands stopped (the analysis keeps INTERRUPTS_KEPT of each session)
        at = [q for s in a.sessions for q in s.get("interrupted_seqs", ())]
        more = " …" if len(at) < a.stats["interrupts"] or len(at) > 3 else ""
        where = " " + " ".join(f"[msg {seq}]" for seq in at[:3]) + more if at else ""
        went_wrong.append(f"A command was stopped by hand {counted(a.stats['interrupts'], 'time')}{where} while it ran.")
    if a.stats.get("compactions"):
        # where: the phase each compaction starts (segments.py titles it), as every other line
        # here names its message (was no link: the reader had to find the boundary in the timeline)
        at = [g.start_seq for g in a.segments if g.title.startswith(COMPACTION_TITLE)]
        where = " " + " ".join(f"[msg {seq}]" for seq in at[:3]) + (" …" if len(at) > 3 else "") if at else ""
        went_wrong.append(f"The context was compacted {counted(a.stats['compactions'], 'time')}{where}; "
                          "earlier details were summarised.")

    action_items = [{"action": f.remediation or f.title,
                     "type": "prevent" if f.severity == "error" and f.code not in SYMPTOM_CODES else "mitigate",
                     "source": f"{f.code} [msg {f.seq}]"}
                    for f in sorted(a.findings, key=lambda f: (f.code in SYMPTOM_CODES, f.seq))
                    if not (f.code == "SD501" and _back_above_baseline(impact))]
    for lp in a.loops:
        command, where = loop_command[id(lp)]
        shown = _code(_short(command, 80)) + where
        if (lp.session, lp.first_seq) in waits:  # polling a server that was not up yet
            action = f"Wait on a condition instead of retrying {shown}"
        else:  # the same crash again and again: retrying changes nothing
            action = (f"Read the error before re-running {shown}: it failed {lp.count} times "
                      f"with {_short(loop_error[id(lp)], 60) or 'the same error'}")
        action_items.append({"action": action, "type": "process", "source": f"loop [msg {lp.first_seq}]"})
    if select_commands(a):  # what `spec-debug distill` would keep; it refuses a session without any
        action_items.append({"action": "Turn the commands that mattered into a playbook: `spec-debug distill`",
                             "type": "process", "source": "this postmortem"})

    still_open = [h for h in a.hypotheses if h.status == "open"]
    open_questions = [f"“{_short(h.text, 200)}” [msg {h.seq}] ({h.agent}): neither confirmed nor ruled out."
                      for h in still_open[-_OPEN_SHOWN:]]
    if len(still_open) > _OPEN_SHOWN:
        open_questions.insert(0, f"{len(still_open) - _OPEN_SHOWN} earlier open hypotheses are in the JSON output "
                                 "(`hypotheses[]`, status open).")

    view = {
        "title": title,
        "sessions": a.sessions,
        "stats": a.stats,
        "hosts": a.hosts,
        "summary": summary,
        "impact": impact,
        "detection": detection,
        "root_causes": root_causes,
        "resolution": resolution,
        # the reading each rise was from, linked after the line in the rendered postmortem (the
        # line linked the after alone: "rose from 54.8 to 96.8 tok/s [msg 16]")
        "resolution_read_before": read_before,
        "went_well": went_well,
        "went_wrong": went_wrong,
        "action_items": action_items,
        "open_questions": open_questions,
        "hypotheses_said": bool(a.hypotheses),
        # no throughput read at all: "no change was followed by a rise" told an OOM incident's
        # reader that throughput was measured and did not rise
        # (nor one only stated: "a rise in measured throughput" told a report's 41 tok/s as measured)
        "throughput_read": any(m.name == "throughput" and m.source == "output" for m in a.metrics),
        # one reading is no change: "No change was followed by a rise in measured throughput"
        # told a session that benchmarked once (after its relaunch) as one whose changes did nothing
        "throughput_once": _read_once(a),
        # a row compared at one load, and the host read at another besides: the other readings
        # were in no row (a run at 64 requests between two at one left the Impact silent on it)
        "impact_not_compared": [
            f"Not in the {r['name']} row{' of ' + r['host'] if r['host'] else ''}, read at another batch size or "
            f"load: " + ", ".join(f"{o['value']:g} {o['unit']} [msg {o['seq']}]" for o in r["other_loads"]) + "."
            for r in impact["rows"] if r["readings"] > 1 and r["other_loads"]],
        "timeline": _timeline(a),
        "segments": a.segments,
        "agents": a.agents,
    }
    # Every [msg N] a claim mentions, and every timeline row, gets a supporting entry to link to.
    refs = {int(n) for n in _MSG_REF.findall(repr([summary, detection, root_causes, view["resolution"], read_before, went_well,
                                                    went_wrong, action_items, open_questions, view["timeline"],
                                                    view["impact_not_compared"]]))}
    refs.update(item["seq"] for item in view["timeline"] if item["seq"] is not None)
    view["supporting"] = _supporting(a, refs)
    return view


def _read_once(a: SessionAnalysis) -> int | None:
    """The seq of the one throughput reading with speculation a command printed, as
    :func:`_resolution` reads them; None where there are none or several."""
    readings = [m.seq for m in a.metrics if m.name == "throughput" and m.source == "output" and not m.baseline]
    return readings[0] if len(readings) == 1 else None


_OPEN_SHOWN = 10
"""Open hypotheses the postmortem lists (the last ones said): a long session guesses often."""


def _loop_commands(a: SessionAnalysis) -> dict[int, tuple[str, str]]:
    """The command each loop ran, by id(loop), and where: the command as typed when every run typed
    the same or only put another host in it (then the hosts it ran on), else the loop's template
    (with the hosts, when several). The template masks every number, and shown as the command it
    named hosts and paths that do not exist (`ssh root@N.N.N.N 'curl localhost:N/health'`,
    `pythonN`, `ssh gpuN 'cat /opt/eN/launch.sh'` for one `cat` tried on gpu01, gpu02, gpu03)."""
    if not a.loops:
        return {}
    runs: dict[tuple[str, str], list[CommandRecord]] = {}
    for c in a.commands:
        runs.setdefault((c.session, c.agent), []).append(c)
    out = {}
    for lp in a.loops:
        mine = runs.get((lp.session, lp.agent), [])
        lo = bisect_left(mine, lp.first_seq, key=attrgetter("seq"))
        hi = bisect_right(mine, lp.last_seq, key=attrgetter("seq"))
        ran = [c for c in mine[lo:hi] if command_template(c.command) == lp.template]
        if not ran:
            out[id(lp)] = (lp.template, "")
            continue
        typed = list(dict.fromkeys(c.command for c in ran))
        hosts = list(dict.fromkeys(c.host for c in ran if c.host))
        # the same command on each host: `ssh gpu01 …` with gpu02 and gpu03 put in its place
        one_per_host = len(hosts) > 1 and all(any(t == typed[0].replace(hosts[0], h) for h in hosts) for t in typed)
        where = f" on {', '.join(hosts)}" if len(hosts) > 1 else ""
        # runs that differ otherwise (`sleep 5`, `sleep 10` before one check) keep the template:
        # no one command ran that many times (test_hardening8_postmortem)
        out[id(lp)] = (typed[0] if len(typed) == 1 or one_per_host else _shared_names(typed, lp.template), where)
    return out


_NAME_DIGITS = re.compile(r"(?<=[A-Za-z_])\d|\d(?=[A-Za-z_])")
"""Digits a letter touches (python3, EAGLE3, llama31-8b, Qwen2.5-7B, sm_90): part of a name,
where a number on its own (a port, a size, an address) is a value."""
_DOTTED_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def _shared_names(typed: list[str], template: str) -> str:
    """The template of runs that differ, with the digits of a name that every run typed alike put
    back: `python3 -m sglang.launch_server … --speculative-algorithm EAGLE3 … --mem-fraction-static
    N.N` for launches that tried 0.9, 0.85, 0.8 (was `pythonN … EAGLEN`, a program and an algorithm
    that do not exist). Numbers on their own stay masked, as the template keeps them."""
    if not _NAME_DIGITS.search(typed[0]):
        return template
    runs = [" ".join(t.split()) for t in typed]
    numbers = [[(m.start(), m.group()) for m in _DOTTED_NUMBER.finditer(r)] for r in runs]
    if any(len(n) != len(numbers[0]) for n in numbers):
        return template
    first, shown, at = runs[0], [], 0
    for i, (start, digits) in enumerate(numbers[0]):
        end = start + len(digits)
        named = (start > 0 and (first[start - 1].isalpha() or first[start - 1] == "_")) \
            or (end < len(first) and (first[end].isalpha() or first[end] == "_"))
        kept = named and all(n[i][1] == digits for n in numbers)
        shown.append(first[at:start] + (digits if kept else re.sub(r"\d+", "N", digits)))
        at = end
    shown.append(first[at:])
    return "".join(shown)[:300]


def _loop_errors(a: SessionAnalysis) -> dict[tuple[str, int], list[ErrorRecord]]:
    """The errors of each loop's runs, by (session, first_seq): those of commands of the loop's
    kind, by its agent, within its span (the loop record keeps only its first error)."""
    by_seq = {(c.session, c.seq): c for c in a.commands}
    spans = []
    for lp in a.loops:
        first = by_seq.get((lp.session, lp.first_seq))
        if first is not None:
            spans.append((lp, first.category))
    out: dict[tuple[str, int], list[ErrorRecord]] = {(lp.session, lp.first_seq): [] for lp, _ in spans}
    if not spans:
        return out
    for e in a.errors:
        cmd = by_seq.get((e.session, e.command_seq)) if e.command_seq is not None else None
        if cmd is None:
            continue
        for lp, category in spans:
            if (lp.session == e.session and lp.agent == e.agent and cmd.category == category
                    and lp.first_seq <= cmd.seq <= lp.last_seq):
                out[(lp.session, lp.first_seq)].append(e)
                break
    return out


def _poll_errors(a: SessionAnalysis, loop_errors: dict[tuple[str, int], list[ErrorRecord]]) -> set[tuple[str, int]]:
    """(session, seq) of the errors printed by a loop of polls (a health check, nvidia-smi)
    that failed while a server came up, and of the commands refused by a server the agent had
    just launched (:func:`_server_loading`)."""
    waits = {(c.session, c.seq) for c in a.commands if c.category in _WAITING}
    return {(e.session, e.seq) for key, errors in loop_errors.items() if key in waits for e in errors} \
        | _server_loading(a)


def _server_loading(a: SessionAnalysis) -> set[tuple[str, int]]:
    """(session, seq) of the errors that say the server the agent had just launched was still
    loading: its port refused a command (a benchmark run at once, retried) with the launch among
    the agent's last few other commands (as analysis counts no pivot for the wait). Was the
    incident's "First error", and a loop whose action item said to read the error before
    re-running."""
    refused = [e for e in a.errors if e.command_seq is not None and not_up_yet(e)]
    if not refused:
        return set()
    failed_so = {(e.session, e.command_seq) for e in refused}
    runs: dict[tuple[str, str], list[CommandRecord]] = {}
    for c in a.commands:
        runs.setdefault((c.session, c.agent), []).append(c)
    out = set()
    for e in refused:
        mine = runs.get((e.session, e.agent), [])
        others = 0
        for c in reversed(mine[:bisect_left(mine, e.command_seq, key=attrgetter("seq"))]):
            if c.category == "launch_server":
                if c.host == e.host:  # (a refusal on another host is of another server)
                    out.add((e.session, e.seq))
                break
            if (c.session, c.seq) in failed_so:
                continue  # an earlier try refused the same way: still the same wait
            others += 1
            if others >= PIVOT_WINDOW:
                break
    return out


def _first_in_time(errors: list[ErrorRecord]) -> list[ErrorRecord]:
    """``errors`` in the order they happened. A session's records are in seq order, and a
    sub-agent's file is numbered after its parent's: the OOM a sub-agent hit at 09:20 came after
    the parent's crash at 17:31, and Detection named the crash as the first error (the timeline,
    in time order, showed the OOM first). Sessions keep their order (in_time_order); where an
    error has no time, the seq order stands."""
    times = [instant(e.timestamp) if e.timestamp else None for e in errors]
    if any(t is None for t in times):
        return errors
    rank: dict[str, int] = {}
    for e in errors:
        rank.setdefault(e.session, len(rank))
    times = _agent_clock(times, [(e.session, e.agent) for e in errors])
    order = sorted(range(len(errors)), key=lambda i: (rank[errors[i].session], times[i]))
    return [errors[i] for i in order]


def _agent_clock(times: list[float], agents: list[tuple[Any, str]]) -> list[float]:
    """Times to order by: each agent's never earlier than one before it in its messages' order
    (``times`` are in seq order within each agent). A clock set back mid-session (a session
    resumed on a host whose clock was behind, NTP stepping it) put the readings and errors after
    it first in the timeline, the fix before the report, and made an error after it Detection's
    first; an agent's own order is its messages'. Other agents still fall in place by their times."""
    latest: dict[tuple[Any, str], float] = {}
    out = []
    for t, agent in zip(times, agents):
        before = latest.get(agent)
        if before is not None and t < before:
            t = before
        else:
            latest[agent] = t
        out.append(t)
    return out


def _loop_error_text(lp: LoopRecord, errors: list[ErrorRecord]) -> str:
    """Each distinct error the loop's runs ended with, in order: a retry that fails differently
    (NameError, then UnboundLocalError once the name is bound on one path) is the same loop, and
    "failed 3 times with NameError" would be wrong of it."""
    names = list(dict.fromkeys((e.exception or e.message) for e in errors if e.exception or e.message))
    return ", ".join(names) if len(names) > 1 else lp.error


_CHANGES = frozenset({"edit", "launch_server"})
"""Kinds of command that change what is served: a patch, a config edit, a relaunch."""
_MAY_CHANGE = frozenset({"other", "inspect_config"})
"""Kinds of command that may change what is served (:func:`_other_change`): `jq ... config.json >
/tmp/c.json && mv /tmp/c.json config.json` is of kind inspect_config, by its jq."""
_HELP = re.compile(r"\s(?:--help|-h)(?:\s|$|['\"])")
RISE = 1.05
"""A throughput reading this much above the best before it is a rise, as for pivots (analysis.py)."""


def _resolution(a: SessionAnalysis, reverts: Reverts | None = None) -> tuple[list[str], list[str]]:
    """What resolved it, as the SRE book's "Resolution": each rise of the measured throughput
    and the changes made since the reading before it (TRANSCRIPTS.md section 4: "the last config
    or code change followed by a metric improvement"); and beside each line where the reading it
    rose from was read ("54.8 tok/s was read at [msg 9]."; "" where the line links it already)."""
    # in the order the sessions are listed (by time: in_time_order), not by their ids
    reverts = reverts or Reverts(a.commands)
    rank = {s.get("id"): k for k, s in enumerate(a.sessions)}
    readings = sorted((m for m in a.metrics if m.name == "throughput" and m.source == "output" and not m.baseline),
                      key=lambda m: (rank.get(m.session, len(rank)), m.seq))
    out: list[tuple[tuple[int, int], str, str]] = []
    # A rise is on one host, as in _impact; each host's own (a session that fixed gpu-a, then
    # gpu-b, told gpu-b's rise only, and credited it with gpu-a's edit as well).
    by_host = _by_host(readings)
    for on_host in by_host.values():
        out += _reported_rise(a, on_host, rank, len(by_host) == 1, reverts)
        out += _rises(a, on_host, rank, reverts)
    first = _first_after_changes(a, readings) if not out else None
    if first is not None and not _changes_before(a, _last_read(readings, first[0]), first[0].seq):
        # no rise to tell, since nothing was read before the changes: "No change in the session was
        # followed by a rise in measured throughput" said the fix did nothing. Where a change came
        # between the readings and raised nothing, that sentence is the true one.
        m, changes = first
        shown = ", ".join(f"{_change(a, c)} [msg {c.seq}]" for c in changes[-3:])
        host = f" on {m.host}" if m.host else ""
        return [f"Throughput was first measured after {shown}: {m.value:g} tok/s{host} [msg {m.seq}]; "
                "nothing was measured before the changes to compare it with."], [""]
    told = sorted(out)[-5:]
    return [line for _, line, _ in told], [before for _, _, before in told]


def _reported_rise(a: SessionAnalysis, readings: list[MetricRecord], rank: dict[Any, int],
                   one_host: bool, reverts: Reverts) -> list[tuple[tuple[int, int], str, str]]:
    """The rise from the throughput the user reported to the first one measured on the host, when
    that was measured only after changes there (:func:`_reported_before`)."""
    m = readings[0]
    reported = _reported_before(a, m, one_host)
    if reported is None or m.value <= reported.value * RISE:
        return []
    changes = _changes_before(a, m)
    shown = ", ".join(f"{_change(a, c)} [msg {c.seq}]" for c in changes[-3:])
    host = f" on {m.host}" if m.host else ""
    return [((rank.get(m.session, len(rank)), m.seq),
             f"Throughput rose from {reported.value:g} tok/s as reported [msg {reported.seq}] to {m.value:g} "
             f"tok/s{host} [msg {m.seq}] after {shown}{_reverted_said(a, changes, m, changes[-3:], reverts)}.",
             "")]  # the report it rose from is linked in the line


def _by_host(readings: list[MetricRecord]) -> dict[str | None, list[MetricRecord]]:
    """``readings`` by host, the hosts in the order first read, each host's in their order."""
    hosts: dict[str | None, list[MetricRecord]] = {}
    for m in readings:
        hosts.setdefault(m.host, []).append(m)
    return hosts


def _turned_to(a: SessionAnalysis) -> dict[tuple[str, int], str]:
    """What the agent turned to at a pivot that was a version check (`pip show sglang`, `python
    -c "import sglang; print(sglang.__version__)"`): the packages it checked and the versions it
    showed ("checking installed versions (sglang 0.4.1)"), by the pivot's (session, seq). Was its
    kind ("running commands", "running python"), which told the reader neither what was looked
    at nor what was found."""
    others = {(p.session, p.seq) for p in a.pivots if p.to_category in ("other", "python")}
    if not others:
        return {}
    seen: dict[tuple[str, int], dict[str, str]] = {}
    for v in a.versions_seen:
        seen.setdefault((v.session, v.seq), {}).setdefault(v.package, v.version)
    out = {}
    for c in a.commands:
        if (c.session, c.seq) in others and (checked := checked_packages(c.inner or c.command)):
            versions = seen.get((c.session, c.seq), {})
            named = ", ".join(f"{n} {versions[n]}" if n in versions else n for n in sorted(checked))
            out[c.session, c.seq] = f"checking installed versions ({named})"
    return out


def _changes_before(a: SessionAnalysis, m: MetricRecord, after: int = -1) -> list[CommandRecord | FileEdit]:
    """The changes (a patch, a config edit, a relaunch) the agent that read ``m`` made on its host
    after ``after`` and before the reading. The launch of the server without speculation that
    measured the baseline is none: it changed nothing of the EAGLE-3 setup ("rose from 80.5 to 130
    tok/s after `nohup … launch_server` (no speculation), relaunching with topk 4")."""
    # a rollback too (`git checkout HEAD~1 -- configs/eagle3.yaml`, `kubectl rollout undo`): of kind
    # "other", it was no change, and the rise it brought read "no change was followed by a rise"
    # (in a terminal log a line and its output are one event: `sudo systemctl restart sglang && sleep
    # 60 && python -m sglang.bench_serving ...` has the seq of the reading it prints, and the launch,
    # restart or deploy it began with, run before its reading, was left out of the changes before it)
    changes = [c for c in a.commands if c.session == m.session and c.agent == m.agent
               and (after < c.seq < m.seq and (c.category in _CHANGES or c.category in _MAY_CHANGE and (
                   _other_change(c.inner or c.command, c.cwd, _shell_set(a, c)) or _copies_over_served(a, c))
                    or _restarts_service(c) or _redeploys(c))  # `systemctl restart sglang`: a relaunch, as a typed one
                    or c.seq == m.seq and (c.category == "launch_server" or _restarts_service(c) or _redeploys(c)))
               and not _HELP.search(c.inner or c.command)
               and (c.host is None or m.host is None or c.host == m.host)]  # not another host's change
    runs = [c for c in a.commands if c.session == m.session and c.agent == m.agent and after < c.seq < m.seq
            and c.category in _MAY_RELAUNCH and ".sh" in (c.inner or c.command)
            and (c.host is None or m.host is None or c.host == m.host)]
    if runs:
        # a script whose writing is itself among the changes is told by it (`echo '... launch_server
        # ...' > launch.sh` [msg 3]); one written before the reading the rise is from, by its run
        written = {c.seq for c in changes}
        runs = [c for c in runs if (seq := _launch_script_written(a, c)) is not None and seq not in written]
    if runs:
        changes = sorted([*changes, *runs], key=attrgetter("seq"))
    launches = [c for c in changes if c.category == "launch_server"]
    if launches:
        fixes = [c for c in a.commands if c.session == m.session and c.agent == m.agent and c.category == "python"
                 and after < c.seq < m.seq and (c.host is None or m.host is None or c.host == m.host)
                 and _rewrites_served(c.inner or c.command, [x for x in launches if x.seq > c.seq])]
        if fixes:
            changes = sorted([*changes, *fixes], key=attrgetter("seq"))
    edits = [e for e in a.file_edits if e.session == m.session and e.agent == m.agent and after < e.seq < m.seq
             and (e.host is None or m.host is None or e.host == m.host)]
    if edits:
        edits = [e for e in edits if not _edited_test(a, e, m)]
    if edits:  # an Edit of the draft's config.json, then the restart: the edit was the fix
        changes = sorted([*changes, *edits], key=attrgetter("seq"))
    plain = _plain_launches(a, m, changes)
    if plain:
        changes = [c for c in changes if c.seq not in plain]
    return _without_failed_relaunches(changes)


def _without_failed_relaunches(changes: list[CommandRecord | FileEdit]) -> list[CommandRecord | FileEdit]:
    """``changes`` less each relaunch that failed (`systemctl restart sglang` exiting 1, "Job for
    sglang.service failed", a typed launch that died of an OOM) and was followed by another among
    them: what was read was served by the later one, and the failed try changed nothing it served.
    The Resolution told the rise "after `systemctl restart sglang-eagle3` [msg 8], `sed -i ... &&
    systemctl restart ...` [msg 13]", the failed restart first among its causes. A failed line that
    changed something else as well (`sed -i ... && systemctl restart ...`: the edit was made) stays."""
    failed = [c for c in changes if isinstance(c, CommandRecord) and c.exit_code not in (None, 0)
              and (c.category == "launch_server" or _restarts_service(c) or _redeploys(c))]
    if not failed:
        return changes
    relaunches = [c.seq for c in changes if isinstance(c, CommandRecord) and _relaunch_in(c)]
    dropped = {c.seq for c in failed if any(seq > c.seq for seq in relaunches) and _only_relaunches(c.inner or c.command)}
    return [c for c in changes if c.seq not in dropped] if dropped else changes


def _relaunch_in(c: CommandRecord) -> bool:
    """``c`` (re)starts the server, alone or after an edit (`sed -i ... && systemctl restart sglang`)."""
    text = c.inner or c.command
    return c.category == "launch_server" or starts_service(text) or redeploys(text)


def _only_relaunches(command: str) -> bool:
    """Every change ``command`` makes on its host is a (re)start (`systemctl daemon-reload &&
    systemctl restart sglang`, a typed `python -m sglang.launch_server ...`): no file written, no
    edit, no install."""
    for argv in simple_commands(command, writes=True):
        if isinstance(argv, str):
            return False  # a redirection's file: `echo SPEC_TOPK=4 >> /etc/default/sglang && ...`
        line = " ".join(argv)
        why = changes_host(line)
        if why is not None and why != "systemctl daemon-reload" and not starts_service(line) and not redeploys(line):
            return False
    return True


_MAY_RELAUNCH = frozenset({"other", "stop_process"})
"""Kinds of a line that may run a launch script (`bash launch.sh`; `pkill -f sglang; ./launch.sh &`
is of kind stop_process, by its pkill)."""


def _restarts_service(c: CommandRecord) -> bool:
    """``c`` (re)starts a service or a container (`sudo systemctl restart sglang`, `docker restart
    sglang`, `supervisorctl restart sglang`, `docker compose up -d`: host_changes.starts_service):
    the server is another process after it, started with what its unit, env file or compose file
    say now, as a typed relaunch is. Was no change: after `echo SPEC_TOPK=4 >> /etc/default/sglang`
    and the restart that loaded it, the Resolution named the edit alone, and after a restart alone
    it said nothing, where a typed relaunch reads "restarting the server". Whatever the line's kind
    (`systemctl restart sglang && sleep 30 && curl -s localhost:30000/health` is a health check by
    its curl), less a launch or an edit, which are changes of their own."""
    text = c.inner or c.command
    return c.category not in _CHANGES and ("start" in text or "up" in text or "reload" in text
                                            or "update" in text or "run" in text or "delete" in text) \
        and starts_service(text)  # (`kubectl delete pod sglang-0`: its ReplicaSet starts another)


def _redeploys(c: CommandRecord) -> bool:
    """``c`` changes what a cluster serves (`kubectl apply -f sglang.yaml`, `helm upgrade sglang
    ./chart --set ...`: host_changes.redeploys), whatever the line's kind, as a service's restart
    (:func:`_restarts_service`): `kubectl apply -f sglang.yaml && sleep 60 && python -m
    sglang.bench_serving ...` is of kind benchmark, and its rise was told after no change at all."""
    text = c.inner or c.command
    return c.category not in _CHANGES and redeploys(text)


_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})


def _scripts_run(command: str) -> set[str]:
    """The file names of the shell scripts ``command`` runs (`bash /root/launch.sh`, `./launch.sh`,
    `nohup sh launch.sh &`)."""
    names = set()
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        if argv[0].endswith(".sh"):
            names.add(argv[0].rsplit("/", 1)[-1])
        elif argv[0].rsplit("/", 1)[-1] in _SHELLS:
            words = [w for w in argv[1:] if not w.startswith("-")]
            if words and words[0].endswith(".sh") and "-c" not in argv[1:]:
                names.add(words[0].rsplit("/", 1)[-1])
    return names


def _launch_script_written(a: SessionAnalysis, c: CommandRecord) -> int | None:
    """``c`` runs a shell script an earlier command of its session wrote with a server launch in it
    (`cat > launch_eagle.sh <<'EOF'` ... `python -m sglang.launch_server ... EOF`, then `bash
    launch_eagle.sh`): a relaunch, as the typed `launch_server` is; was of kind "other", no change,
    and the rise it brought went untold when the script was written before the first reading.
    The seq of the last such write before ``c``, None where there is none."""
    names = _scripts_run(c.inner or c.command)
    if not names:
        return None
    found = None
    for b in a.commands:
        if b.seq >= c.seq:
            break
        text = b.inner or b.command
        if b.session == c.session and b.host == c.host and ".sh" in text and _LAUNCH_WORDS.search(text.lower()) \
                and any(p.endswith(".sh") and p.rsplit("/", 1)[-1] in names for p in _written_paths(text)):
            found = b.seq
    return found


def _written_paths(command: str) -> list[str]:
    """The files a line writes by a redirection or tee (`cat > launch.sh <<EOF`, `... | tee -a x`)."""
    paths = []
    for argv in simple_commands(command, writes=True):
        if isinstance(argv, str):  # a redirection's file
            paths.append(argv)
        elif argv and argv[0] == "tee":  # `echo ... | sudo tee -a /etc/sglang/spec.yaml`
            paths.extend(w for w in argv[1:] if not w.startswith("-"))
    return [p.strip("'\"") for p in paths]


_CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".env", ".toml", ".conf", ".cfg", ".ini")


def _other_change(command: str, folder: str | None = None, earlier: dict[str, str | None] | None = None) -> bool:
    """A command of kind "other" that changes what is served: a rollback (:func:`rolls_back`), an
    install of a package (`pip install -U sglang==0.4.6`: the engine itself) or a config file
    written through the shell (`echo "speculative_num_steps: 3" >> /etc/sglang/spec.yaml`). The
    Resolution credited the relaunch after them, or no change at all. ``folder``: the one it ran
    in (`pip install -e .` there installs the project it names). ``earlier``: the variables the
    commands before it set in the same shell (:func:`_shell_set`)."""
    if "$" in command and ("=" in command or earlier):
        command = _line_variables_put_in(command, earlier)
    if rolls_back(command) or installed_packages(command, folder) or switches_source(command) or _swaps_served(command) \
            or redeploys(command):
        return True
    if ">" not in command and "tee" not in command:
        return False
    why = changes_host(command)
    if why is None:
        return False
    paths = [why.removeprefix("writes ")] if why.startswith("writes ") else []
    # every file the line writes, not only the first change changes_host names: the backup made
    # first (`cp spec.yaml spec.yaml.bak && echo ... >> spec.yaml`) hid the write to the config
    for argv in simple_commands(command, writes=True):
        if isinstance(argv, str):  # a redirection's file
            paths.append(argv)
        elif argv and argv[0] == "tee":  # `echo ... | sudo tee -a /etc/sglang/spec.yaml`
            paths.extend(w for w in argv[1:] if not w.startswith("-"))
    paths = [p.strip("'\"") for p in paths]
    # a file under /etc is the host's configuration whatever its name (FHS 3.0, 3.7 "/etc: Host-specific
    # system configuration"): systemd's EnvironmentFile=/etc/default/sglang, a unit file
    if any((p.endswith(_CONFIG_SUFFIXES) or p.startswith("/etc/"))
           and not p.startswith(("/tmp/", "/var/tmp/", "/dev/")) for p in paths):
        return True
    # a launch script rewritten through the shell (`echo 'python -m sglang.launch_server ...
    # --speculative-eagle-topk 4' > launch.sh`, then `bash launch.sh`): the flags the server runs
    # with, as a `sed -i` of it (an edit) is; was no change, and the rise it brought went untold
    return any(p.endswith(".sh") and not p.startswith("/dev/") for p in paths) \
        and _LAUNCH_WORDS.search(command.lower()) is not None


_VARIABLE_USE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def _shell_set(a: SessionAnalysis, c: CommandRecord) -> dict[str, str | None] | None:
    """The variables the commands before ``c`` set in the shell it ran in, for a terminal log's
    command that uses one (``export CFG=/etc/sglang/spec.yaml``, later ``echo ... >> $CFG``): one
    shell runs them all and still holds the value (bash(1), PARAMETERS), as analysis reads hosts
    by (shell_variables). An agent's tool call runs in a fresh shell (Claude Code: "Environment
    variables do NOT persist"): None there, as for a command that uses no variable or writes no
    file (the write is what _other_change looks for; each reading's check stays cheap)."""
    command = c.inner or c.command
    if "$" not in command or (">" not in command and "tee" not in command) or not any(s.get("id") == c.session and s.get("format") == "text" for s in a.sessions):
        return None
    known: dict[str, str | None] = {}
    for b in a.commands:
        if b.session == c.session and b.seq < c.seq and b.host == c.host and "=" in (b.inner or b.command):
            note_variables(b.inner or b.command, known)
    return known or None


def _line_variables_put_in(command: str, earlier: dict[str, str | None] | None = None) -> str:
    """``command`` with the variables its own line set (``CFG=/etc/sglang/spec.yaml; echo ... >>
    $CFG``, ``export CFG=...``), or ``earlier`` commands of its shell did, replaced by their
    values, as the shell expands them for the commands after the assignment (bash(1),
    PARAMETERS); a variable it did not set, or set to several values, stays as written (what it
    names is unknown)."""
    known: dict[str, str | None] = dict(earlier) if earlier else {}
    note_variables(command, known)
    if not known:
        return command

    def value(m: re.Match) -> str:
        found = known.get(m.group(1) or m.group(2))
        return found.strip("'\"") if found and "$" not in found else m.group(0)

    return _VARIABLE_USE.sub(value, command)


@lru_cache(maxsize=1024)
def _swaps_served(command: str) -> bool:
    """A command that puts another file or checkpoint where the server reads one: a model symlink
    switched (`ln -sfn /models/eagle3-v2 /models/eagle3`: -f replaces the link, -n takes a link to a
    folder as the link), a config rewritten in place by yq (`yq -i '.num_steps = 5' spec.yaml`), or
    moved or copied over (`jq ... config.json > /tmp/c.json && mv /tmp/c.json config.json`). None
    was a change: the Resolution credited the relaunch after it."""
    if "ln " not in command and "yq" not in command and "mv " not in command and "cp " not in command:
        return False
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        name = argv[0].rsplit("/", 1)[-1]
        flags = "".join(w[1:] for w in argv[1:] if w.startswith("-") and not w.startswith("--"))
        words = [w for w in argv[1:] if not w.startswith("-")]
        if name == "ln" and "s" in flags and ("f" in flags or "--force" in argv) and len(words) >= 2:
            return True
        if name == "yq" and ("i" in flags or "--inplace" in argv) and words \
                and words[-1].endswith(_CONFIG_SUFFIXES):
            return True
    return False


@lru_cache(maxsize=1024)
def _copied_over(command: str) -> tuple[str, ...]:
    """The config files ``command`` copies or moves a file over (`mv /tmp/c.json config.json`), as
    it names them; none in a temporary folder."""
    if "mv " not in command and "cp " not in command:
        return ()
    out = []
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv or argv[0].rsplit("/", 1)[-1] not in ("mv", "cp"):
            continue
        words = [w.strip("'\"") for w in argv[1:] if not w.startswith("-")]
        if len(words) >= 2 and words[-1].endswith(_CONFIG_SUFFIXES) \
                and not words[-1].startswith(("/tmp/", "/var/tmp/", "/dev/")):
            out.append(words[-1])
    return tuple(out)


def _copies_over_served(a: SessionAnalysis, c: CommandRecord) -> bool:
    """``c`` copies or moves a file over one the server reads: a path a launch of the session (before
    or after it) names, or one in a folder it names (`mv /tmp/c.json /models/e3/config.json`, the
    draft's folder), or a service's config under /etc/. A copy made to read or keep a config
    (`cp /etc/sglang/spec.yaml ./spec.yaml`, `cp spec.yaml ~/spec.yaml.orig`) changed nothing
    served (was: any *.yaml outside /tmp, credited as the change the Resolution's rise followed)."""
    paths = _copied_over(c.inner or c.command)
    if not paths:
        return False
    folder = c.cwd.rstrip("/") if c.cwd and c.cwd.startswith("/") else None
    full = [p if p.startswith("/") or folder is None else posixpath.normpath(f"{folder}/{p}") for p in paths]
    if any(p.startswith("/etc/") for p in full):
        return True
    for launch in a.commands:
        if launch.session != c.session or launch.category != "launch_server":
            continue
        for w in (launch.inner or launch.command).split():
            w = w.strip("'\"").rsplit("=", 1)[-1].rstrip("/")
            if len(w) > 1 and any(p == w or p.startswith(f"{w}/") for p in (*paths, *full)):
                return True
    return False


# `python /root/fix_d2t.py --draft /models/l31-eagle3 --to-offsets`, `set_aux_layers.py --draft ...`:
# a script named for a repair, run on a checkpoint the server is then launched with.
_REPAIR_SCRIPT = re.compile(
    r"(?:^|[\s/'\"])(?:fix|patch|set|convert|rewrite|repair|update|regenerate|rebuild)[_-][\w.-]*\.py(?=$|[\s'\";|&)])")
_PATH_WORD = re.compile(r"/[\w.@+-]+(?:/[\w.@+-]+)+")


def _rewrites_served(command: str, launches: list[CommandRecord]) -> bool:
    """``command`` runs a repair script on a checkpoint path one of ``launches`` (later ones) serves:
    the fix itself, which the Resolution left out ("rose ... after relaunching the server" hid the
    rewrite of d2t that raised it)."""
    if _REPAIR_SCRIPT.search(command) is None:
        return False
    paths = {p.rstrip("/") for p in _PATH_WORD.findall(command)}
    return any(p in (c.inner or c.command).split() or f"{p}/" in (c.inner or c.command)
               for p in paths for c in launches)


def _edited_test(a: SessionAnalysis, e: FileEdit, m: MetricRecord) -> bool:
    """The file ``e`` edited is a test the agent then ran (``python /tmp/test_drafter_standalone.py``,
    a command of kind run_test naming it) before the reading ``m``, and no launch names it: a check
    of the draft outside the server, not a change of what the server runs. The Resolution said the
    rise came "after editing `/tmp/test_drafter_standalone.py` (Edit), `git apply …`, restarting
    the server"."""
    name = e.path.rstrip("/").rsplit("/", 1)[-1]
    if not name:
        return False
    ran = False
    for c in a.commands:
        if c.session != m.session or c.agent != m.agent or not e.seq < c.seq < m.seq:
            continue
        words = c.inner or c.command
        if name not in words or not _names_file(words, name):
            continue
        if c.category == "launch_server":
            return False
        ran = ran or c.category == "run_test"
    return ran


def _names_file(command: str, name: str) -> bool:
    """``command`` names the file ``name`` as a word or a path's last part: `pytest
    tests/test_export_eagle3.py` names test_export_eagle3.py, not export_eagle3.py."""
    return re.search(r"(?:^|[\s/'\"=])" + re.escape(name) + r"(?=$|[\s'\";|&)])", command) is not None


def _plain_launches(a: SessionAnalysis, m: MetricRecord, changes: list[CommandRecord]) -> set[int]:
    """The seqs of the launches among ``changes`` whose server a baseline reading measured: the
    last launch before each baseline read on ``m``'s host by its agent (MetricRecord.baseline)."""
    launches = [c for c in changes if c.category == "launch_server"]
    if not launches:
        return set()
    out = set()
    for b in a.metrics:
        if b.baseline and b.session == m.session and b.agent == m.agent and b.seq < m.seq and b.host == m.host:
            served = [c.seq for c in launches if c.seq < b.seq]
            if served:
                out.add(served[-1])
    return out


def _last_read(readings: list[MetricRecord], m: MetricRecord) -> MetricRecord:
    """The last of ``readings`` the agent that read ``m`` read on its host."""
    return next((r for r in reversed(readings) if r.session == m.session and r.agent == m.agent and r.host == m.host), m)


def _first_after_changes(a: SessionAnalysis, readings: list[MetricRecord]) -> tuple[MetricRecord, list[CommandRecord]] | None:
    """The first throughput reading and the changes before it, when changes came first. The
    first server launch on the reading's host is no change: it starts the server the readings
    measure (another host's first launch before it is not that one)."""
    if not readings:
        return None
    m = readings[0]
    before = _changes_before(a, m)  # the agent's changes on the reading's host, in seq order
    # (a service's start, `systemctl start sglang`, as a typed launch; the first deploy on a cluster,
    # `kubectl apply -f sglang.yaml`, `helm install sglang ./chart`, too: it starts the pods measured)
    first_launch = next((c.seq for c in before if c.category == "launch_server" or _restarts_service(c)
                         or _redeploys(c)), None)
    changes = [c for c in before if c.seq != first_launch]
    return (m, changes) if changes else None


def _rises(a: SessionAnalysis, readings: list[MetricRecord], rank: dict[Any, int],
           reverts: Reverts) -> list[tuple[tuple[int, int], str, str]]:
    """The rises of one host's throughput readings, each keyed by where it was read, and where the
    reading it rose from was read."""
    out: list[tuple[tuple[int, int], str, str]] = []
    # of one batch size and model, as in _same_row: SpecForge#339's EAGLE3 run at bs=4 did
    # not "rise from 159.78" (a bs=1 run) "to 426.46 tok/s"
    rows = _rows(a, readings)
    seen: dict[Row, tuple[int, MetricRecord, MetricRecord]] = {}  # row: (index, last, best) so far
    for i, (m, row) in enumerate(zip(readings, rows)):
        before = [v for r, v in seen.items() if r.meets(row)]
        best = seen[row][2] if row in seen else m
        seen[row] = (i, m, m if m.value > best.value else best)
        if not before:
            continue
        prev = max(before, key=lambda v: v[0])[1]
        best_before = max((v[2] for v in before), key=lambda r: r.value)
        if m.value <= best_before.value * RISE:
            continue
        start = prev.seq if prev.session == m.session and prev.agent == m.agent else -1
        # `launch_server --help` reads the flags, it changes nothing
        changes = _changes_before(a, m, start)
        if not changes:
            continue
        # a relaunch that only reads --help changes nothing; the last few changes are the ones
        # the rise followed (the session may have relaunched many times before)
        shown = ", ".join(f"{_change(a, c)} [msg {c.seq}]" for c in changes[-3:])
        host = f" on {m.host}" if m.host else ""
        out.append(((rank.get(m.session, len(rank)), m.seq),
                    f"Throughput rose from {best_before.value:g} to {m.value:g} tok/s{host} [msg {m.seq}] after {shown}"
                    + _reverted_said(a, changes, m, changes[-3:], reverts) + ".",
                    f"{best_before.value:g} tok/s was read at [msg {best_before.seq}]."))
    return out


def _reverted_falls(a: SessionAnalysis, reverts: Reverts) -> list[str]:
    """Each change tried, measured worse and rolled back: a fall of a host's throughput after
    changes one of which was undone after the reading. The session's sed edit, benchmarked at a
    third less and reverted, was told nowhere (the summary named the worse reading as the after)."""
    rank = {s.get("id"): k for k, s in enumerate(a.sessions)}
    readings = sorted((m for m in a.metrics if m.name == "throughput" and m.source == "output" and not m.baseline),
                      key=lambda m: (rank.get(m.session, len(rank)), m.seq))
    out = []
    for on_host in _by_host(readings).values():
        for prev, m in zip(on_host, on_host[1:]):
            if prev.session != m.session or prev.agent != m.agent or m.value * RISE >= prev.value:
                continue
            changes = _changes_before(a, m, prev.seq)
            undone = _reverted(a, changes, m, reverts)
            if undone is None:
                continue
            c, r = undone
            host = f" on {m.host}" if m.host else ""
            out.append(f"Throughput fell from {prev.value:g} to {m.value:g} tok/s{host} [msg {m.seq}] after "
                       f"{_change(a, c)} [msg {c.seq}], which was reverted at [msg {r.seq}].")
    return out


def _revert_of(a: SessionAnalysis, c: CommandRecord | FileEdit, reverts: Reverts) -> CommandRecord | None:
    """The later command that undid the change ``c`` (:mod:`reverts`): a sed swapped back, the
    file put back by git or from its backup, the server relaunched with the flags of before."""
    if isinstance(c, FileEdit) or c.category == "edit":
        return reverts.reverted_by(c)
    if c.category == "launch_server":
        before = _spec_flags(_launch_before(a, c))
        if before and set(before) != set(_spec_flags(c.inner or c.command)):
            return reverts.reverted_by(c, before, _spec_flags)
    elif c.category == "other" and "install" in (c.inner or c.command):
        return _install_undone(a, c)
    return None


def _install_undone(a: SessionAnalysis, c: CommandRecord) -> CommandRecord | None:
    """The later install that put back the version a package had before ``c`` installed another
    (`pip install -U sglang==0.4.6`, then `pip install sglang==0.4.1` where `pip show sglang`
    said 0.4.1 before, or an earlier install pinned it): by the same agent on the same host.
    Was none: the upgrade was told as the fix, and "the change was measured again", after the
    session had gone back to the old version."""
    names = installed_packages(c.inner or c.command, c.cwd)
    if not names:
        return None
    before: dict[str, str] = {}
    for v in a.versions_seen:  # in the session's order: the last one seen before the change
        if v.session == c.session and v.agent == c.agent and v.host == c.host and v.seq < c.seq \
                and v.package in names:
            before[v.package] = v.version
    later = []
    for x in a.commands:
        if x.session != c.session or x.agent != c.agent or x.host != c.host or x.category != "other" \
                or "==" not in (text := x.inner or x.command):
            continue
        if x.seq < c.seq:
            before.update((n, v) for n, v in pinned_versions(text).items() if n in names)
        elif x.seq > c.seq:
            later.append(x)
    mine = pinned_versions(c.inner or c.command)
    for x in later:
        pins = pinned_versions(x.inner or x.command)
        if any(before.get(n) == v and mine.get(n) != v for n, v in pins.items() if n in names):
            return x
    return None


def _reverted(a: SessionAnalysis, changes: list[CommandRecord | FileEdit], m: MetricRecord,
              reverts: Reverts) -> tuple[CommandRecord | FileEdit, CommandRecord] | None:
    """The last of ``changes`` (those before the reading ``m``) undone after ``m``, and what undid it:
    what ``m`` measured is no longer what is served."""
    for c in reversed(changes):
        r = _revert_of(a, c, reverts)
        if r is not None and r.seq > m.seq:
            return c, r
    return None


def _reverted_said(a: SessionAnalysis, changes: list[CommandRecord | FileEdit], m: MetricRecord,
                   shown: list[CommandRecord | FileEdit], reverts: Reverts) -> str:
    """"; the change at [msg 5] was reverted at [msg 9]" where one of the changes a reading followed
    was undone afterwards (named in full where ``shown``, those already told, leaves it out): a
    rolled-back change is no resolution (was told as the fix, and as "the change was measured
    again" under what went well)."""
    undone = _reverted(a, changes, m, reverts)
    if undone is None:
        return ""
    c, r = undone
    said = "the change at" if any(x is c for x in shown) else _change(a, c)
    if any(x is not c and _still_served(a, x, reverts) for x in changes):
        # another change before the reading stayed (a debug line added and taken out again beside
        # the fix): the rise may be the kept one's, and is still told as the fix
        return f"; {said} [msg {c.seq}] was undone at [msg {r.seq}], the others kept"
    return f"; {said} [msg {c.seq}]{_REVERTED_AT}{r.seq}]"


def _still_served(a: SessionAnalysis, c: CommandRecord | FileEdit, reverts: Reverts) -> bool:
    """``c``, a change before a reading, changed what is served and was never undone: not the
    first launch (it starts what the readings measure) nor a restart with the same flags (it
    changes nothing), not one reverted."""
    if not isinstance(c, FileEdit) and c.category == "launch_server" \
            and (not _launch_before(a, c) or _change(a, c) == SAME_FLAGS_RESTART):
        return False
    if not isinstance(c, FileEdit) and _restarts_service(c):
        return False  # a service restart loads what was changed before it, and changes nothing itself
    return _revert_of(a, c, reverts) is None


# The flags that set how much is drafted: SGLang's --speculative-* options
# (python/sglang/srt/server_args.py) and vLLM's --speculative-config JSON keys
# (vllm/config/speculative.py), with their value when one follows.
_SPEC_FLAG = re.compile(r"--speculative[-_](?!config\b)[\w-]+(?:[ =](?!-)[^\s'\"]+)?"
                        r"|\\?\"num_speculative_tokens\\?\"\s*:\s*\d+")


def _change(a: SessionAnalysis, c: CommandRecord | FileEdit) -> str:
    """A change as the reader needs it: a relaunch by the speculative flags it was given (the
    head of a 300-character launch line is the model path, the same every time); by those it
    changed, with what they were, where the agent launched with speculative flags on the host
    before ("with `--speculative-num-steps 3` (was `--speculative-num-steps 8`)": the whole set
    hid which of five flags the fix was)."""
    if isinstance(c, FileEdit):
        return f"editing {_code(_short(c.path, 120))} ({c.tool})"
    text = c.inner or c.command
    if c.category == "launch_server":
        flags = _spec_flags(text)
        if flags:
            launched_before = _launch_before(a, c)
            before = _spec_flags(launched_before)
            if before and set(flags) == set(before):
                # the same speculative flags, another option changed: that option is the change
                # (`--mem-fraction-static 0.8` after an OOM at 0.95 was "restarting the server")
                if other := _other_options_changed(text, launched_before):
                    return "relaunching the server with " + other
                # a restart to load a patch, an edited file: the whole set read as the change
                return SAME_FLAGS_RESTART
            if before and flags != before:
                names = {_flag_name(f) for f in flags}
                new = [f for f in flags if f not in before]
                was = [f for f in before if f not in flags and _flag_name(f) in names]
                dropped = [f for f in before if _flag_name(f) not in names]
                if new or dropped:
                    said = []
                    if new:
                        said.append(_code(" ".join(new)) + (f" (was {_code(' '.join(was))})" if was else ""))
                    if dropped:
                        said.append("without " + _code(" ".join(dropped)))
                    return "relaunching the server with " + ", ".join(said) if new else \
                        "relaunching the server " + said[0]
            return "relaunching the server with " + _code(" ".join(flags))
    return _code(_short(text, 120))


SAME_FLAGS_RESTART = "restarting the server (the same speculative flags)"
_SHELL_OPERATORS = frozenset({">", ">>", "<", "|", "&", ";", "&&", "||"})


def _launch_options(text: str) -> dict[str, str]:
    """A launch line's ``--name value`` options other than the speculative ones (``--name`` alone
    holds ""), its own command's only (not a redirection's ``> server.log 2>&1 &``)."""
    words = split_words(text)
    # the launch's own command, the one with the options (`pkill -f sglang.launch_server; nohup
    # python -m sglang.launch_server --model-path ... > s.log 2>&1 &`)
    segments, start = [], 0
    for i, word in enumerate(words + [";"]):
        if word in _SHELL_OPERATORS:
            segments.append((start, i))
            start = i + 1
    start, end = max(segments, key=lambda seg: sum(w.startswith("--") for w in words[seg[0]:seg[1]]))
    options: dict[str, str] = {}
    for i in range(start, end):
        word = words[i]
        if not word.startswith("--") or word.startswith("--speculative"):
            continue
        name, eq, value = word.partition("=")
        if not eq and i + 1 < len(words):
            nxt = words[i + 1]
            # `--disable-cuda-graph 2>&1`: the 2 is the redirection's, glued to its `>` (`--tp 2 >
            # server.log` is the value's)
            redirected = len(nxt) == 1 and nxt in "012" and f"{word} {nxt}>" in text
            value = "" if nxt.startswith("-") or nxt in _SHELL_OPERATORS or redirected else nxt
        options[name] = value
    return options


def _other_options_changed(text: str, before: str) -> str:
    """The options other than the speculative flags that ``text``'s launch set otherwise than
    ``before``'s, as the reader needs them: "`--mem-fraction-static 0.8` (was
    `--mem-fraction-static 0.95`)", "without `--disable-cuda-graph`"; "" where none did."""
    now, was = _launch_options(text), _launch_options(before)
    said = []
    for name, value in now.items():
        if was.get(name) != value:
            shown = _code(f"{name} {value}".strip())
            said.append(shown + (f" (was {_code(f'{name} {was[name]}'.strip())})" if name in was else ""))
    said += ["without " + _code(f"{name} {value}".strip()) for name, value in was.items() if name not in now]
    return ", ".join(said[:4]) + (", …" if len(said) > 4 else "")


def _spec_flags(text: str) -> list[str]:
    """The speculative flags of a launch line, with their values, each once."""
    return list(dict.fromkeys(f.replace("\\", "") for f in _SPEC_FLAG.findall(text))) if text else []


def _flag_name(flag: str) -> str:
    """``--speculative-num-steps`` of ``--speculative-num-steps 3``; the key of ``"num_speculative_tokens": 3``."""
    return re.split(r"[ =:]", flag, maxsplit=1)[0]


def _launch_before(a: SessionAnalysis, c: CommandRecord) -> str:
    """The launch line of ``c``'s agent on ``c``'s host just before ``c`` ("" for none)."""
    for b in reversed(a.commands):
        if b.seq < c.seq and b.session == c.session and b.agent == c.agent and b.host == c.host \
                and b.category == "launch_server" and not _HELP.search(b.inner or b.command):
            return b.inner or b.command
    return ""


def _back_above_baseline(impact: dict[str, Any]) -> bool:
    """The last throughput reading is at or above the no-speculation baseline: SD501's "until
    fixed, serve without speculation" is then advice for a problem the session already fixed. Not
    where that reading measured a change rolled back after it: the fix is no longer served."""
    tput, base = impact.get("throughput"), impact.get("baseline")
    return bool(tput and base and tput["readings"] > 1 and tput["after"] >= base["value"]
                and tput["reverted_seq"] is None)


def _impact(a: SessionAnalysis, reverts: Reverts | None = None) -> dict[str, Any]:
    """First and last reading of each headline metric (readings printed by commands first)."""
    reverts = reverts or Reverts(a.commands)
    memo: dict[tuple, Any] = {}
    out: dict[str, Any] = {"rows": [], "baseline": None, "host_baselines": []}  # the templates test them (StrictUndefined)
    for name in _IMPACT_METRICS:
        # a throughput of the server without speculation is the baseline, not a before or an after
        measured = [m for m in a.metrics if m.name == name and not m.baseline]
        readings = [m for m in measured if m.source == "output"] or measured
        if not readings:
            continue
        # Before and after on the same host: a session that first measured the healthy gpu02
        # and then the broken gpu01 did not see throughput "go from" one to the other. Each host
        # has its row (a session that fixed gpu-a, then gpu-b, showed gpu-b's alone); the last
        # reading's host is the headline (``out[name]``).
        by_host = _by_host(readings)
        last_host = _headline_host(a, readings, by_host)
        for host, on_host in by_host.items():
            row = _impact_row(a, name, on_host, reverts, memo)
            if name == "throughput" and on_host[0].source == "output" \
                    and (reported := _reported_before(a, on_host[0], len(by_host) == 1)) is not None:
                row.update(before=reported.value, before_seq=reported.seq, before_reported=True,
                           readings=row["readings"] + 1)
            out["rows"].append(row)
            if host == last_host:
                out[name] = row
    tput = out.get("throughput")
    base, read_before = _paired_baseline(a, tput["after_seq"], tput["after"]) if tput else (None, False)
    if base is None and not read_before:
        # no reading with speculation, or no baseline read before it ("the baseline was 90 tok/s"
        # said afterwards): the first one. One of another batch size or model is no comparison.
        base = next((m for m in a.metrics if _is_baseline(m)), None)
    if base:
        out["baseline"] = {"value": base.value, "seq": base.seq}
    out["host_baselines"] = _host_baselines(a, out["rows"])
    return out


def _host_baselines(a: SessionAnalysis, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The baseline each host's throughput row was compared with, where the rows' hosts had
    different ones: "Baseline without speculation: 90 tok/s on gpu01 [msg 2]; 150 tok/s on gpu02
    [msg 6]". The one headline baseline under a table of both hosts' rows (gpu02's 150, the last
    host's) read as gpu01's too, whose EAGLE-3 runs were compared with its own 90. Empty where
    one baseline (or none) serves every row. Only the rows of hosts a baseline was read on are
    replayed (each replay reads every metric: a fleet session has many hosts, few baselines)."""
    based = {m.host for m in a.metrics if m.host and _is_baseline(m)}
    tput_rows = [r for r in rows if r["name"] == "throughput" and r["host"] in based] if len(based) > 1 else []
    if len(tput_rows) < 2:
        return []
    said = []
    for r in tput_rows:
        base = _paired_baseline(a, r["after_seq"], r["after"])[0]
        if base is not None:
            said.append({"value": base.value, "seq": base.seq, "host": r["host"]})
    return said if len({(b["value"], b["seq"]) for b in said}) > 1 else []


def _headline_host(a: SessionAnalysis, readings: list[MetricRecord],
                   by_host: dict[str | None, list[MetricRecord]]) -> str | None:
    """The host of a metric's headline: the last read of those the agent changed something on
    between their first and last reading (a relaunch, a patch, an edit), else the last read. A
    session that fixed gpu01 and, last, measured gpu03 again to compare (nothing changed there)
    said "Throughput on gpu03 went from 40 tok/s to 41 tok/s"."""
    last_host = readings[-1].host
    if len(by_host) < 2:
        return last_host
    changed = [host for host, on_host in by_host.items()
               if len(on_host) > 1 and _changes_before(a, on_host[-1], on_host[0].seq)]
    if not changed or last_host in changed:
        return last_host
    return max(changed, key=lambda host: by_host[host][-1].seq)


def _stale(a: SessionAnalysis, after: MetricRecord, since: int,
           reverts: Reverts) -> tuple[CommandRecord | FileEdit, CommandRecord] | None:
    """The change the reading ``after`` measured (one made after ``since``) and the command that
    undid it after the reading (the row's last: nothing of it read since), where no other change it
    measured is still served; None where the reading still stands."""
    changes = _changes_before(a, after, since)
    undone = _reverted(a, changes, after, reverts)
    if undone is None or any(x is not undone[0] and _still_served(a, x, reverts) for x in changes):
        return None  # another change it measured is still served: the reading is no stale one
    return undone


def _impact_row(a: SessionAnalysis, name: str, readings: list[MetricRecord], reverts: Reverts,
                memo: dict[tuple, Any]) -> dict[str, Any]:
    """The impact row of one metric's readings on one host: its first and last."""
    other_loads: list[MetricRecord] = []
    # Acceptance read by benchmarks at two loads is no before and after either: a run at one
    # request then one at 64 said "accept_length 2.1 -> 1.42 tokens" under a throughput row that
    # told no change for the same two runs (and an engine may draft less under a full batch).
    if name in _LOAD_METRICS and len(readings) > 1:
        kept = _same_row(a, readings)
        if len(kept) < len(readings):
            ids = {id(m) for m in kept}
            other_loads = [m for m in readings if id(m) not in ids]
        readings = kept
    before, after = readings[0], readings[-1]
    unit, before_value, after_value = before.unit, before.value, after.value
    if before.unit != after.unit and {before.unit, after.unit} == {"ratio", "%"}:
        # SGLang logs the accept rate as a ratio, vLLM and people as a percentage: one row, one unit
        unit = "%"
        before_value = round(before.value * 100, 2) if before.unit == "ratio" else before.value
        after_value = round(after.value * 100, 2) if after.unit == "ratio" else after.value
    # the last reading measured a change (made since the reading before it) undone after it, and
    # nothing read since: the after is of a setup no longer served (a change benchmarked worse and
    # rolled back read as the outcome). The rows of one benchmark's metrics share their readings.
    key = (after.session, after.agent, after.host, after.seq, readings[-2].seq if len(readings) > 1 else -1)
    if key not in memo:
        memo[key] = _stale(a, after, key[-1], reverts)
    undone = memo[key]
    return {"name": name, "unit": unit, "before": before_value, "before_seq": before.seq,
            "after": after_value, "after_seq": after.seq, "host": after.host, "host_before": before.host,
            "readings": len(readings), "before_reported": False,
            # the report's or a notes file's numbers alone (_impact's fallback): one is no
            # measurement, and the row said "— (measured once)" under a Summary that says
            # "Throughput was stated, not measured in the session"
            "stated": all(m.source != "output" for m in readings),
            # the host's readings at another batch size, model or load (_same_row): not compared
            # with these, and no "measured once" where the host was read at two loads
            "other_loads": [{"value": m.value, "seq": m.seq, "unit": m.unit} for m in other_loads],
            "reverted_seq": undone[1].seq if undone else None,
            "reverted_change": f"{_change(a, undone[0])} [msg {undone[0].seq}]" if undone else ""}


def _reported_before(a: SessionAnalysis, first: MetricRecord, one_host: bool) -> MetricRecord | None:
    """The throughput the user's report states ("EAGLE-3 on a100-3 gives 38 tok/s") when the
    session measured none before it changed what is served: the first reading of ``first``'s
    host came after a change or a (re)launch there, so it is the after, and the report the
    before (was "measured once: 94.99 tok/s", and "no change was followed by a rise", for a
    session that fixed the server the user reported slow). Of ``first``'s host, or of no host
    where only one host was measured."""
    if not _changes_before(a, first):
        return None
    prompts = {(p.session, p.seq) for p in a.prompts if p.agent == MAIN_AGENT}
    return next((m for m in a.metrics if m.name == "throughput" and not m.baseline and m.source == "prose"
                 and m.session == first.session and m.seq < first.seq and (m.session, m.seq) in prompts
                 and (m.host == first.host or (m.host is None and one_host))), None)


def _printed(a: SessionAnalysis, m: MetricRecord, printed: dict[tuple, str]) -> str:
    """The command that printed a reading ("" for one a person or the agent wrote): of calls
    answered in one message, the one the reading names (was the last: a `--max-concurrency 16`
    benchmark answered beside an `nvidia-smi` read as a reading of no batch, and "went from" the
    one at concurrency 1)."""
    if m.source != "output":
        return ""
    if not printed:
        for c in a.commands:
            printed[c.session, c.result_seq] = printed[c.session, c.result_seq, c.command] = c.inner or c.command
    return (m.command and printed.get((m.session, m.seq, m.command))) or printed.get((m.session, m.seq), "")


def _same_row(a: SessionAnalysis, readings: list[MetricRecord]) -> list[MetricRecord]:
    """The readings of the last one's batch size and model, and those that state none:
    SpecForge#339's EAGLE3 runs at bs=1 then bs=4 did not "go from" 159.78 to 426.46 tok/s.
    The last row read twice or more, where the last one's was read once: a drafter benchmarked
    at one request before and after its fix, then watched under production traffic at twelve,
    went from 96 to 239 tok/s (was: "measured once: 1410 tok/s")."""
    rows = _rows(a, readings)
    last = [m for m, row in zip(readings, rows) if row.meets(rows[-1])]
    if len(last) > 1:
        return last
    for k in range(len(rows) - 2, -1, -1):
        kept = [m for m, row in zip(readings, rows) if row.meets(rows[k])]
        if len(kept) > 1:
            return kept
    return last


def _rows(a: SessionAnalysis, readings: list[MetricRecord]) -> list[Row]:
    """The row of each reading: what it states, and for one that names no model, the model the
    last server launch before it served (a bare ``bench_serving`` after ``launch_server
    --model-path Qwen/Qwen3-30B-A3B`` measured Qwen3-30B-A3B)."""
    printed: dict[tuple, str] = {}
    rows = [reading_row(m.context, m.value, _printed(a, m, printed)) for m in readings]
    launches = _launches(a)
    for i, (m, row) in enumerate(zip(readings, rows)):
        if row.model is None and (served := launches.get(m.session)):
            k = bisect_left(served, (m.seq,)) - 1
            if k >= 0:
                rows[i] = Row(row.key, served[k][1], row.load)
    return rows


def _launches(a: SessionAnalysis) -> dict[str, list[tuple[int, tuple[str, str | None]]]]:
    """Per session, the server launches that name their model: (seq, model), in seq order."""
    out: dict[str, list[tuple[int, tuple[str, str | None]]]] = {}
    for c in a.commands:
        if c.category == "launch_server" and (model := launched_model(c.inner or c.command)) is not None:
            out.setdefault(c.session, []).append((c.seq, model))
    for served in out.values():
        served.sort(key=itemgetter(0))
    return out


def _is_baseline(m: MetricRecord) -> bool:
    """A reading without speculation: one said to be ("90 tok/s without speculation"), or the
    throughput of a benchmark of a server launched without it (MetricRecord.baseline). That
    benchmark's accept length is marked too (1.0: no drafter), and is no throughput: it was the
    baseline a later reading was paired with ("against a 1 tok/s baseline")."""
    return m.name == "baseline_throughput" or (m.baseline and m.name == "throughput")


def _paired_baseline(a: SessionAnalysis, seq: int, value: float) -> tuple[MetricRecord | None, bool]:
    """The baseline the analysis compared the last throughput reading with: the one of its batch
    size, model and engine (SpecForge#339: bs=4's 426.46 against bs=4's 566.21, not the first
    table row's 222.47), replayed over the reading's session as :mod:`baselines` pairs them; and
    whether any baseline was read before the reading."""
    last = next((m for m in reversed(a.metrics) if m.name == "throughput" and not m.baseline and m.seq == seq
                 and m.value == value), None)
    if last is None:
        return None, False
    printed: dict[tuple, str] = {}
    book = BaselineBook()
    # the server launches too, in their place, as the analysis read them (BaselineBook.launched)
    launches = sorted(((c.seq, c.inner or c.command) for c in a.commands
                       if c.session == last.session and c.category == "launch_server"), key=itemgetter(0))
    k = 0
    for m in a.metrics:
        if m.session != last.session:
            continue
        while k < len(launches) and launches[k][0] < m.seq:
            book.launched(launches[k][1])
            k += 1
        command = _printed(a, m, printed)
        if _is_baseline(m):
            book.note(m, command)
        elif m.name == "throughput":
            paired = book.pair(m, command)
            if m is last:
                return paired, bool(book.baselines)
    return None, False


def _timeline(a: SessionAnalysis) -> list[dict[str, Any]]:
    # Rows are keyed by session as well as seq: seq counts per session, so in a folder two
    # sessions' message 5 are different messages (their times and agents must not mix).
    sessions = {entry["id"]: i for i, entry in enumerate(a.sessions)}
    items: list[tuple[tuple[int, int], int, dict]] = []

    known: dict[tuple[str, int], str] = {}

    def add(session: str, seq: int, order: int, kind: str, agent: str, text: str, ts: str | None = None) -> None:
        items.append(((sessions.get(session, 0), seq), order,
                      {"seq": seq, "kind": kind, "agent": agent, "text": text, "timestamp": ts, "_session": session}))
        if ts:
            known.setdefault((session, seq), ts)
            agents.setdefault((session, seq), agent)

    agents: dict[tuple[str, int], str] = {}
    for p in a.prompts[:20]:
        if p.agent == MAIN_AGENT and p.text.strip() and not only_attachments(p.text):
            add(p.session, p.seq, 0, "prompt", p.agent, _short(p.text, 200), p.timestamp)
    for s in a.segments:
        add(s.session, s.start_seq, 1, "phase", s.agent, s.title, s.start_timestamp)
    for f in a.findings:
        add(f.session, f.seq, 2, "finding", f.agent, f"{f.code} {f.title}")
    for c in a.commands:
        if c.timestamp:
            known.setdefault((c.session, c.seq), c.timestamp)
            agents.setdefault((c.session, c.seq), c.agent)
    polls = _poll_errors(a, _loop_errors(a))
    statuses = _exit_statuses(a, a.errors[:60])
    for e in a.errors[:60]:
        # a health check refused while the server loaded is waiting, told apart from the crashes
        kind = "poll failed" if (e.session, e.seq) in polls else "not run" if e.kind in NOT_RUN else "error"
        add(e.session, e.seq, 3, kind, e.agent, _error_words(e, 140, statuses), e.timestamp)
    for m in a.metrics:
        if m.source == "output" and m.name in _IMPACT_METRICS:
            add(m.session, m.seq, 4, "metric", m.agent, f"{m.name} {m.value:g} {m.unit}" + (f" on {m.host}" if m.host else ""),
                m.timestamp)
    failed_at = _sub_agent_failures(a)
    for p in a.pivots:
        # the JSON's "After exit_code: curl: (22) ..." and "After connection: ssh: ..." in
        # words: what the command printed
        end = p.summary.find(f" [msg {p.trigger_seq}]") if p.summary.startswith("After ") else -1
        reported = _reported_at(failed_at, p).rstrip()  # "[msg 7], reported at" a sub-agent's failure
        summary = (f"After {summary_said(p.summary[6:end])}{' ' + reported if reported else ''}{p.summary[end:]}"
                   if end > 6 else p.summary)
        add(p.session, p.seq, 5, "pivot", p.agent, summary, p.timestamp)
    for h in a.hypotheses[:60]:
        add(h.session, h.seq, 6, "hypothesis", h.agent, _short(h.text, 200), h.timestamp)
        if h.outcome_seq is not None:
            add(h.session, h.outcome_seq, 7, h.status, h.agent, _short(h.outcome, 200), h.outcome_timestamp)
    items.sort(key=lambda t: (t[0], t[1]))
    # Rows without a time take the last known time of their agent, so that sub-agents (whose
    # messages are numbered after the trunk) fall into place when sorted by time.
    last: dict[tuple[str, str], str] = {}
    for _, _, row in items:
        session = row["_session"]
        # A finding has no time of its own: it was said in a tool's result (a sub-agent's report)
        # or a reply, and the next message of its agent came seconds later. The last time before
        # it may be minutes older: SD302 from a sub-agent's report at 09:21 was put at 09:16, before
        # the sub-agent that found it had started.
        after = (session, row["seq"] + 1)
        row["timestamp"] = row["timestamp"] or known.get((session, row["seq"])) \
            or (known.get(after) if agents.get(after) == row["agent"] else None) or last.get((session, row["agent"]))
        if row["timestamp"]:
            last[(session, row["agent"])] = row["timestamp"]
    # Rows before the first time of their agent take the next time of their session: mini-swe-agent
    # stamps its replies and outputs but not the task prompt (SWE-agent/mini-swe-agent
    # src/minisweagent/models/litellm_model.py), and one row without a time left the whole
    # folder's timeline in file order.
    later: dict[str, list[tuple[int, str]]] = {}
    for (session, seq), ts in sorted(known.items()):
        later.setdefault(session, []).append((seq, ts))
    for _, _, row in items:
        session = row.pop("_session")
        if not row["timestamp"] and session in later:
            times = later[session]
            at = bisect_left(times, row["seq"], key=itemgetter(0))
            row["timestamp"] = times[at][1] if at < len(times) else None
    # By instant, not by text: sessions of a folder written by different tools give their times
    # in different forms (formats/instants.py); a time that names no instant keeps message order.
    at = [instant(row["timestamp"]) for _, _, row in items]
    if all(t is not None for t in at):
        at = _agent_clock(at, [(key[0], row["agent"]) for key, _, row in items])
        order = sorted(range(len(items)), key=lambda i: (at[i], items[i][0], items[i][1]))
        items = [items[i] for i in order]
    rows = [t[2] for t in items]
    if len(rows) <= TIMELINE_LIMIT:
        return rows
    # A long session (a benchmark rerun a hundred times) keeps how it started and how it ended:
    # cut at the limit, the timeline stopped before the fix and the reading that confirmed it.
    head, tail = rows[:TIMELINE_LIMIT // 2], rows[-(TIMELINE_LIMIT // 2):]
    gap = {"seq": None, "kind": "…", "agent": "", "timestamp": None,
           "text": f"{counted(len(rows) - len(head) - len(tail), 'row')} left out, from [msg {head[-1]['seq']}] to "
                   f"[msg {tail[0]['seq']}]"}
    return [*head, gap, *tail]


def _supporting(a: SessionAnalysis, extra_refs: set[int]) -> list[dict[str, Any]]:
    """One entry per referenced message: what happened there and where it is on disk."""
    by_seq: dict[int, dict[str, Any]] = {}

    def note(seq: int | None, agent: str, text: str, where: str = "") -> None:
        if seq is None:
            return
        entry = by_seq.setdefault(seq, {"seq": seq, "agent": agent, "notes": [], "where": where})
        if where and not entry["where"]:
            entry["where"] = where
        if text and text not in entry["notes"] and len(entry["notes"]) < 4:
            entry["notes"].append(text)

    for p in a.prompts[:20]:
        if p.text.strip():
            note(p.seq, p.agent, f"prompt: {_short(p.text, 300)}")
    wanted = set(extra_refs)
    for f in a.findings:
        wanted.update(f.evidence_seqs)
        note(f.seq, f.agent, f"{f.code}: {f.title}")
    for p in a.pivots:
        wanted.update((p.seq, p.trigger_seq))
    for lp in a.loops:
        wanted.update((lp.first_seq, lp.last_seq))
    statuses = _exit_statuses(a, a.errors[:60])
    for e in a.errors[:60]:
        wanted.add(e.seq)
        said = _short(e.message, 200)
        named = "" if error_said(e.exception, e.kind, said) == said else e.exception or ""  # not twice
        note(e.seq, e.agent, (_error_words(e, 200, statuses) if e.kind in WORDED_KINDS and not e.exception
                              else f"{e.kind}: {named} {said}".replace("  ", " "))
             + (f" ({e.file}:{e.line})" if e.file else ""),
             f"{e.source_file}:{e.source_line}" if e.source_file else "")
        if e.command_seq is not None:
            wanted.add(e.command_seq)
    for m in a.metrics:
        note(m.seq, m.agent, f"{m.name} = {m.value:g} {m.unit} ({m.context})", f"{m.file}:{m.line}" if m.file else "")
    for h in a.hypotheses[:60]:
        note(h.seq, h.agent, f"hypothesis: {h.text}")
        if h.outcome_seq is not None:
            note(h.outcome_seq, h.agent, f"{h.status}: {h.outcome}")
    for s in a.segments:
        wanted.update((s.start_seq, s.end_seq))
    for e in a.file_edits:
        if e.seq in wanted:
            note(e.seq, e.agent, f"{e.tool}: {e.path}")
    for c in a.commands:
        if c.seq in wanted or c.result_seq in wanted:
            where = f"{c.file}:{c.line}" if c.file else ""
            host = f" on {c.host}" if c.host else ""
            note(c.seq, c.agent, f"command{host}: {_short(c.command, 300)}", where)
            if c.result_seq is not None and c.result_seq != c.seq:
                note(c.result_seq, c.agent, f"result of [msg {c.seq}]" + (f": exit {c.exit_code}" if c.exit_code is not None else ""))
    # Last, so they only fill entries nothing else explains: a phase's first and last message
    # (a compaction, a summary line, a reply) said just "referenced above" behind its link.
    for s in a.segments:
        note(s.start_seq, s.agent, f"phase {s.index + 1} starts: {s.title}")
        note(s.end_seq, s.agent, f"phase {s.index + 1} ends")
    for seq in wanted:
        note(seq, "", "")
    return [by_seq[k] for k in sorted(by_seq)]


_MD_HEADING_MARKS = re.compile(r"\A\s*#{1,6}[ \t]+")
"""A Markdown ATX heading's opening marks (CommonMark: one to six #, then a space or tab)."""


def _short(text: str | None, limit: int) -> str:
    return cut_at_word(" ".join((text or "").split()), limit)


_GENERIC_RAISED = frozenset({"cuda_oom", "cuda_error", "nccl", "kv_cache_memory", "host_oom"})
"""Kinds counted by their kind, not by a generic exception name (RuntimeError) that raised them."""
_GENERIC_NAMES = dict.fromkeys(_GENERIC_RAISED, ("RuntimeError", "Exception"))
# torch's "RuntimeError: [enforce fail at alloc_cpu.cpp:...] DefaultCPUAllocator: not enough
# memory" and a fork's "OSError: [Errno 12] Cannot allocate memory" (a DataLoader's workers)
_GENERIC_NAMES["host_oom"] = ("RuntimeError", "Exception", "OSError")
_RAISED_AS = {"host_oom": "host_memory_raised"}
"""A kind raised as an exception that is no other failure of that kind: an allocation the host
refused is no process the kernel's OOM killer ended ("process killed for host memory")."""

_KIND_COUNTED = {"exit_code": ("failed command", "failed commands"),
                 "connection": ("failed connection", "failed connections"),
                 "tool_error": ("failed tool call", "failed tool calls"),
                 "timeout": ("command that timed out", "commands that timed out"),
                 "cuda_error": ("GPU error", "GPU errors"),
                 "cuda_oom": ("GPU out-of-memory error", "GPU out-of-memory errors"),
                 "kv_cache_memory": ("KV cache memory error", "KV cache memory errors"),
                 "host_oom": ("process killed for host memory", "processes killed for host memory"),
                 "host_memory_raised": ("host out-of-memory error", "host out-of-memory errors"),
                 "nccl": ("NCCL error", "NCCL errors"),
                 "http_error": ("HTTP error", "HTTP errors"),
                 "test_failure": ("failed test", "failed tests"),
                 "denied": ("call denied permission", "calls denied permission"),
                 "rejected": ("call the user refused", "calls the user refused"),
                 "hook_blocked": ("call a hook blocked", "calls a hook blocked"),
                 "cancelled": ("call cancelled with its batch", "calls cancelled with their batch")}
"""What went wrong counts the errors of each :data:`failures.WORDED_KINDS` in these words, not by
the JSON's kind ("1× exit_code [msg 6]", "1× host_oom [msg 2]")."""
_STATUS_SAID = frozenset({"exit_code", "timeout"})
"""Kinds whose first error What went wrong says as the timeline does ("exit status 2: ls: ...",
"timed out: ..."); any other's line is said as printed, its count naming the kind ("1 failed test
[msg 6] — test/...::test_accept: ...", not "— test failed: test/...")."""


def _sub_agent_failures(a: SessionAnalysis) -> dict[tuple[str, int], int]:
    """(session, pivot seq) -> the seq of the failure of the sub-agent each pivot turned from
    ("After sub-agent abc123's exit_code: ... [msg 2]", analysis._spawn_pivots: its last error;
    the summary links the report that handed it over alone). Few pivots, fewer of them such."""
    out: dict[tuple[str, int], int] = {}
    for p in a.pivots:
        end = p.summary.find("'s ", 16) if p.summary.startswith("After sub-agent ") else -1
        if end > 16:
            who = p.summary[16:end]
            seqs = [e.seq for e in a.errors if e.agent == who and e.session == p.session]
            if seqs:
                out[(p.session, p.seq)] = max(seqs)
    return out


def _reported_at(failed_at: dict[tuple[str, int], int], p: PivotRecord) -> str:
    """"[msg 7], reported at " before a pivot's [msg 2] where it turned from a sub-agent's failure
    (:func:`_sub_agent_failures`): the failure links its own message; "" for any other pivot."""
    seq = failed_at.get((p.session, p.seq)) if failed_at else None
    return f"[msg {seq}], reported at " if seq is not None and seq != p.trigger_seq else ""


def _error_words(e: ErrorRecord, limit: int, statuses: dict) -> str:
    """Error ``e`` as people read it (:func:`failures.failure_said`): a failure no exception names
    says what was printed, not the JSON's kind (``connection: ...``, ``tool_error: ...``), and a
    command that failed with no error of its own printed its exit status in words, not
    ``exit_code: ...``. ``statuses``: :func:`_exit_statuses`."""
    said = _short(e.message, limit)
    return failure_said(e.exception, e.kind, said, statuses.get((e.session, e.command_seq, e.seq))
                        if e.kind == "exit_code" else None)


def _exit_statuses(a: SessionAnalysis, errors: list[ErrorRecord]) -> dict:
    """(session, command seq, result seq) -> the exit status of the command of each of ``errors``
    known by its status alone (one pass over the commands, none where there is no such error);
    None where two calls answered in one message failed with two statuses."""
    keys = {(e.session, e.command_seq, e.seq) for e in errors if e.kind == "exit_code" and not e.exception}
    out: dict = {}
    if keys:
        for c in a.commands:
            key = (c.session, c.seq, c.result_seq)
            if key in keys:
                out[key] = c.exit_code if out.get(key, c.exit_code) == c.exit_code else None
    return out
