"""Distill: the diagnostic commands that mattered in a session, as a playbook (docs/playbooks.md).

"Mattered" means the command's output is evidence of a finding, or the command was the
trigger or the first step of a change of approach (a pivot). Commands that change things
(edits, copies, server launches) are left out: a playbook diagnoses, it does not repair.
Hosts and paths become vars with the session's values as defaults, the ``why`` of each step
is the agent's reasoning just before it, and ``provenance`` names the session and message
(after Agent Workflow Memory, arXiv:2409.07429: instance values become variables). Each step
runs with no one at a terminal (:mod:`unattended`: no editor, REPL or login shell, ``top`` in
batch mode, ``docker exec`` without ``-t``), and one check is one step.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from spec_debug.counted import counted
from spec_debug.diagnose.catalog import CATALOG
from spec_debug.errors import UsageError
from spec_debug.playbook.pasted_characters import ascii_meant
from spec_debug.playbook.shell_quotes import unclosed_quote
from spec_debug.playbook.templating import CONTEXT_NAMES
from spec_debug.probes.registry import get_probe
from spec_debug.redact import MASK, is_secret_name, redact_text, secret_spans
from spec_debug.session.analysis import SessionAnalysis
from spec_debug.session.builtin_checks import LISTED_WORDS, SERVED_WORDS, builtin_check_steps, checked_findings
from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.failures import NOT_RUN, summary_said
from spec_debug.session.follow import FOLLOW_TIMEOUT_S, follows_output
from spec_debug.session.formats.common import only_attachments
from spec_debug.session.formats.instants import instant
from spec_debug.session.host_changes import changes_host
from spec_debug.session.records import MAX_COMMAND_CHARS, CommandRecord, FindingRecord, PivotRecord
from spec_debug.session.shell import CATEGORY_TITLES, parse_target, script_made_locally, script_run, ssh_heredoc
from spec_debug.session.shell import template as command_template
from spec_debug.session.version_checks import checked_packages, deciding_checks
from spec_debug.session.shell_words import pipefail_after, simple_commands, ssh_reads_local_file, status_pipeline
from spec_debug.session.stopped_servers import benchmarks_of_stopped_servers
from spec_debug.session.timeout_limit import timeout_limit
from spec_debug.session.unattended import (host_command, interactive, keeping_remote_status, keeping_status, run_once,
                                           without_tty)
from spec_debug.session.working_folder import reads_working_folder
from spec_debug.store import write_output

_NOT_DIAGNOSTIC = frozenset({"edit", "transfer", "launch_server"})
_SITE_PACKAGES = re.compile(r"(?:~|/)[\w./+-]*?/lib/python3\.\d+/site-packages")
_PYTHON = re.compile(r"(?:~|/)[\w./+-]*?/bin/python3?(?:\.\d+)?(?![\w./-])")
_PATH = re.compile(r"(?:~|/)[\w.+-]*(?:/[\w.+-]+)+/?")
_KERNEL_PATHS = ("/dev/", "/proc/", "/sys/")
"""The kernel's files (devices, procfs, sysfs; hier(7)): one name on every Linux host."""


def in_time_order(a: SessionAnalysis) -> SessionAnalysis:
    """The analysis of a folder with its sessions in the order they happened. A folder lists
    them by file name, and Claude Code names a session by a random UUID: the session that went
    on from where another stopped (context ran out, the next day) was as often read first. Then
    the postmortem said "throughput went from" its fixed reading to the first session's broken
    one and took its title from "continue on gpu01…", and a playbook ran the later checks first.
    Sessions are ordered by their first time when every one has a time; each session's records
    keep their order."""
    if len(a.sessions) < 2:
        return a
    starts = [instant(s.get("first_timestamp")) for s in a.sessions]
    if any(t is None for t in starts) or starts == sorted(starts):
        return a
    order = sorted(range(len(a.sessions)), key=lambda i: starts[i])
    rank = {a.sessions[i].get("id"): k for k, i in enumerate(order)}
    last = len(rank)

    def by_session(records: list) -> list:
        return sorted(records, key=lambda r: rank.get(r.session, last))

    segments = [replace(g, index=i) for i, g in enumerate(by_session(a.segments))]
    return replace(
        a, sessions=[a.sessions[i] for i in order],
        agents=sorted(a.agents, key=lambda ag: rank.get(ag.get("session"), last)),
        prompts=by_session(a.prompts), commands=by_session(a.commands), errors=by_session(a.errors),
        metrics=by_session(a.metrics), findings=by_session(a.findings), pivots=by_session(a.pivots),
        loops=by_session(a.loops), hypotheses=by_session(a.hypotheses), segments=segments,
        checkpoints_seen=by_session(a.checkpoints_seen), file_edits=by_session(a.file_edits),
    )


