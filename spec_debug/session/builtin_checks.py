"""The built-in check of what a session found by hand, as distill's steps.

A session that found the vocab map broken (SD302) did so with an ad hoc ``python -c
'...print(d2t[:6])'``; the playbook distill writes keeps that command, and adds the check
spec-debug ships for the same codes (the ``vocab_maps`` probe reads d2t, t2d and the head rows
against the target vocabulary; ``model_configs`` the aux layers, norm flags, RoPE and config
against weights), on the checkpoints the session's server was launched with. The launch-flag
codes have their own step (distill's launch audit)."""

from __future__ import annotations

import re
from typing import Protocol

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.errors import UsageError
from spec_debug.probes.registry import get_probe
from spec_debug.session.analysis import SessionAnalysis
from spec_debug.session.checkpoints_seen import CheckpointSeen
from spec_debug.session.cut_text import cut_at_word
from spec_debug.session.records import CommandRecord, FindingRecord

_CHECKS = (
    # (probe, step title, timeout in seconds, as perf_regression runs it)
    ("model_configs", "Draft and target config checks", 120),
    ("vocab_maps", "Vocabulary maps", 300),
)


# A checkpoint file a command names (`cat /ckpt/draft/config.json`, a `load_file(".../model.safetensors")`,
# the vocab maps beside them): its folder is the checkpoint, what the probes take as draft_model or
# target_model. An absolute or home path only: a relative one is of the folder the session ran in.
_CHECKPOINT_FILE = re.compile(r"""(?<![\w.~/-])((?:~|/)[^\s'"`;|&<>(){}$*]*?)/"""
                              r"""(?:config\.json|[\w.-]*\.safetensors|pytorch_model[\w.-]*\.bin|d2t\.npy|t2d\.npy)"""
                              r"""(?=$|[\s'"`;|&<>()\],])""")
# A folder named as a drafter (`kimi-k2.5-eagle3`, `llama31-8b-eagle3-r2`, `ckpt/draft`); any
# other is a target's. Read on the last two parts of the path, so that a training run's
# `kimi-k2.5-eagle3/checkpoint-4000` is a draft and `/models/Llama-3.1-8B` a target whatever
# lies above them.
_DRAFT_NAME = re.compile(r"eagle|draft|specul|\bmtp\b|nextn|medusa", re.I)
SERVED_WORDS = "the session's server was launched with"
"""How a check's why names checkpoints taken from a launch (distill's var notes read it)."""
LISTED_WORDS = "the server the session listed runs"
"""How a check's why names checkpoints taken from a process listing's output (the same)."""


class VarNames(Protocol):
    def name(self, preferred: str, value: str) -> str:
        """A var with default ``value`` (the same var for the same value)."""

    def empty(self, preferred: str) -> str:
        """A var of its own with an empty default."""


def checked_findings(analysis: SessionAnalysis) -> list[FindingRecord]:
    """The session's findings a built-in check of :data:`_CHECKS` covers, in seq order."""
    return sorted((f for probe, _, _ in _CHECKS for f in _found_by(analysis, probe)), key=lambda f: f.seq)


def _found_by(analysis: SessionAnalysis, probe: str) -> list[FindingRecord]:
    """The session's findings of ``probe``'s codes, in seq order."""
    codes = get_probe(probe).codes
    return sorted((f for f in analysis.findings if f.code in codes), key=lambda f: f.seq)


