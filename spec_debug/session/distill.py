"""Distill: the diagnostic commands that mattered in a session, as a playbook (docs/playbooks.md).

"Mattered" means the command's output is evidence of a finding, or the command was the
trigger or the first step of a change of approach (a pivot). Commands that change things
(edits, copies, server launches) are left out: a playbook diagnoses, it does not repair.
Hosts and paths become vars with the session's values as defaults, the ``why`` of each step
is the agent's reasoning just before it, and ``provenance`` names the session and message
(after Agent Workflow Memory, arXiv:2409.07429: instance values become variables).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import yaml

from spec_debug.errors import UsageError
from spec_debug.playbook.templating import CONTEXT_NAMES
from spec_debug.session.analysis import SessionAnalysis
from spec_debug.session.records import CommandRecord
from spec_debug.session.shell import CATEGORY_TITLES

_NOT_DIAGNOSTIC = frozenset({"edit", "transfer", "launch_server"})
_SITE_PACKAGES = re.compile(r"(?:~|/)[\w./+-]*?/lib/python3\.\d+/site-packages")
_PYTHON = re.compile(r"(?:~|/)[\w./+-]*?/bin/python3?(?:\.\d+)?(?![\w./-])")
_PATH = re.compile(r"(?:~|/)[\w.+-]*(?:/[\w.+-]+)+/?")
_TIMEOUT = re.compile(r"^\s*timeout\s+(?:-\S+\s+)*(\d+)(?:s)?\s")


def distill_playbook(analysis: SessionAnalysis, name: str | None = None) -> dict:
    """A playbook document (plain data, ready for ``yaml.safe_dump``)."""
    chosen = select_commands(analysis)
    if not chosen:
        raise UsageError("nothing to distill: no command in the session led to a finding or a change of approach",
                         hint="run `spec-debug analyze` to see the commands, findings and pivots it recognised")
    hosts = Counter(c.host for c in chosen if c.host)
    primary = hosts.most_common(1)[0][0] if hosts else None
    users = Counter(c.user for c in chosen if c.host == primary and c.user)
    home = _home(users.most_common(1)[0][0] if users else None)
    names = _VarNames()
    steps = []
    ids: set[str] = set()
    for cmd in chosen:
        runs_on_primary = cmd.host is not None and cmd.host == primary and not cmd.container
        text = cmd.inner if runs_on_primary else cmd.command
        if not runs_on_primary and cmd.host:
            text = _replace_word(text, cmd.host, names.var_for_host(cmd.host))
        text = _templatize_paths(text, names, home if (runs_on_primary or not cmd.host) else None)
        step = {"id": _step_id(cmd, ids), "title": _title(cmd), "why": _why(cmd, analysis), "run": text}
        m = _TIMEOUT.match(cmd.inner or "")
        if m:
            step["timeout"] = int(m.group(1))
        step["provenance"] = {"session": cmd.session, "seq": cmd.seq, "agent": cmd.agent}
        steps.append(step)
    first_prompt = next((p.text for p in analysis.prompts if p.agent == "main"), "")
    session = chosen[0].session
    description = f"Distilled by spec-debug from session {session}"
    if first_prompt:
        words = " ".join(first_prompt.split())
        description += ": " + (words if len(words) <= 200 else words[:199].rstrip() + "…")
    if primary:
        description += f". Run against the host the session used, e.g. --host {primary}."
    return {
        "name": name or _slug(f"distilled_{session}")[:60],
        "description": description,
        "vars": names.defaults,
        "steps": steps,
    }


def dump_playbook(doc: dict) -> str:
    header = "# Distilled by `spec-debug distill`; review before running.\n"
    return header + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)


def select_commands(analysis: SessionAnalysis) -> list[CommandRecord]:
    wanted: set[tuple[str, int]] = set()
    for f in analysis.findings:
        wanted.update((f.session, s) for s in f.evidence_seqs)
    for p in analysis.pivots:
        wanted.update(((p.session, p.seq), (p.session, p.trigger_seq)))
    chosen, seen = [], set()
    for cmd in analysis.commands:
        if cmd.category in _NOT_DIAGNOSTIC:
            continue
        if (cmd.session, cmd.seq) not in wanted and (cmd.session, cmd.result_seq) not in wanted:
            continue
        key = re.sub(r"\s+", " ", cmd.inner or cmd.command)
        if key in seen:
            continue
        seen.add(key)
        chosen.append(cmd)
    return chosen


class _VarNames:
    def __init__(self) -> None:
        self.defaults: dict[str, str] = {}
        self._by_value: dict[str, str] = {}

    def name(self, preferred: str, value: str) -> str:
        if value in self._by_value:
            return self._by_value[value]
        base = _slug(preferred) or "path"
        if base[0].isdigit():
            base = "v_" + base
        name, n = base, 2
        # A path ending in /stdout or /steps must not become a var the loader refuses (it
        # would shadow a built-in name of the templates).
        while name in self.defaults or name in CONTEXT_NAMES:
            name, n = f"{base}_{n}", n + 1
        self.defaults[name] = value
        self._by_value[value] = name
        return name

    def var_for_host(self, host: str) -> str:
        return "{{ " + self.name("host_" + host, host) + " }}"


def _templatize_paths(text: str, names: _VarNames, home: str | None) -> str:
    """Replace bare-word paths (outside quotes) by vars; ``~`` is expanded with the remote
    user's home, since a quoted value would not expand it."""
    out, pos = [], 0
    for m in _PATH.finditer(text):
        start, end = m.start(), m.end()
        if start < pos or not _bare_word(text, start, end):
            continue
        path = m.group(0)
        if path.startswith("~"):
            if home is None:
                continue
            path = home + path[1:]
        site = _SITE_PACKAGES.match(path)
        if site:
            var = names.name("site_packages", site.group(0))
            repl = "{{ " + var + " }}" + path[site.end():]
        elif _PYTHON.fullmatch(path):
            repl = "{{ " + names.name("python", path) + " }}"
        else:
            stem = path.rstrip("/").rsplit("/", 1)[-1]
            repl = "{{ " + names.name(stem, path) + " }}"
        out.append(text[pos:start])
        out.append(repl)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _bare_word(text: str, start: int, end: int) -> bool:
    """Outside quotes, and a whole shell word (so a quoted value stays one word)."""
    single = double = False
    for ch in text[:start]:
        if ch == "'" and not double:
            single = not single
        elif ch == '"' and not single:
            double = not double
    if single or double:
        return False
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return before in " \t=(<>|;&" and after in " \t)<>|;&\n"