def distill_playbook(analysis: SessionAnalysis, name: str | None = None) -> dict:
    """A playbook document (plain data, ready for ``yaml.safe_dump``)."""
    analysis = in_time_order(analysis)
    chosen = select_commands(analysis)
    launch_findings = _launch_findings(analysis)
    # a finding a built-in check covers, stated after a read with no command (the Read tool): its check
    checked = checked_findings(analysis) if not chosen and not launch_findings else []
    if not chosen and not launch_findings and not checked:
        changing = select_commands(analysis, keep_changes=True)
        cut = select_commands(analysis, cut=True)
        unclosed = select_commands(analysis, unclosed=True)
        if unclosed and not changing and not cut:
            raise UsageError(f"nothing to distill: every command that led to a finding or a change of approach "
                             f"opens a quote that never closes, so the shell failed it before it ran "
                             f"({changes_text(unclosed, reason=False)})",
                             hint="write the command the session meant, with its quotes closed, as a playbook "
                                  "step by hand")
        if cut and not changing:
            raise UsageError(f"nothing to distill: every command that led to a finding or a change of approach is "
                             f"longer than {MAX_COMMAND_CHARS} characters, and only its start was kept "
                             f"({changes_text(cut, reason=False)})",
                             hint="copy the script from the transcript into a playbook step by hand")
        if changing:
            raise UsageError("nothing to distill: every command that led to a finding or a change of approach "
                             f"changes the host ({changes_text(changing)})",
                             hint="a playbook only diagnoses; write the fix as a runbook step by hand")
        if not analysis.commands:
            # an empty file, a binary one, a chat with no tool call: "no command led to a
            # finding" sent the reader to look for findings in a file that holds no command
            raise UsageError(f"nothing to distill: the session holds no command ({_read_text(analysis.stats)})",
                             hint="pass the transcript of a session that ran commands (`spec-debug analyze` shows "
                                  "what was read)")
        raise UsageError("nothing to distill: no command in the session led to a finding or a change of approach",
                         hint="run `spec-debug analyze` to see the commands, findings and pivots it recognised")
    primary = _primary_host(chosen, analysis) if chosen else _findings_host(launch_findings or checked)
    # how the session reached that host: a launch-flag playbook has no chosen command there, and
    # its user, port and jump host are the launch's (was "--host gpu01" for `ssh -p 2222 ubuntu@gpu01`)
    reached = [c for c in chosen if c.host == primary] or [c for c in analysis.commands if c.host == primary]
    # a terminal log's `ssh root@gpu02`, then commands at a `❯` prompt that names no user: the
    # login's (was --host gpu02, logging in as whoever runs spec-debug)
    user = _commonest(c.user for c in reached) or _commonest(c.user for c in analysis.commands if c.host == primary)
    home = _home(user)
    names = _VarNames()
    steps = []
    ids: set[str] = set()
    # Every launch finding is audited, wherever the session saw it: the step runs on each host of
    # the run, and one seen on another host than the playbook's (`ssh gpu02 python -m
    # sglang.launch_server ...` while the checks ran on gpu01) names that host, in the step and in
    # the description (was dropped: no audit step, and no word of gpu02's server).
    elsewhere = list(dict.fromkeys(h for f in sorted(launch_findings, key=lambda f: f.seq)
                                   for h in _finding_hosts(f) if h != primary))
    if launch_findings:
        steps.append(_launch_audit_step(launch_findings, names, ids, primary, elsewhere))
    said: set[str] = set()
    led = _led_by_their_words(analysis.commands)
    decided = deciding_checks(analysis.commands)
    together = answered_together(analysis.commands)
    runs: set[str] = set()
    fleet = {c.host for c in analysis.commands if c.host and _fleet_host(c.host)}
    for cmd in chosen:
        script = _remote_script(cmd)
        if script is not None:
            cmd = replace(cmd, inner=script)
        on_host = host_command(cmd.command, cmd.host) if cmd.container and cmd.host == primary else None
        if cmd.container and on_host is None and script is None and (typed := _typed_in_container(cmd)) is not None:
            # typed at the container's prompt (`docker exec -it sglang bash`, then the command):
            # it runs there again through docker exec, from the host (was the bare command, on
            # the host itself, outside the container)
            if cmd.host == primary:
                on_host = typed
            else:
                cmd = replace(cmd, command=typed)
        runs_on_primary = cmd.host is not None and cmd.host == primary and (not cmd.container or on_host is not None)
        # The command as text with var slots (see _slot); the slots become {{ var }} at the end,
        # and everything else is kept literally even where it looks like a template. A container
        # on the playbook's host is reached from the host (`docker exec`), not through the ssh
        # hop the session took to get there: that hop would have the host ssh to itself.
        raw = on_host or (cmd.inner if runs_on_primary else cmd.command)
        if not on_host and not runs_on_primary and cmd.host and primary and script is None:
            # Another host reached through the playbook's (`ssh gpu01 'ssh gpu02 nvidia-smi'`,
            # `ssh -J gpu01 gpu02 nvidia-smi`): the step runs on gpu01, so it is what gpu01 ran,
            # the hop from there (was the whole line: gpu01 ssh'd to itself, or jumped through itself)
            raw = host_command(cmd.command, primary) or (cmd.inner if _jumps_from(cmd, primary) else raw)
        if not on_host and not runs_on_primary and cmd.host and "$" in raw and cmd.inner != raw \
                and parse_target(raw).host is None:
            # `ssh $H2 'x'` with H2 set by an earlier command of the log: the step's shell has no
            # $H2, so it sends what ran there to the host (below) (was `ssh gpu07 'ssh $H2 ...'`)
            raw = cmd.inner
        raw = keeping_status(run_once(without_tty(raw.replace(_SLOT, ""))))
        if cmd.host and not runs_on_primary and not on_host:
            raw = keeping_remote_status(raw, cmd.host)  # `ssh gpu02 'x; echo $?'` on a host of its own
        # `—model-path` or `nvidia\u2011smi` pasted from a document failed in the session; the loader
        # refuses it, so the step runs the ASCII that was meant and its why says so.
        raw, pasted = ascii_meant(raw)
        here = runs_on_primary or not cmd.host
        # `~` is the remote user's home only on the host: the session's own shell (a laptop's
        # `➜  ~/eagle` prompt) has a home of its own, which the step's why keeps as `~`
        folder = _working_folder(cmd, raw, home if runs_on_primary or not cmd.host and not primary else None)
        away = None
        if folder and not cmd.host and primary:
            # Ran in the session's own shell (the laptop's folder, Codex's `workdir`), while the
            # playbook runs on the host: `cd /Users/alice/eagle && python3 checks/x.py` there
            # failed with "No such file or directory", and never ran the check. The files it
            # reads are the session machine's: the step waits for the folder on the host.
            away, folder = folder, None
        if cmd.host and not runs_on_primary and parse_target(raw).host != cmd.host:
            if folder:  # typed at another host's prompt: that host's folder, inside the hop
                home_part = "~/" if folder.startswith("~/") else ""  # unquoted, so that it expands
                raw, folder = f"cd {home_part}{shlex.quote(folder[len(home_part):])} && {raw}", None
            raw = _ssh_hop(cmd, raw, primary, analysis.commands)
        secrets = _secrets_to_slots(raw, names)
        text = secrets.text
        if not runs_on_primary and cmd.host:
            text = _replace_host(text, cmd.host, names)
        elif not cmd.host and not cmd.container and primary:
            # `curl http://10.1.230.174:30000/get_server_info` typed where the session ran: the
            # host is a var like any other, not a constant every host of a fleet run would query
            text = _replace_host(text, primary, names)
        text = _host_words(_url_hosts(text, names), fleet, names)
        text = _templatize_paths(text, names, home if here else None, in_quotes=here)
        if folder:
            text = f"cd {_slot(names.name('workdir', folder))} && {text}"
        elif away:
            text = f"cd {_slot(names.away_folder(away))} && {text}"
        run = _as_template(text)
        if run in runs:
            # `cat ~/x/config.json` and `cat /home/alice/x/config.json`, `nvidia-smi` typed on the
            # host and sent through ssh: one check, one step (the first one's provenance)
            continue
        runs.add(run)
        step = {"id": _step_id(cmd, ids), "title": _title(cmd, names), "why": _why_said(_why(cmd, analysis, said, led, decided, together), names),
                "run": run}
        if pasted:
            step["why"] += (" The session's command had characters pasted from a document; the step writes "
                            f"the ASCII meant ({', '.join(pasted)}).")
        copied = _copied_first(cmd, analysis.commands)
        if copied is not None:
            # `scp test_drafter.py gpu01:/tmp/` then `ssh gpu01 python /tmp/test_drafter.py`: the
            # script is on the host only because the session put it there (was a step that failed
            # with "No such file" on any other host, or after /tmp was cleaned, with no word why)
            shown = " ".join(redact_text(copied.inner or copied.command).split())
            step["why"] += (f" The session copied the script to the host first (`{cut_at_word(shown, 100)}` "
                            f"[msg {copied.seq}]): copy it there before running this step.")
        if away:
            var = names.away_folder(away)
            step["why"] += (f" The session ran it on its own machine, in {redact_text(away)}, not on the host: "
                            f"--var {var}=DIR runs it from the folder that holds what it reads (on the host; "
                            f"with --host local, that folder). Skipped without it.")
        if secrets.names or away:
            # Skipped with a line naming the var until the user passes it (--var NAME=...).
            step["requires"] = [*secrets.names, *([names.away_folder(away)] if away else [])]
        innermost = run_once(cmd.inner) if cmd.inner else cmd.command  # past the ssh hop and the exec
        # `timeout 60 ssh gpu01 'python -m x'`: the limit the session set is around the hop, which
        # the step does not keep (the step had none, and ran as long as the runner lets it)
        limit = timeout_limit(innermost) or (timeout_limit(cmd.command) if cmd.inner else None)
        follows = None if limit else follows_output(innermost)
        if follows:
            # `tail -f` in a session ran until someone (or the agent's tool timeout) stopped it;
            # a step has no one to stop it and the run would wait forever
            limit = FOLLOW_TIMEOUT_S
            step["why"] += f" It runs until stopped ({follows}): the step stops it after {limit} s."
        if limit:
            step["timeout"] = limit
        hidden = _status_hidden_by(innermost) if not follows else None
        if hidden:
            step["why"] += (f" Its status is `{hidden[1]}`'s, as in the session's shell: where `{hidden[0]}` "
                            f"fails, the step still passes, and says so only in its output.")
        step["provenance"] = {"session": cmd.session, "seq": cmd.seq, "agent": cmd.agent}
        steps.append(step)
    # spec-debug's own check of what the session found by hand (a d2t printed, a config read)
    steps += builtin_check_steps(analysis, names, ids, primary, bool(launch_findings))
    first_prompt = next((p.text for p in analysis.prompts if p.agent == "main" and p.text.strip()
                         and not only_attachments(p.text)), "")
    session = chosen[0].session if chosen else (launch_findings or checked)[0].session
    description = f"Distilled by spec-debug from session {session}"
    if first_prompt:
        words = " ".join(redact_text(first_prompt).split())
        description += ": " + cut_at_word(words, 200)
    if primary:  # one full stop between the prompt's last sentence and this one ("…" is a stop)
        destination = _destination(primary, user, _commonest(c.port for c in reached))
        description = _then(description, f"Run against the host the session used, e.g. --host {destination}.")
        description += _jump_note(primary, reached, "it")
    if elsewhere:
        others = ",".join(_reached_as(h, analysis.commands) for h in elsewhere)
        also = _also_on_primary(launch_findings, primary, elsewhere)
        description = _then(description, f"The launch flags it found wrong were {'also ' if also else ''}those of "
                                          f"the server on {', '.join(elsewhere)}: {'add' if primary else 'run with'} "
                                          f"--host {others} to audit it.")
        for host in elsewhere:  # as for the playbook's host above (was no word of the jump host)
            description += _jump_note(host, analysis.commands, host)
    return {
        "name": name or _slug(f"distilled_{session}")[:60],
        "description": description,
        "vars": names.defaults,
        "steps": steps,
    }


def _read_text(stats: dict) -> str:
    """What was read: ``1 event read; 10 lines skipped: 10 binary``."""
    text = f"{counted(stats.get('events', 0), 'event')} read"
    skipped = stats.get("lines_skipped", 0)
    if skipped:
        kinds = [f"{stats[k]} {k.replace('_', ' ')}" for k in ("binary", "broken_json", "non_object", "too_long")
                 if stats.get(k)]
        text += f"; {counted(skipped, 'line')} skipped: {', '.join(kinds)}"
    return text


def _launch_findings(analysis: SessionAnalysis) -> list[FindingRecord]:
    """The session's findings that the launch_flags probe checks for (SD101-SD104: a launch
    command or a server's command line seen in the session). Their command is a repair (a
    server launch is no diagnostic step), but the check of it is: the probe reads the flags
    the server on the host runs with and applies the engine's own rules. Its codes of another
    area (SD201, for a vLLM pipeline-parallel EAGLE-3 launch) are not: a session's SD201 is a
    concatenation order it saw, which the configs and layout steps check."""
    codes = frozenset(code for code in get_probe("launch_flags").codes if CATALOG[code].area == "launch flags")
    return [f for f in analysis.findings if f.code in codes]


def _findings_host(found: list[FindingRecord]) -> str | None:
    return _commonest(f.host for f in found)


def _finding_hosts(found: FindingRecord) -> list[str]:
    """Every host a finding was seen on (a record of an older analysis has ``host`` alone)."""
    return found.hosts or ([found.host] if found.host else [])


def _also_on_primary(found: list[FindingRecord], primary: str | None, elsewhere: list[str]) -> bool:
    """A finding was seen on the playbook's host and on another (the same launch on gpu01 and
    gpu02): the others are audited too, not instead."""
    return any(primary in hosts and set(hosts) & set(elsewhere) for hosts in map(_finding_hosts, found))