def builtin_check_steps(analysis: SessionAnalysis, names: VarNames, ids: set[str], primary: str | None,
                        audited: bool) -> list[dict]:
    """One step per probe whose codes the session found. ``names`` names the playbook's vars;
    ``ids`` holds the step ids taken; ``audited``: the playbook has a launch audit step, which
    finds the checkpoints of the server running on the host (``facts.resolved_draft_model``)."""
    steps = []
    draft = target = where = None
    for probe, title, timeout in _CHECKS:
        found = _found_by(analysis, probe)
        if not found:
            continue
        if where is None:  # one pair of vars for every check: one --var draft_model=DIR points them all
            draft, target, where = _checkpoint_vars(analysis.commands, primary, names, audited,
                                                    analysis.checkpoints_seen)
        step_id = probe if probe not in ids else f"{probe}_check"
        ids.add(step_id)
        said = "; ".join(f"{f.code} [msg {f.seq}]: {f.title}" for f in found[:4])
        why = (f"The session found {said}. This step runs spec-debug's own check for "
               f"{'it' if len(found) == 1 else 'them'} ({get_probe(probe).summary}) {where}.")
        steps.append({"id": step_id, "title": f"{title} (spec-debug's check of {', '.join(f.code for f in found)})",
                      "why": why, "probe": probe,
                      "with": {"draft_model": "{{ " + draft + " or facts.resolved_draft_model | default('') }}",
                               "target_model": "{{ " + target + " or facts.resolved_target_model | default('') }}"},
                      "timeout": timeout,
                      "provenance": {"session": found[0].session, "seq": found[0].seq, "agent": found[0].agent}})
    return steps


def _checkpoint_vars(commands: list[CommandRecord], primary: str | None, names: VarNames,
                     audited: bool, seen: list[CheckpointSeen] = ()) -> tuple[str, str, str]:
    """The draft and target vars of the checks, and the words that say where their values come
    from: the session's last server launch; else the server a process listing showed running
    (``seen``); else the checkpoint folders its commands or file tools read (a `cat
    /ckpt/draft/config.json` names the draft as surely as a launch does: was empty, and the
    check skipped until the user found the path in the transcript again)."""
    served = _served_models(commands, primary)
    if any(served):
        draft = names.name("draft_model", served[0]) if served[0] else names.empty("draft_model")
        target = names.name("target_model", served[1]) if served[1] else names.empty("target_model")
        return draft, target, (f"on the draft and target {SERVED_WORDS} ({served[0] or '?'}, {served[1] or '?'}); "
                               f"--var {draft}=DIR and --var {target}=DIR point it at other checkpoints")
    listings = [c for c in seen if c.how == "listed"]
    listed_models = next((c for c in reversed(listings) if c.host == primary), None) or \
        (listings[-1] if listings else None)
    if listed_models is not None:
        # `ps aux | grep [s]glang` of a server up before the session: its command line names them
        # (was: "the analysis does not keep that output", and the vars left empty)
        draft = names.name("draft_model", listed_models.draft) if listed_models.draft else names.empty("draft_model")
        target = names.name("target_model", listed_models.target) if listed_models.target \
            else names.empty("target_model")
        return draft, target, (f"on the draft and target {LISTED_WORDS} ({listed_models.draft or '?'}, "
                               f"{listed_models.target or '?'}; its command line at [msg {listed_models.seq}]); "
                               f"--var {draft}=DIR and --var {target}=DIR point it at other checkpoints")
    file_reads = [c for c in seen if c.how == "read"]
    read = _read_models(commands, primary, file_reads, {c.draft for c in seen if c.how == "config"})
    draft = names.name("draft_model", read[0][0]) if read[0] else names.empty("draft_model")
    target = names.name("target_model", read[1][0]) if read[1] else names.empty("target_model")
    if read[0] or read[1]:
        seen = [f"the {kind} {value[0]} [msg {value[1]}]" for kind, value in zip(("draft", "target"), read) if value]
        missing = [(var, kind) for var, kind, value in ((draft, "draft", read[0]), (target, "target", read[1]))
                   if not value]
        rest = "".join(f"; the session read no {kind} checkpoint: --var {var}=DIR names one"
                       + (" (empty: the running server's, as the launch audit finds it)" if audited else
                          " (empty: the one the draft's config names)" if kind == "target" else
                          " (the step is skipped without it)")
                       for var, kind in missing)
        by = "the session's commands" if not file_reads else "the session"
        return draft, target, (f"on the checkpoints {by} read ({', '.join(seen)}){rest}; "
                               f"--var {draft}=DIR and --var {target}=DIR point it at others")
    if audited:
        return draft, target, (f"on the draft and target of the server running on the host, as the launch audit "
                               f"finds them; --var {draft}=DIR and --var {target}=DIR name others")
    listed = _server_listing(commands, primary)
    if listed is not None:
        # The server was up before the session (no launch) and `ps` showed its command line, but
        # no path the analysis could read from it (a --config file, a line cut short): say where to look.
        return draft, target, (f"on the checkpoints --var {draft}=DIR and --var {target}=DIR name: the server's "
                               f"command line the session listed at [msg {listed.result_seq or listed.seq}] "
                               "(`" + cut_at_word(" ".join((listed.inner or listed.command).split()), 80) + "`) "
                               "names them (--speculative-draft-model-path and --model-path, or the "
                               "--speculative-config model and the served model)")
    return draft, target, (f"on the checkpoints --var {draft}=DIR and --var {target}=DIR name (the session launched "
                           "no server that names them, and read no checkpoint's files)")