def _replace_word(text: str, word: str, repl: str) -> str:
    return re.sub(rf"(?<![\w.-]){re.escape(word)}(?![\w.-])", lambda _m: repl, text)


def _home(user: str | None) -> str | None:
    if user is None:
        return None
    return "/root" if user == "root" else f"/home/{user}"


def _step_id(cmd: CommandRecord, ids: set[str]) -> str:
    inner = cmd.inner or cmd.command
    module = re.search(r"-m\s+([\w.]+)", inner)
    path = next((m for m in _PATH.finditer(inner) if not _PYTHON.fullmatch(m.group(0))), None)
    if module:
        key = module.group(1).rsplit(".", 1)[-1]
    elif path:
        key = path.group(0).rstrip("/").rsplit("/", 1)[-1]
    else:
        key = (inner.split() or ["step"])[0].rsplit("/", 1)[-1]
    base = _slug(f"{cmd.category}_{key}")[:48] or "step"
    step_id, n = base, 2
    while step_id in ids:
        step_id, n = f"{base}_{n}", n + 1
    ids.add(step_id)
    return step_id


def _title(cmd: CommandRecord) -> str:
    desc = (cmd.description or "").strip()
    if desc and not (cmd.command.startswith(desc) or desc.startswith(cmd.command[:40])):
        return desc[:120]
    inner = " ".join((cmd.inner or cmd.command).split())
    return f"{CATEGORY_TITLES[cmd.category]}: {inner[:80]}"


def _why(cmd: CommandRecord, analysis: SessionAnalysis) -> str:
    parts = [cmd.why] if cmd.why else []
    for f in analysis.findings:
        if f.session == cmd.session and (cmd.seq in f.evidence_seqs or cmd.result_seq in f.evidence_seqs):
            parts.append(f"In the session its output was evidence for {f.code} ({f.title}).")
    for p in analysis.pivots:
        if p.session != cmd.session:
            continue
        if p.seq == cmd.seq:
            parts.append(f"It was the first step of a change of approach after [msg {p.trigger_seq}].")
        elif p.trigger_seq == cmd.result_seq:
            parts.append(f"Its result ({p.kind}) prompted a change of approach at [msg {p.seq}].")
    return " ".join(parts) or f"{CATEGORY_TITLES[cmd.category]} step from the session."


def _slug(text: str) -> str:
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]", "_", text.lower())).strip("_")


def write_playbook(analysis: SessionAnalysis, output: Path, name: str | None = None) -> dict:
    doc = distill_playbook(analysis, name)
    text = dump_playbook(doc)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    return doc