def _launch_audit_step(found: list[FindingRecord], names: _VarNames, ids: set[str], primary: str | None,
                       elsewhere: list[str]) -> dict:
    """One launch_flags step for every launch finding of the session, first in the playbook (the
    cheapest check, as in perf_regression). ``server_cmdline`` defaults to empty: the probe
    audits the server running on the host, which is what a later run of the playbook is for.
    ``elsewhere``: the hosts other than the playbook's (``primary``) the findings were seen on,
    named in the step's why."""
    ordered = sorted(found, key=lambda f: f.seq)
    first = ordered[0]
    # the playbook's first step and var: no name is taken yet; later ones step around these
    var, step_id = "server_cmdline", "launch_flags"
    names.defaults[var] = ""
    ids.add(step_id)
    # where a finding was seen, when that is not the playbook's host alone: all its hosts
    said = list(dict.fromkeys(f"{f.code} [msg {f.seq}]" + (f" on {', '.join(_finding_hosts(f))}"
                                                           if set(_finding_hosts(f)) & set(elsewhere) else "")
                              + f": {f.title}" for f in ordered))
    also = _also_on_primary(found, primary, elsewhere)
    evidence = " ".join(redact_text(first.evidence[0]).split()) if first.evidence else ""
    why = f"The session found {'; '.join(said[:4])}" + (f" and {len(said) - 4} more" if len(said) > 4 else "") + "."
    if evidence:
        why += f" Evidence: {cut_at_word(evidence, 200)}."
    why += (" This step reads the launch flags of the server running on the host and applies the engine's own "
            f"rules to them; --var {var}='...' audits a command line instead.")
    if elsewhere and also:
        # the same launch on the playbook's host and on others (gpu01, then gpu02)
        why += (f" The session saw these launch flags on {', '.join(elsewhere)} too: run the playbook on "
                f"{'those hosts' if len(elsewhere) > 1 else 'that host'} too.")
    elif elsewhere and primary:
        why += (f" The session's server ran on {', '.join(elsewhere)}, not on {primary} where its other checks ran: "
                f"run the playbook on {'those hosts' if len(elsewhere) > 1 else 'that host'} too.")
    title = "Launch-flag audit of the serving engine" + (f" (found on {', '.join(elsewhere)}{' too' if also else ''})"
                                                         if elsewhere else "")
    return {"id": step_id, "title": title, "why": why, "probe": "launch_flags",
            "with": {"server_cmdline": "{{ " + var + " }}"}, "timeout": 60,
            "provenance": {"session": first.session, "seq": first.seq, "agent": first.agent}}


def _copied_first(cmd: CommandRecord, commands: list[CommandRecord]) -> CommandRecord | None:
    """The session's last copy (scp, rsync: a ``transfer``) to the host ``cmd`` runs on, before
    ``cmd``, that names the script it runs (``python /tmp/test_drafter.py`` on gpu01 after ``scp
    test_drafter.py gpu01:/tmp/``)."""
    name = script_run(run_once(cmd.inner) if cmd.inner else cmd.command)
    if not name or not cmd.host:
        return None  # a script run where the session ran (no host): a copy went elsewhere, or came from there
    word = re.compile(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])")
    return next((c for c in reversed(commands) if c.session == cmd.session and c.seq < cmd.seq
                 and c.category == "transfer" and c.host == cmd.host and word.search(c.command)), None)


def _working_folder(cmd: CommandRecord, command: str, home: str | None) -> str | None:
    """The folder the step must run ``command`` from: the one the session ran it in, when it
    names a path relative to it (``python3 checks/accept_len.py`` run in /root/work). A step
    starts in the remote user's home, or where spec-debug runs, and found no checks/ there.
    ``cmd.cwd`` is only known for a command run by the shell it was typed in (not one sent
    through ssh or into a container: they ran in the home or the container's folder); ``~`` is
    the session user's ``home`` (a var's value in quotes would not expand it)."""
    folder = cmd.cwd
    if not folder or cmd.container or not reads_working_folder(command):
        return None
    if folder == "~" or folder.startswith("~/"):
        if home is None:
            return folder if folder != "~" else None
        folder = home + folder[1:]
    return folder if folder.startswith(("/", "~/")) else None


_PLAIN_WORDS = re.compile(r"[\w./=:,@%+-]+(?: [\w./=:,@%+-]+)*")


def _typed_in_container(cmd: CommandRecord) -> str | None:
    """``docker exec NAME CMD`` for a command typed in a docker container's shell (a terminal log's
    ``docker exec -it sglang bash``, then ``nvidia-smi`` at the container's prompt): the command
    runs in the container again, from its host. ``sh -c`` where the line has shell syntax (the
    container's shell read it; exec runs argv without one: docker docs, ``docker exec``). None for
    a command that itself reaches the container (``docker exec sglang nvidia-smi``), or a pod."""
    if not cmd.container.startswith("docker:") or parse_target(cmd.command).container is not None:
        return None
    name = shlex.quote(cmd.container[len("docker:"):])
    command = cmd.command.strip()
    if _PLAIN_WORDS.fullmatch(command):
        return f"docker exec {name} {command}"
    return f"docker exec {name} sh -c {shlex.quote(command)}"


def _ssh_hop(cmd: CommandRecord, command: str, primary: str | None, commands: list[CommandRecord]) -> str:
    """A command typed in a shell on another host (a terminal log's `ssh gpu01`, then
    `nvidia-smi` at gpu01's prompt) sent there: as typed, the step ran it on the playbook's
    host instead, and checked the wrong machine without a word. It goes there as the session's
    login did: as the user it logged in as (a prompt without one, `❯`, names none: the login's
    `ssh root@gpu02` does) and through its jump hosts (`ssh -J admin@bastion root@gpu02`: was a
    bare `ssh gpu02`, which the bastion's network does not route to), less those up to the
    playbook's host, where the step already runs (playbooks name no host per step, so the hop
    is the step's own `ssh -J`, as ssh(1) writes it)."""
    port = f"-p {cmd.port} " if cmd.port and cmd.port != 22 else ""
    login = cmd.user or _commonest(c.user for c in commands if c.session == cmd.session and c.host == cmd.host)
    user = f"{login}@" if login else ""
    hops = _jump_hops(cmd.jump)
    names = [_hop_name(hop) for hop in hops]
    if primary in names:
        hops = hops[len(names) - names[::-1].index(primary):]
    jump = f"-J {shlex.quote(','.join(hops))} " if hops else ""
    return f"ssh {jump}{port}{user}{cmd.host} {shlex.quote(command)}"


def _status_hidden_by(command: str) -> tuple[str, str] | None:
    """(first program, last program) of a pipeline into ``head`` or ``tail`` whose status is the
    last one's (`ls /models/missing | head`, `python3 load.py 2>&1 | tail -n 5`), None for any
    other command. The step keeps bash's default, as the session's shell had it: with pipefail
    (bash(1), Pipelines) `cat big.log | head` fails with 141 whenever head stops reading first
    (SIGPIPE), and `grep ERROR log | tail` and `diff a b | tail` fail where grep found nothing and
    the files differ, both good news; the step says what its status does not show instead."""
    if "|" not in command or "head" not in command and "tail" not in command:
        return None
    pipeline = status_pipeline(command)
    if pipeline is None or len(pipeline) < 2 or pipefail_after(command, False):
        return None
    last = pipeline[-1][0].rsplit("/", 1)[-1]
    first = next((w for w in pipeline[0] if "=" not in w), "").rsplit("/", 1)[-1]
    if last not in ("head", "tail") or not first or first in ("echo", "printf"):
        return None  # an echo into head has no failure to hide
    return first, last


def _jump_hops(jump: str | None) -> list[str]:
    """The hops of an ``-J`` list (``a,root@gpu01:2222``), in order."""
    return [hop for hop in (jump or "").split(",") if hop]


def _hop_name(hop: str) -> str:
    """The host of one ``-J`` hop: ``gpu01`` of ``ssh://root@gpu01:2222``, ``::1`` of ``[::1]:22``."""
    last = hop.removeprefix("ssh://").rpartition("@")[2]
    return last[1:].partition("]")[0] if last.startswith("[") else last.partition(":")[0]


def _jumps_from(cmd: CommandRecord, host: str) -> bool:
    """Whether the last jump host of ``cmd``'s ssh (``-J a,root@gpu01:2222``) is ``host``."""
    hops = _jump_hops(cmd.jump)
    return bool(hops) and _hop_name(hops[-1]) == host


def _reached_as(host: str, commands: list[CommandRecord]) -> str:
    """:func:`_destination` of ``host`` with the user and port the session's commands there used most."""
    there = [c for c in commands if c.host == host]
    return _destination(host, _commonest(c.user for c in there), _commonest(c.port for c in there))


def _jump_note(host: str, commands: list[CommandRecord], said_as: str) -> str:
    """The sentence for a host the session reached through a jump host, "" for one it did not:
    `ssh -J admin@bastion gpu02` in the session, and --host gpu02 alone does not reach it from
    where the session ran; the runner follows ProxyJump from ~/.ssh/config."""
    hop = _commonest(c.jump for c in commands if c.host == host)
    if hop is None:
        return ""
    return f" The session reached {said_as} through the jump host {hop}: give {host} `ProxyJump {hop}` in ~/.ssh/config."


def _commonest(values: Iterable[Any]) -> Any:
    """The value given most often, leaving out empty ones (the first seen of a tie); None for none."""
    counts = Counter(value for value in values if value)
    return counts.most_common(1)[0][0] if counts else None


def _then(description: str, sentence: str) -> str:
    """The description with one more sentence, one full stop between ("…", "?" and "!" are
    stops: a prompt that asked "…dies right after loading the draft model, why?" was followed
    by ". Run against the host")."""
    if description.endswith(("…", "?", "!")):
        return f"{description} {sentence}"
    # "…look at this log:" ends in a colon that would announce our sentence ("log:. Run …")
    return description.rstrip(".:;,") + ". " + sentence


def _destination(host: str, user: str | None, port: int | None) -> str:
    """``--host`` for the host as the session's ssh reached it: the user whose home the path vars
    assume (``ssh ubuntu@gpu01`` from a laptop where one is alice), the port of ``ssh -p 2222``,
    and an IPv6 address in the brackets the host parser needs (spec_debug/runner/ssh_config.py,
    parse_destination: a bare ``2001:db8::5`` reads as host and port and is refused)."""
    text = f"[{host}]" if ":" in host else host
    if user:
        text = f"{user}@{text}"
    return f"{text}:{port}" if port and port != 22 else text