def _checkpoint_name(folder: str) -> str:
    """What names the checkpoint in its folder's path: its last two parts, and in a Hugging Face
    cache (``models--yuhuili--EAGLE3-LLaMA3.1-Instruct-8B/snapshots/<rev>``) the repository's."""
    parts = folder.split("/")
    repo = [part for part in parts if part.startswith("models--")]
    return "/".join(parts[-2:] + repo[-1:])


# A listing of processes that looks for the serving engine (`ps aux | grep [s]glang`,
# `pgrep -af launch_server`): its output is the server's command line.
_SERVER_WORDS = re.compile(r"sglang|launch_server|vllm|\bserve\b", re.I)


def _server_listing(commands: list[CommandRecord], primary: str | None) -> CommandRecord | None:
    """The session's last process listing that looks for the server, on the playbook's host
    where it listed one there."""
    listings = [c for c in commands if c.category == "process" and _SERVER_WORDS.search(c.inner or c.command)
                and not (c.exit_code or c.is_error)]
    return next((c for c in reversed(listings) if c.host == primary), None) or (listings[-1] if listings else None)


def _read_models(commands: list[CommandRecord], primary: str | None, file_reads: list[CheckpointSeen] = (),
                 drafters: set[str] = frozenset()) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
    """The draft and target checkpoint folders the session's commands (or file tools,
    ``file_reads``) last named a file of (config.json, weights, vocab maps), each with the seq
    of the command; on the playbook's host where it read one there. A folder is the draft's where
    its name says so, or where the session printed its config and that showed a drafter's
    (``drafters``: ``/models/run7`` beside ``/models/DeepSeek-V3``)."""
    said = sorted([(c.seq, c.host, c.inner or c.command) for c in commands if c.category != "launch_server"]
                  + [(c.seq, c.host, c.path) for c in file_reads], key=lambda r: r[0])
    on_primary = [r for r in said if r[1] == primary]
    found: list[tuple[str, int] | None] = [None, None]
    for group in (on_primary, said):
        for seq, _, text in reversed(group):
            if "/" not in text:
                continue
            for m in reversed(list(_CHECKPOINT_FILE.finditer(text))):
                folder = m.group(1).rstrip("/")
                if not folder or folder in ("~", "/tmp"):
                    continue
                slot = 0 if folder in drafters or _DRAFT_NAME.search(_checkpoint_name(folder)) else 1
                if found[slot] is None:
                    found[slot] = (folder, seq)
        if any(found):
            break
    return found[0], found[1]


def _served_models(commands: list[CommandRecord], primary: str | None) -> tuple[str, str]:
    """The draft and target paths of the session's last server launch (on the playbook's host
    where it launched one there); ("", "") where no launch names them."""
    launches = [c for c in commands if c.category == "launch_server"]
    launches = [c for c in launches if c.host == primary] or launches
    for c in reversed(launches):
        try:
            cfg = parse_launch_command(c.inner or c.command)
        except (UsageError, ValueError):
            continue  # a launch line the session cut, or not a server's: the next one back
        if cfg.draft_model or cfg.target_model:
            return cfg.draft_model or "", cfg.target_model or ""
    return "", ""