def changes_text(commands: list[CommandRecord], limit: int = 3, *, reason: bool = True) -> str:
    """`pkill -f sglang` [msg 12] (pkill), ...: what was left out and why (``reason``: the change
    it makes), for one line."""
    shown = []
    for c in commands[:limit]:
        text = " ".join(redact_text(_remote_script(c) or c.inner or c.command).split())
        text = text if len(text) <= 60 else text[:59] + "…"
        why = f" ({changes_host(_remote_script(c) or c.inner or c.command)})" if reason else ""
        shown.append(f"`{text}` [msg {c.seq}]{why}")
    return ", ".join(shown) + (f" and {len(commands) - limit} more" if len(commands) > limit else "")


def _primary_host(chosen: list[CommandRecord], analysis: SessionAnalysis) -> str | None:
    """The host the playbook runs on: the one most chosen steps ran on; a tie goes to the host
    the whole session worked on most, then to the one the report names (one step on the training
    host and one on the GPU host is a GPU-host playbook when the session lived there)."""
    hosts = Counter(c.host for c in chosen if c.host)
    if not hosts:
        return None
    everywhere = Counter(c.host for c in analysis.commands if c.host)
    report = next((p.text for p in analysis.prompts if p.agent == "main"), "")
    return max(hosts, key=lambda h: (hosts[h], everywhere[h], h in report))


class _PlaybookDumper(yaml.SafeDumper):
    """Multi-line commands (heredocs, python -c scripts) as literal blocks, read as written."""


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # PyYAML falls back to a quoted style by itself where a block cannot hold the text
    # (trailing spaces, tabs after a newline, control characters).
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_PlaybookDumper.add_representer(str, _str_presenter)


def dump_playbook(doc: dict) -> str:
    header = "# Distilled by `spec-debug distill`; review before running.\n"
    text = yaml.dump(doc, Dumper=_PlaybookDumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)
    return header + _with_var_notes(text, _var_notes(doc))


def _var_notes(doc: dict) -> dict[str, str]:
    """What each var of a distilled playbook is, as the comment beside it. `explain` shows that
    comment as the var's "what it is" (explain.var_notes); a distilled playbook had none, so
    the newcomer it is handed to saw `config_jsn` and `host_gpu01` with nothing to say what to
    pass. Derived from the document alone: where each var is used, and how."""
    notes = {}
    for var, value in (doc.get("vars") or {}).items():
        slot = re.compile(r"\{\{ " + re.escape(var) + r"(?: \||\s*\}\}| or )")
        users = [step for step in doc.get("steps") or [] if slot.search(json.dumps(step))]
        where = f" (step {users[0]['id']})" if users else ""
        if not value and any(str(step.get("run", "")).startswith(f"cd {{{{ {var} }}}} && ") for step in users):
            notes[var] = (f"empty: the folder on the host that holds what step {users[0]['id']} reads (the "
                          f"session ran it on its own machine: see its why); --var {var}=DIR runs it")
        elif any(var in (step.get("requires") or []) for step in users):
            notes[var] = (f"a secret the session used; its value is not kept: --var {var}=... runs the steps "
                          "that need it")
        elif any(var in (step.get("with") or {}).get("server_cmdline", "") for step in users):
            notes[var] = "empty: audit the server running on the host; or the launch command line to audit"
        elif (checkpoint := _checkpoint_input(var, users)) is not None:
            # a built-in check's draft_model / target_model (builtin_checks)
            audited = any(step.get("probe") == "launch_flags" for step in doc.get("steps") or [])
            # from the launch, or from a checkpoint file a command read (builtin_checks._checkpoint_vars)
            why = users[0].get("why", "")
            source = SERVED_WORDS if SERVED_WORDS in why else LISTED_WORDS if LISTED_WORDS in why else \
                "the session's commands read" if "the session's commands read" in why else "the session read"
            notes[var] = (f"the {checkpoint} checkpoint {source}{where}; --var {var}=DIR "
                          "for another" if value else
                          f"empty: the {checkpoint} checkpoint of the server running on the host, where the launch "
                          f"audit finds it; --var {var}=DIR names one" if audited else
                          f"empty: --var {var}=DIR names the {checkpoint} checkpoint step {users[0]['id']} checks "
                          "(skipped without it)" if checkpoint == "draft" else
                          # the probes take the verifier the draft's config names (probes/model_configs.py,
                          # eagle3/api.check_drafter_vocab): the step runs without it (was "skipped")
                          f"empty: the target the draft's config names, where the host has it; --var {var}=DIR "
                          f"names the one step {users[0]['id']} checks against")
        elif any(str(step.get("run", "")).startswith(f"cd {{{{ {var} }}}} && ") for step in users):
            notes[var] = f"the folder the session's command ran in{where}"
        elif isinstance(value, str) and "/" not in value and _fleet_host(value):
            notes[var] = f"a host the session's command named{where}; --var {var}=... for another"
        else:
            notes[var] = f"a path the session used{where}; --var {var}=... where it lies elsewhere"
    return notes


def _checkpoint_input(var: str, users: list[dict]) -> str | None:
    """"draft" or "target" where ``var`` fills a probe step's ``draft_model`` or ``target_model``."""
    for step in users:
        for key, value in (step.get("with") or {}).items():
            if key in ("draft_model", "target_model") and f"{{{{ {var} " in str(value):
                return key.removesuffix("_model")
    return None


def _with_var_notes(text: str, notes: dict[str, str]) -> str:
    """TEXT (the dumped playbook) with each note after its var's line. A value folded over
    several lines gets none: a comment there would end the scalar before its next line."""
    lines = text.split("\n")
    in_vars = False
    for i, line in enumerate(lines):
        if not line.startswith(" "):
            in_vars = line == "vars:"
            continue
        name = line[2:].partition(":")[0]
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if in_vars and name in notes and line.startswith(f"  {name}: ") and not following.startswith("   "):
            lines[i] = f"{line}  # {notes[name]}"
    return "\n".join(lines)


def select_commands(analysis: SessionAnalysis, keep_changes: bool = False, cut: bool = False,
                    stopped: bool = False, unclosed: bool = False) -> list[CommandRecord]:
    """The commands that mattered and only read the host; ``keep_changes``: those that changed it;
    ``cut``: those too long to keep whole (:data:`~spec_debug.session.records.MAX_COMMAND_CHARS`);
    ``stopped``: the benchmarks of a server the session started and stopped (stopped_servers);
    ``unclosed``: those with a quote that never closes (quote_left_open)."""
    # A command matters by its output (a finding's evidence, a pivot's trigger: its result's seq)
    # or as a pivot's first step (its own seq). A finding at the seq of the call itself is the
    # words the agent wrote in the same message ("Throughput is 410 tok/s against 520", then
    # `grep acceptance vllm.log`: an OpenAI chat message holds both), not what the command found.
    # and the check an agent had just read when it stated a finding in words (a sub-agent's
    # "d2t holds absolute ids" after printing d2t): the step that shows it
    read: set[tuple[str, int]] = {(f.session, s) for f in analysis.findings for s in f.read_seqs}
    # a pivot that names the call whose output prompted it (trigger_command) was read from that
    # call alone; one that names none (a metric's) from any call its message answered
    named: set[tuple[str, int, str]] = {(p.session, p.trigger_seq, typed) for p in analysis.pivots
                                        if (typed := getattr(p, "trigger_command", ""))}
    read.update((p.session, p.trigger_seq) for p in analysis.pivots if not getattr(p, "trigger_command", ""))
    outputs: set[tuple[str, int]] = {(f.session, s) for f in analysis.findings for s in f.evidence_seqs}
    outputs |= read
    outputs.update((session, seq) for session, seq, _ in named)
    # Of calls answered in one message, the one whose output showed the finding (was: each; an
    # `nvidia-smi` beside the `grep server_args` that showed one drafted token became a step),
    # and the one whose output prompted the pivot (was: each; a `grep -c "accept len"` beside
    # the `tail` that printed the IndexError)
    together = answered_together(analysis.commands)
    apart = {(c.session, c.seq, c.command) for c in analysis.commands
             if (c.session, c.result_seq) in together and (c.session, c.result_seq) not in read
             and (c.session, c.result_seq, c.command) not in named
             and not any(_shows(c, f, together) for f in analysis.findings)}
    starts = {(p.session, p.seq) for p in analysis.pivots}
    # A call blocked by a hook or refused never ran: nothing was learnt from it, and the step
    # would be blocked again (failures.NOT_RUN; a pivot's target is chosen before its result).
    not_run = {(e.session, e.command_seq) for e in analysis.errors if e.kind in NOT_RUN}
    # A benchmark of the server the session started without speculation (the baseline, on a
    # port of its own: `--port 30001` beside the EAGLE-3 server's 30000) measured a server the
    # playbook does not start, whose launch it leaves out: as a step it finds nothing listening.
    plain = {(m.session, m.seq) for m in analysis.metrics if m.baseline}
    # and one of a server the session started beside it and stopped again: nothing listens there
    gone = benchmarks_of_stopped_servers(analysis.commands)
    # and a version check that decided an upgrade (`pip show sglang`, then `pip install -U
    # sglang==0.4.6`): no error, no pivot, yet the diagnosis (version_checks)
    decided = deciding_checks(analysis.commands)
    repeats = _loop_repeats(analysis)
    chosen, seen = [], set()
    for cmd in analysis.commands:
        if cmd.category in _NOT_DIAGNOSTIC or (not_run and (cmd.session, cmd.seq) in not_run):
            continue
        if plain and (cmd.session, cmd.result_seq) in plain:
            continue
        if (cmd.session, cmd.result_seq) not in outputs and (cmd.session, cmd.seq) not in decided \
                and ((cmd.session, cmd.seq) not in starts or _version_check(cmd)):
            continue
        if apart and (cmd.session, cmd.seq, cmd.command) in apart and (cmd.session, cmd.seq) not in decided \
                and (cmd.session, cmd.seq) not in starts:
            continue  # its message answered another call, whose output showed the finding
        if ((cmd.session, cmd.seq) in gone) is not stopped:
            continue
        too_long = len(cmd.command) >= MAX_COMMAND_CHARS  # the record holds its start only
        if too_long or cut:
            if too_long and cut:
                chosen.append(cmd)  # a step would run part of a script
            continue
        if cmd.host and script_made_locally(cmd.command):
            continue  # the host ran what a local program printed: a step would run its shell bare
        if cmd.host and ssh_reads_local_file(cmd.command):
            # `ssh gpu01 'bash -s' < check.sh`: the script is a file where the session ran, not
            # on the host (was the step `bash -s < check.sh`: "No such file" there)
            continue
        inner = _remote_script(cmd) or cmd.inner
        if interactive(inner, host=cmd.host, container=cmd.container):
            continue  # needs someone at a terminal: unattended.interactive
        if _looks_around(inner or cmd.command) or _reads_docs(inner or cmd.command):
            continue
        # A failing loop's runs are one step: the run that turned the session, else the first
        if repeats and (cmd.session, cmd.seq) in repeats:
            loop, kept = repeats[(cmd.session, cmd.seq)]
            if (kept is not None and cmd.seq != kept) or (kept is None and loop in seen):
                continue
            seen.add(loop)
        # The same words on another host or in a container are another check (`nvidia-smi` on
        # the host and in the serving container); the same words on the host are merged later.
        key = (cmd.host, cmd.container, re.sub(r"\s+", " ", cmd.inner or cmd.command))
        if key in seen:
            continue
        seen.add(key)
        if (changes_host(inner or cmd.command) is None) is keep_changes:
            continue
        if not keep_changes and not stopped and quote_left_open(cmd) is not unclosed:
            continue
        chosen.append(cmd)
    return chosen


def quote_left_open(cmd: CommandRecord) -> bool:
    """The command opens a quote that never closes (`python3 -c 'print(1)`, or inside the ssh
    hop: `ssh gpu01 "cut -d' -f1 x"`): the shell failed it before it ran anything, and the
    loader refuses such a `run:` (playbook/shell_quotes.py). Was: distill stopped with that
    refusal and wrote no playbook at all."""
    texts = {cmd.command, _remote_script(cmd) or cmd.inner or cmd.command}
    return any(unclosed_quote(text) is not None for text in texts)


def _loop_repeats(analysis: SessionAnalysis) -> dict[tuple[str, int], tuple[tuple, int | None]]:
    """The runs of each failing loop (the same command, a number changed: `dump.py --layer 0`,
    `--layer 1`, … each crashing alike), by (session, seq): the loop they belong to (with the host
    and container they ran in) and the seq of the run to keep, the one whose result turned the
    session to another approach (None: the first the playbook keeps). A playbook runs the
    failing check once; its runs were one step each (four steps crashing alike)."""
    if not analysis.loops:
        return {}
    triggers = {(p.session, p.trigger_seq) for p in analysis.pivots}
    runs: dict[tuple[str, str], list[CommandRecord]] = {}
    for c in analysis.commands:
        runs.setdefault((c.session, c.agent), []).append(c)
    out: dict[tuple[str, int], tuple[tuple, int | None]] = {}
    for n, lp in enumerate(analysis.loops):
        groups: dict[tuple, list[CommandRecord]] = {}
        for c in runs.get((lp.session, lp.agent), ()):
            if lp.first_seq <= c.seq <= lp.last_seq and command_template(c.command) == lp.template:
                groups.setdefault(("loop", n, c.host, c.container), []).append(c)
        for loop, members in groups.items():
            if len(members) < 2:
                continue
            kept = next((c.seq for c in members if (c.session, c.result_seq) in triggers), None)
            out.update(((c.session, c.seq), (loop, kept)) for c in members)
    return out


_LOOK_AROUND = frozenset({"ls", "pwd", "clear", "true"})
_FILTERS = frozenset({"head", "wc", "sort"})


def _version_check(cmd: CommandRecord) -> bool:
    """A look at an installed version (`pip show sglang`): the analyzer's pivot to it is a step
    only where the version it showed was changed next (:func:`deciding_checks`), as before the
    analyzer counted the turn to it as a change of approach."""
    return cmd.category == "other" and bool(checked_packages(cmd.inner))


def _looks_around(command: str) -> bool:
    """``ls -la``, ``pwd``, ``ls | head``: the agent looking at the folder it was in, with no
    path named. The first step after a failure it may be (a wrong path, then ``ls -la``), but
    as a step it lists whatever folder the run starts in, and checks nothing."""
    argvs = list(simple_commands(command))
    if not argvs:
        return False
    for k, argv in enumerate(argvs):
        if isinstance(argv, str) or any(not w.startswith("-") for w in argv[1:]):
            return False
        name = argv[0].rsplit("/", 1)[-1]
        if name not in _LOOK_AROUND and not (k and name in _FILTERS):
            return False
    return True


_DOC_READERS = frozenset({"cat", "head", "less", "more", "bat", "batcat", "glow", "mdcat"})
_DOC_NAMES = ("readme", "changelog", "contributing", "license", "notice", "authors")
_DOC_ENDS = (".md", ".rst", ".adoc", ".markdown")


def _doc_file(word: str) -> bool:
    name = word.rstrip("/").rsplit("/", 1)[-1].lower()
    return name.startswith(_DOC_NAMES) or name.endswith(_DOC_ENDS)


def _reads_docs(command: str) -> bool:
    """``cat README.md``, ``cd sglang && head -n 80 docs/speculative_decoding.md``: the agent
    reading documentation, the first step of a new approach often, but no check of the host: as
    a step it prints the same page on every host. A log, config or checkpoint read stays."""
    argvs = list(simple_commands(command))
    read = False
    for k, argv in enumerate(argvs):
        if isinstance(argv, str) or not argv:
            return False
        name = argv[0].rsplit("/", 1)[-1]
        words = [w for w in argv[1:] if not w.startswith("-") and not w.isdigit()]
        if name in ("cd", "pushd") and not read:
            continue
        if name in _DOC_READERS and words and all(_doc_file(w) for w in words):
            read = True
            continue
        if k and read and name in _FILTERS and not words:
            continue
        return False
    return read


# A bare token names its own var (prefixes as in spec_debug/redact.py).
_TOKEN_SHAPES = (("hf_", "hf_token"), ("sk-", "api_key"), ("ghp_", "github_token"), ("gho_", "github_token"),
                 ("ghs_", "github_token"), ("github_pat_", "github_token"),
                 ("glpat-", "gitlab_token"), ("xox", "slack_token"), ("AKIA", "aws_access_key"),
                 ("ASIA", "aws_access_key"), ("AIza", "google_api_key"))


# Words Jinja reads as literals or operators, never as a var (jinja2 lexer.py and parser.py):
# `cat {{ true }}` ran `cat true` for /opt/flags/true, `{{ none }}` an empty string.
_JINJA_WORDS = frozenset({"true", "false", "none", "and", "or", "not", "in", "is", "if", "else"})


class _VarNames:
    def __init__(self) -> None:
        self.defaults: dict[str, str] = {}
        self._by_value: dict[str, str] = {}

    def secret_name(self, preferred: str, value: str) -> str:
        """A var for a secret: its default is empty (the value never reaches the playbook)."""
        key = "\x00secret:" + value
        if key not in self._by_value:
            shape = next((n for prefix, n in _TOKEN_SHAPES if value.lstrip("'\"").startswith(prefix)), None)
            base = shape or _slug(preferred) or "secret"
            # Named like a secret, so that run.json masks the value the user passes with --var.
            name = self.name(base if is_secret_name(base) else base + "_secret", key)
            self.defaults[name] = ""
        return self._by_value[key]

    def secret_var(self, value: str) -> str | None:
        """The var secret_name gave ``value``, or None where it gave none."""
        return self._by_value.get("\x00secret:" + value)

    def name(self, preferred: str, value: str) -> str:
        if value in self._by_value:
            return self._by_value[value]
        name = self._free(preferred)
        self.defaults[name] = value
        self._by_value[value] = name
        return name

    def away_folder(self, folder: str) -> str:
        """The var of a folder on the session's own machine (the laptop a step's command ran
        on): empty, as the host has no such folder; one var per folder."""
        key = "\x00away:" + folder
        if key not in self._by_value:
            self.defaults[self.name("workdir", key)] = ""
        return self._by_value[key]

    def empty(self, preferred: str) -> str:
        """A var of its own with an empty default (a path the session never named)."""
        name = self._free(preferred)
        self.defaults[name] = ""
        return name

    def _free(self, preferred: str) -> str:
        base = _slug(preferred) or "path"
        if base[0].isdigit():
            base = "v_" + base
        name, n = base, 2
        # A path ending in /stdout or /steps must not become a var the loader refuses (it
        # would shadow a built-in name of the templates).
        while name in self.defaults or name in CONTEXT_NAMES or name in _JINJA_WORDS:
            name, n = f"{base}_{n}", n + 1
        return name

    def var_for_host(self, host: str) -> str:
        return _slot(self.name("host_" + host, host))


# A var's place in a command while it is being templatized: a character no command carries
# (NUL cannot be in an argv), so the command's own text never looks like a slot.
_SLOT = "\x00"
_SLOT_RE = re.compile("\x00([^\x00]+)\x00")
# What Jinja reads as the start of a tag (jinja2 defaults: {{ }}, {% %}, {# #}). Commands are
# full of them: docker ps --format '{{.Names}}', kubectl -o go-template='{{range ...}}',
# bash's ${#array[@]} (a comment start to Jinja).
_JINJA_START = re.compile(r"\{[{%#]")
_ENDRAW = re.compile(r"\{%-?\s*endraw\s*-?%\}")


def _slot(var: str, *, raw: bool = False) -> str:
    return f"{_SLOT}{var}{'|raw' if raw else ''}{_SLOT}"


def _as_template(text: str) -> str:
    """The playbook's `run:` template: slots become {{ var }}, literal text that Jinja would
    read as a tag is wrapped in {% raw %} so the step runs the command the session ran."""
    out = []
    for i, part in enumerate(_SLOT_RE.split(text)):
        if i % 2:
            var, _, flt = part.partition("|")
            out.append("{{ " + var + (" | " + flt if flt else "") + " }}")
        elif _JINJA_START.search(part):
            if _ENDRAW.search(part):  # cannot sit inside a raw block: quote each opener instead
                out.append(_JINJA_START.sub(lambda m: "{{ '" + m.group(0) + "' | raw }}", part))
            else:  # raw from the first opener to the last closer: the rest stays readable
                start = _JINJA_START.search(part).start()
                end = max(part.rfind(closer) for closer in ("}}", "%}", "#}")) + 2
                end = end if end > start + 2 else len(part)
                out.append(part[:start] + "{% raw %}" + part[start:end] + "{% endraw %}" + part[end:])
        else:
            out.append(part)
    return "".join(out)


@dataclass(frozen=True)
class _Secrets:
    text: str
    names: list[str]


_INTO_SUDO = re.compile(r"\s*\|\s*sudo\b")

# The client a password is typed to names its var where the flag before it says nothing (`-p`,
# `-w`, `-N`) or a user's name stands there (`-U alice%PASS`, `-u alice,PASS`, `htpasswd -b FILE
# alice PASS`, `echo alice:PASS | chpasswd`): they were --var p_secret=..., alice_secret=...
# (spec_debug/redact.py masks these clients' passwords; the last client named before it wins).
_CLIENT_WORD = re.compile(r"(?<![\w./-])(mongo(?:sh|dump|restore|export|import|stat|top|files)?|mysql(?:dump|admin)?"
                          r"|sshpass|ldap[a-z]+|smb(?:client|cacls|get|tree)|rpcclient|net|redis-cli|docker|podman"
                          r"|nerdctl|helm|htpasswd|ssh-keygen|(?:un)?zip|7z[arz]?|keytool|jarsigner|lftp|user(?:add|mod)"
                          r"|openssl)(?=\s)")
_CLIENT_SECRET_NAMES = {"mongo": "mongo_password", "mysql": "mysql_password", "sshpass": "ssh_password",
                        "ldap": "ldap_password", "smb": "smb_password", "rpcclient": "smb_password",
                        "net": "smb_password", "redis-cli": "redis_password", "docker": "registry_password",
                        "podman": "registry_password", "nerdctl": "registry_password", "helm": "registry_password",
                        "htpasswd": "htpasswd_password", "ssh-keygen": "ssh_key_passphrase",
                        "zip": "archive_password", "unzip": "archive_password", "7z": "archive_password",
                        "keytool": "keystore_password", "jarsigner": "keystore_password", "lftp": "ftp_password",
                        "user": "user_password", "openssl": "openssl_password"}
_INTO_CHPASSWD = re.compile(r"['\"]?\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?chpasswd\b")


def _client_secret_name(text: str, start: int, end: int, flag: str) -> str | None:
    """The var name of a password typed to a client (_CLIENT_SECRET_NAMES), or None where the
    word before it names it already (`--api-key`, `MYSQL_PWD=`, `curl -u bot:`)."""
    before = text[:start]
    if _INTO_CHPASSWD.match(text, end) or "chpasswd" in before and "<<<" in before:
        return "user_password"
    if "passwd" in before and re.search(r"\bopenssl\s+passwd\b[^;|&\n]*$", before):
        return "user_password"  # `openssl passwd -6 PASS`: the login password it hashes
    if len(flag) > 1 and before[-1:] not in ("%", ",") and "htpasswd" not in before:
        return None
    segment = re.split(r"[;|&\n]", before)[-1]
    found = _CLIENT_WORD.findall(segment)
    if not found:
        return None
    client = found[-1]
    if client == "htpasswd" or before[-1:] in ("%", ",") or len(flag) == 1:
        # the two of one command, each for what it is (ssh-keygen(1): "-N new_passphrase",
        # "-P passphrase" the old one; ldappasswd(1): "-s newPasswd", "-a oldPasswd")
        if client == "ssh-keygen" and flag == "N":
            return "ssh_key_new_passphrase"
        if client == "ldappasswd" and flag in ("a", "s"):
            return "ldap_old_password" if flag == "a" else "ldap_new_password"
        for prefix in (client, client[:5], client[:4], client[:3], client[:2]):
            if prefix in _CLIENT_SECRET_NAMES:
                return _CLIENT_SECRET_NAMES[prefix]
    return None


def _secrets_to_slots(text: str, names: _VarNames) -> _Secrets:
    """Each secret in the command (a token, a password in a URL: spec_debug/redact.py) becomes
    a var with an empty default, so the playbook never holds it and the step asks for it."""
    spans = [(start, end) for start, end in secret_spans(text) if not _shell_reference(text[start:end])]
    if not spans:
        return _Secrets(text, [])
    out, pos, used = [], 0, []
    for start, end in spans:
        value = text[start:end]
        quoted = value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1
        before = text[:start]
        # `\"password\": \"` (a JSON body in double quotes) puts six marks between name and value
        name = re.search(r"([A-Za-z][\w-]*)(?:\W{0,4}|\\\"\s*:\s*\\\")$", before)
        preferred = name.group(1) if name else "secret"
        if "password" not in preferred:
            preferred = _client_secret_name(text, start, end, preferred) or preferred
        if preferred == "b" and re.search(r"\s-b\s*['\"]?$", before):
            preferred = "cookie"  # curl -b NAME=VALUE (was --var b_secret=...)
        if _INTO_SUDO.match(text, end) or before.rstrip().endswith("<<<"):
            preferred = "sudo_password"  # `echo PASS | sudo -S ...` was --var echo_secret=...
        var = names.secret_name(preferred, value)
        used.append(var)
        # Inside quotes a shell-quoted value would keep its quotes literally: splice it raw.
        inside_quotes = not quoted and not _outside_quotes(text, start)
        out.append(text[pos:start])
        if quoted:
            # The quotes stay: `HfApi(token="hf_...")` in a Python heredoc or `-c` script is a
            # string literal there, and `token={{ hf_token }}` a NameError; at shell level the
            # engine quotes the value for the quotes around it (templating.mark_quoted_templates).
            out.append(value[0] + _slot(var) + value[-1])
        else:
            out.append(_slot(var, raw=inside_quotes))
        pos = end
    out.append(text[pos:])
    return _Secrets("".join(out), list(dict.fromkeys(used)))


def _shell_reference(value: str) -> bool:
    """A value the shell fills in: ``$HF_TOKEN``, ``"${API_KEY}"``, ``$(cat ~/.cache/huggingface/token)``,
    a backquoted command. It is how a session keeps a secret off the command line (vLLM's docs
    send ``-H "Authorization: Bearer $VLLM_API_KEY"``), not a secret: as a var it made the step
    ask for a value the session never typed, and ``$(cat FILE)`` (masked up to its first space)
    left ``{{ hf_token }} FILE)``, a syntax error. Single quotes keep ``'$ecret'`` literal."""
    return value.startswith(("$", '"$', "`", '"`'))


def _templatize_paths(text: str, names: _VarNames, home: str | None, *, in_quotes: bool = False) -> str:
    """Replace bare-word paths (outside quotes) by vars; ``~`` is expanded with the remote
    user's home, since a quoted value would not expand it. With ``in_quotes`` (a command that
    runs on the playbook's host), an absolute path that is a whole word inside quotes
    (``torch.load(\"/models/eagle3/pytorch_model.bin\")`` in a ``python3 -c``) becomes a var
    too: the engine quotes a value for the quotes around it (playbook/templating.py,
    mark_quoted_templates). A second host's ssh command is kept as the session typed it."""
    out, pos = [], 0
    for m in _PATH.finditer(text):
        start, path = m.start(), m.group(0)
        if start < pos:
            continue
        end, path = _with_spaces(text, start, m.end(), path)
        quoted = not _bare_word(text, start, end)
        if quoted and not (in_quotes and path.startswith("/") and _quoted_word(text, start, end)):
            continue
        if path.startswith(_KERNEL_PATHS):
            continue  # /dev/null, /proc/meminfo: the same on every host, no value to ask for
        if path.startswith("~"):
            # ~/x is the session user's home; ~alice/x is alice's, which we do not know.
            if home is None or not path.startswith("~/"):
                continue
            path = home + path[1:]
        site = _SITE_PACKAGES.match(path)
        if site:
            repl = _slot(names.name("site_packages", site.group(0))) + path[site.end():]
        elif _PYTHON.fullmatch(path):
            repl = _slot(names.name("python", path))
        else:
            stem = path.rstrip("/").rsplit("/", 1)[-1]
            repl = _slot(names.name(stem, path))
        out.append(text[pos:start])
        out.append(repl)
        pos = end
    out.append(text[pos:])
    return "".join(out)


# The rest of a name with spaces after its first word: `/data/My\\ Models/x` (escaped) or the
# ` Models/eagle3/config.json` that closes `"/data/My Models/eagle3/config.json"` (quoted).
_ESCAPED_SPACES = re.compile(r"(?:\\ [\w.+-]+(?:/[\w.+-]+)*)+/?")
_SPACED_REST = re.compile(r"(?: [\w.+][\w.+-]*(?:/[\w.+-]+)*)+/?")


def _with_spaces(text: str, start: int, end: int, path: str) -> tuple[int, str]:
    """Where the path that ``_PATH`` matched at ``start`` really ends, and its value: a name
    with spaces is one path, not the word before its first space (was the var `my:
    /data/My` and `cat "{{ my }} Models/eagle3/config.json"`: --var my=/other ran the wrong file)."""
    escaped = _ESCAPED_SPACES.match(text, end)
    if escaped and _outside_quotes(text, start):
        return escaped.end(), (path + escaped.group(0)).replace("\\ ", " ")
    quote = text[start - 1] if start > 0 else ""
    if quote in ("'", '"') and _opens_quote(text, start - 1):
        # the quoted string is the path and nothing else: it closes right after its last word
        rest = _SPACED_REST.match(text, end)
        if rest and text[rest.end():rest.end() + 1] == quote:
            return rest.end(), text[start:rest.end()]
    return end, path


def _remote_script(cmd: CommandRecord) -> str | None:
    """What runs on the host when the session fed ``ssh`` its script in a heredoc: the script
    itself, or the remote command with the heredoc (``python3 - <<'PY'``); None otherwise
    (the analyzer reads it the same way: shell.ssh_heredoc)."""
    if not cmd.host or cmd.container:
        return None
    target = ssh_heredoc(cmd.command)
    return target.inner if target is not None and target.host == cmd.host else None


def _quotes_open(text: str, start: int) -> tuple[bool, bool]:
    """(single, double): the kind of quote open at ``start``."""
    single = double = False
    for ch in text[:start]:
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
    return single, double


def _outside_quotes(text: str, start: int) -> bool:
    return _quotes_open(text, start) == (False, False)


def _opens_quote(text: str, at: int) -> bool:
    """Whether the quote character at ``at`` opens a quoted string: outside quotes, or of the
    other kind inside one, where it is the quote of the shell a ``-c`` runs or of the code's
    string (`docker exec sglang sh -c "tail '/data/My Models/train.log'"`, `python3 -c
    "open('/data/My Models/config.json')"`). Only the outer quotes counted, so such a path was
    the var `my: /data/My` and the step `'{{ my }} Models/train.log'`."""
    single, double = _quotes_open(text, at)
    return not (single or double) or (double and text[at] == "'") or (single and text[at] == '"')


def _bare_word(text: str, start: int, end: int) -> bool:
    """Outside quotes, and a whole shell word (so a quoted value stays one word)."""
    if not _outside_quotes(text, start):
        return False
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before in " \t=(<>|;&" and after in " \t)<>|;&\n"


# The host of a URL (`curl http://gpu01:30000/...`, `http://user@10.1.2.3/`); IPv6 in brackets.
# The user part may hold a var's slot: a password in the URL is a secret var by now
# (`https://admin:{{ admin_secret }}@registry.internal`); not seen as one, the user was read as
# the host and became a `host_admin` var.
_URL_HOST = re.compile(r"(?<=://)((?:(?:[^/@\s'\"\x00]|\x00[^\x00]*\x00)+@)?)(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9_.-]+)"
                       r"(?=[:/'\"\s)]|$)")
# Object-store URLs name a bucket, not a host: `aws s3 ls s3://ckpts/eagle3/` became
# `s3://{{ host_ckpts }}/...`, a var explained as a host for another --host.
_BUCKET_SCHEME = re.compile(r"\b(?:s3[an]?|gs|gcs|az|abfss?|wasbs?|oss|r2|hf)://$", re.IGNORECASE)
_PRIVATE_IPV4 = re.compile(r"(?:10|192\.168|172\.(?:1[6-9]|2\d|3[01]))(?:\.\d{1,3}){2,3}")
_LOCAL = frozenset({"localhost", "0.0.0.0", "127.0.0.1", "[::1]", "[::]"})


def _url_hosts(text: str, names: _VarNames) -> str:
    """A fleet host in a URL as its var: a session with no ssh (the agent on a laptop querying
    `http://gpu01:30000/get_server_info`) left `gpu01` in `run:`, so the playbook asked gpu01
    whatever --host it ran for. Fleet hosts are single-label names, private IPv4 addresses and
    site-local names (.local, .internal, .lan); localhost and public sites
    (huggingface.co, github.com) stay as they are."""
    def one(m: re.Match) -> str:
        host = m.group(2)
        if not _fleet_host(host) or _BUCKET_SCHEME.search(m.string, 0, m.start()):
            return m.group(0)
        if host.startswith("["):  # the var holds the address, the URL keeps its brackets
            return m.group(1) + "[" + names.var_for_host(host[1:-1]) + "]"
        return m.group(1) + names.var_for_host(host)
    return _URL_HOST.sub(one, text)


# A host as a word of its own: `nc -zv gpu02 30000`, `--host 10.1.2.8`, `ping -c1 gpu02`; not a
# piece of a path (`/data/gpu02/x`), a file name (`gpu02.log`) or a slot.
_WORD_BEFORE = r"(?<![^\s='\"@,])"
_WORD_AFTER = r"(?![^\s:'\";,)|&])"
_PRIVATE_IPV4_WORD = re.compile(_WORD_BEFORE + r"(?:10(?:\.\d{1,3}){3}|(?:192\.168|172\.(?:1[6-9]|2\d|3[01]))(?:\.\d{1,3}){2})"
                                + _WORD_AFTER)


def _host_words(text: str, fleet: set[str], names: _VarNames) -> str:
    """A fleet host named as a word outside a URL, as its var: a host the session's ssh reached
    (``fleet``) or a private IPv4 address. Before, `curl http://10.1.2.8:30000/health` asked the
    var's host and `ping -c1 10.1.2.8` or `nc -zv gpu02 30000` in the same playbook the session's
    one, whatever the run was for."""
    for host in sorted(fleet, key=len, reverse=True):
        if host in text:
            word = re.compile(_WORD_BEFORE + re.escape(host) + _WORD_AFTER)
            text = word.sub(lambda _m, h=host: names.var_for_host(h), text)
    if "." in text:
        text = _PRIVATE_IPV4_WORD.sub(lambda m: names.var_for_host(m.group(0)), text)
    return text


def _fleet_host(host: str) -> bool:
    if host in _LOCAL or host.startswith("127."):
        return False
    if host.startswith("["):
        return host[1:3].lower() in ("fd", "fc") or host[1:5].lower() == "fe80"  # unique and link local
    return _PRIVATE_IPV4.fullmatch(host) is not None or ("." not in host and not host.isdigit()) or \
        host.endswith((".local", ".internal", ".lan"))


def _quoted_word(text: str, start: int, end: int) -> bool:
    """A whole word of a quoted string: a space, a quote or ``=`` before it, a space, a quote or
    the backslash of ``\\"`` after it (not the ``/x/y/`` of ``sed 's/x/y/'`` or of a URL)."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before in " \t=('\"" and after in " \t)'\"\\\n"


def _replace_host(text: str, host: str, names: _VarNames) -> str:
    """``host`` as its var wherever it is a word of ``text``. The var is made only then: a
    ``host_gpu01`` var that no step used sat in the playbook as if something read it."""
    word = re.compile(rf"(?<![\w.-]){re.escape(host)}(?![\w.-])")
    if not word.search(text):
        return text
    var = names.var_for_host(host)
    return word.sub(lambda _m: var, text)


def _home(user: str | None) -> str | None:
    if user is None:
        return None
    return "/root" if user == "root" else f"/home/{user}"


# The path of a URL (`http://gpu01:30000/v1/models`, `localhost:30000/health`).
_ENDPOINT = re.compile(r"(?:https?://[^/\s'\"]+|\b(?:localhost|\d+(?:\.\d+){3}):\d+)(/[\w./-]*)")


_SETUP_WORDS = frozenset({"export", "env", "sudo", "nohup", "time", "exec", "command"})


def _step_id(cmd: CommandRecord, ids: set[str]) -> str:
    inner = redact_text(cmd.inner or cmd.command)  # an id must not carry a token (HF_TOKEN=hf_... cmd)
    module = re.search(r"-m\s+([\w.]+)", inner)
    script = script_run(inner)
    endpoint = _ENDPOINT.search(inner)
    path = next((m for m in _PATH.finditer(inner) if not _PYTHON.fullmatch(m.group(0))), None)
    if module:
        key = module.group(1).rsplit(".", 1)[-1]
    elif script:
        # what runs (`benchmark_bench_py`), not its interpreter (`benchmark_python`, `benchmark_python_2`,
        # ... for every script) nor a path among its arguments (`benchmark_llama` for --model /models/llama)
        key = script
    elif endpoint:
        # what a request asks the server for (`health_get_server_info`), not its host
        # (`health_localhost`, `health_localhost_2`, ... for every endpoint of one server)
        key = endpoint.group(1).strip("/").replace("/", "_") or "root"
    elif path:
        # the whole name where it has spaces (`tail '/data/logs/my run/sglang.log'`: was `logs_my`)
        key = _with_spaces(inner, path.start(), path.end(), path.group(0))[1].rstrip("/").rsplit("/", 1)[-1]
    else:
        # past FOO=bar assignments and the words that only set up the command
        words = [w for w in inner.split() if not re.match(r"\w+=", w) and w not in _SETUP_WORDS]
        key = (words or ["step"])[0].rsplit("/", 1)[-1]
    if cmd.container:  # `gpu_status_nvidia_smi_in_sglang` beside the host's `gpu_status_nvidia_smi`
        key += "_in_" + cmd.container.split(":", 1)[-1]
    base = _slug(f"{cmd.category}_{key}")[:48] or "step"
    step_id, n = base, 2
    while step_id in ids:
        step_id, n = f"{base}_{n}", n + 1
    ids.add(step_id)
    return step_id


def _title(cmd: CommandRecord, names: _VarNames) -> str:
    # Redacted before it is cut: a token cut short no longer looks like one.
    desc = redact_text(cmd.description or "").strip()
    command = redact_text(cmd.command)
    if desc and not (command.startswith(desc) or desc.startswith(command[:40])):
        return desc[:120]
    inner = _title_secrets(" ".join((cmd.inner or cmd.command).split()), names)
    shown = cut_at_word(inner, 80)
    if shown.count(_SLOT) % 2:  # cut inside a var's slot: the var's name is no part of the title
        shown = shown[:shown.rfind(_SLOT)].rstrip(" ,;:(.=") + "…"
    # where it runs when that is not the host: `nvidia-smi` on the host and in the serving
    # container are two steps, and two titles
    place = f" (in {cmd.container.replace(':', ' ', 1)})" if cmd.container else ""
    return f"{CATEGORY_TITLES[cmd.category]}: {_SLOT_RE.sub(_VAR_IN_TITLE, shown)}{place}"


def _title_secrets(text: str, names: _VarNames) -> str:
    """``text`` with each secret a slot of the var its step's `run:` asks for (the title read
    `HF_TOKEN=***REDACTED*** huggingface-cli whoami` over `run: HF_TOKEN={{ hf_token }} ...`),
    and masked where no var holds it."""
    spans = [(start, end) for start, end in secret_spans(text) if not _shell_reference(text[start:end])]
    out, pos = [], 0
    for start, end in spans:
        value = text[start:end]
        quoted = value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1
        var = names.secret_var(value)
        slot = MASK if var is None else _slot(var)
        out += [text[pos:start], value[0] + slot + value[-1] if quoted else slot]
        pos = end
    return "".join(out) + text[pos:]


def _why_said(why: str, names: _VarNames) -> str:
    """``why`` redacted, a secret the playbook asks for as a var named as the title names it
    ("with the token <hf_token> the user gave"), not masked: the agent's words quoted the value
    the step's `run:` takes as ``{{ hf_token }}``. Only a why that held a secret is looked at again."""
    masked = redact_text(why)
    if masked == why:
        return why
    return redact_text(_SLOT_RE.sub(_VAR_IN_TITLE, _title_secrets(why, names)))


# A title is a label, not a template: `{{ hf_token }}` there was rendered by the run, to an empty
# value where the step was skipped for want of it ("HF_TOKEN= env | ..." masked to "HF_TOKEN=
# ***REDACTED*** | ...", "-p  --eval"); `<hf_token>` names the var and is shown as written.
_VAR_IN_TITLE = r"<\1>"


def _led_by_their_words(commands: list[CommandRecord]) -> set[tuple[str, int, str]]:
    """(session, seq, command) of each command that is the first its agent ran after the words it is shown
    with (``why``). The agent's last words stand for every command until it says more ("Let me see
    what changed in the checkout", then `git log`, then the benchmark): they explain the first
    step they led to, not the others, whether or not that first one became a step (the benchmark
    was given the git log's reason when `git log` was no step). Of calls made in one message
    (Gemini's parallel ``functionCall`` parts) the first is led: its words ("Counting the decode
    lines", then `grep -c` and `tail`) were the `tail` step's when `grep -c` was no step."""
    led: set[tuple[str, int, str]] = set()
    last: dict[tuple[str, str], str] = {}
    for c in commands:
        agent = (c.session, c.agent)
        if c.why and c.why != last.get(agent):
            led.add((c.session, c.seq, c.command))
        last[agent] = c.why
    return led


def _why(cmd: CommandRecord, analysis: SessionAnalysis, said: set[str], led: set[tuple[str, int, str]],
         decided: dict[tuple[str, int], CommandRecord] | None = None,
         together: dict[tuple[str, int], set[str]] | None = None) -> str:
    # The reasoning often leads into the command ("Let me check the speculators code: [bash]");
    # followed by our own sentences, its colon would announce them instead.
    why = _reason(cmd.why or "") if (cmd.session, cmd.seq, cmd.command) in led else ""
    why = why[:-1].rstrip() + "." if why.endswith(":") else why
    # The same words said again later stand for the step they were first said for.
    parts = [why] if why and why not in said else []
    said.add(why)
    for f in analysis.findings:
        if f.session != cmd.session or cmd.result_seq is None:
            continue
        if cmd.result_seq in f.evidence_seqs and _shows(cmd, f, together):
            parts.append(f"In the session its output was evidence for {f.code} ({f.title}).")
        elif cmd.result_seq in f.read_seqs:
            parts.append(f"In the session its output led to {f.code} ({f.title}).")
    for p in analysis.pivots:
        if p.session != cmd.session or p.seq == cmd.seq and _version_check(cmd):
            continue
        if p.seq == cmd.seq:
            after = trigger_said(p)
            parts.append(f"It was the first step of a change of approach after {after + ' ' if after else ''}"
                         f"[msg {p.trigger_seq}].")
        elif p.trigger_seq == cmd.result_seq and (not p.trigger_command or p.trigger_command == cmd.command):
            # of two calls answered in one message (`grep -c` and `tail` of one log), the one
            # whose output said it
            parts.append(f"Its result ({trigger_said(p, status=cmd.exit_code) or p.kind}) prompted a change of "
                         f"approach at [msg {p.seq}].")
    installed = decided.get((cmd.session, cmd.seq)) if decided else None
    if installed is not None:
        parts.append(f"In the session the version it showed was changed next: "
                     f"`{cut_at_word(installed.inner or installed.command, 100)}` [msg {installed.seq}].")
    return " ".join(parts) or f"{CATEGORY_TITLES[cmd.category]} step from the session."


def answered_together(commands: list[CommandRecord]) -> dict[tuple[str, int], set[str]]:
    """(session, result seq) -> the commands, as typed, of each message that answers several
    calls (Gemini's parallel ``functionCall`` parts answered in one turn): few or none."""
    answers: dict[tuple[str, int], set[str]] = {}
    for c in commands:
        if c.result_seq is not None:
            answers.setdefault((c.session, c.result_seq), set()).add(c.command)
    return {key: typed for key, typed in answers.items() if len(typed) > 1}


def _shows(cmd: CommandRecord, f: FindingRecord, together: dict[tuple[str, int], set[str]] | None) -> bool:
    """Whether the output of ``cmd`` is evidence for ``f``: its message is, and of calls that
    message answers, the finding names ``cmd`` (or none of them, where it was not told which:
    a layer-id list seen earlier than the output that contradicts it)."""
    if cmd.result_seq not in f.evidence_seqs:
        return False
    typed = together.get((cmd.session, cmd.result_seq)) if together else None
    return not typed or cmd.command in f.evidence_commands or typed.isdisjoint(f.evidence_commands)


def trigger_said(p: PivotRecord, limit: int = 140, status: int | None = None) -> str:
    """What prompted pivot ``p``, as its summary says it ("After UnboundLocalError: ... [msg 12],
    moved from ..."): a step's why named only the message ("after [msg 45]"), which the reader of
    a playbook does not have at hand. "" where the summary says it otherwise. A failure no
    exception names is said in words (:func:`failures.summary_said`: the summary's "exit_code:
    curl: (22) ..." is "exit status 22: curl: (22) ..." with the command's ``status``, else what
    it printed; "connection: ssh: ..." is "ssh: ...")."""
    if not p.summary.startswith("After "):
        return ""
    end = p.summary.find(f" [msg {p.trigger_seq}]")
    if end <= 6:
        return ""
    return cut_at_word(summary_said(p.summary[6:end], status), limit)


# A fenced block is the command itself, as mini-swe-agent and SWE-agent write their action
# (```mswea_bash_command ...```, ```bash ...```), or code an issue quotes: the step shows it
# in `run:`. An unclosed fence runs to the end of the text.
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_HEADER = re.compile(r"^(?:THOUGHT|DISCUSSION|Thought|Discussion)\s*:\s*")
_BOLD_TITLE = re.compile(r"^\*\*([^*]+?)\*\*(?:\s+(?=\S)|\s*$)")
_WHY_CUT = 280
"""reasoning.why_text keeps the last 320 characters and starts after the first sentence end in
their first half, or else at the first word (up to 40 characters in) and marks that start
"...": a why this long that begins "..." starts mid-sentence (a shorter one is the agent's own)."""


def _reason(why: str) -> str:
    """The agent's reasoning as a reason: without the tool call it wrote out, the THOUGHT:
    header, markdown bold, and the cut-off words before its first whole sentence."""
    text = " ".join(why.split())
    # (reasoning.why_text marks a start inside a sentence "...")
    if len(text) >= _WHY_CUT and text.startswith("..."):
        sentence = re.search(r"[.!?]\s+(?=[A-Z`*\"'(])", text)
        text = text[sentence.end():] if sentence else "…" + text[3:]
    text = _HEADER.sub("", _FENCE.sub(" ", text))
    # Codex heads each reasoning summary with a bold title ("**Checking the server log** I
    # suspect..."): the title is a sentence of its own, not the start of the next one; a summary
    # may be the title alone (a rollout's {"type": "reasoning", "summary": [{"type": "summary_text",
    # "text": "**Checking server**"}]}), and our sentences follow it ("Checking server Its result")
    text = _BOLD_TITLE.sub(lambda m: m.group(1) + ("" if m.group(1)[-1] in ".:!?" else ".") + " ", text)
    return " ".join(text.replace("**", "").split())


def _slug(text: str) -> str:
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]", "_", text.lower())).strip("_")


def write_playbook(analysis: SessionAnalysis, output: Path, name: str | None = None) -> dict:
    doc = distill_playbook(analysis, name)
    write_output(output, dump_playbook(doc))
    return doc
