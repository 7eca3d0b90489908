"""Speculative-decoding facts in a session, mapped to the finding catalog
(:mod:`spec_debug.diagnose.codes`, issue #5), so a session can be compared with what the
playbooks check.

Each matcher is pure: text in, observations out. Comparisons across messages (two
different concatenation orders, a standalone accuracy against a claimed one) live in
:mod:`spec_debug.session.analysis`, which holds the session state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM_STEPS_1 = re.compile(r"--speculative[-_]num[-_]steps(?:=|\s+)['\"]?1\b(?!\.)")
# vLLM: the JSON of --speculative-config (quotes escaped as \" when the command sits in an
# ssh command's double quotes), its dotted form (``--speculative-config.num_speculative_tokens
# 1``, vllm/utils FlexibleArgumentParser) and the flag of vLLM <= 0.7
# (``--num-speculative-tokens``, vllm/engine/arg_utils.py).
_VLLM_ONE_TOKEN = re.compile(
    r"\\?[\"']num_speculative_tokens\\?[\"']\s*:\s*1\b(?!\.)"
    r"|--(?:speculative[-_]config\.)?num[-_]speculative[-_]tokens(?:=|\s+)['\"]?1\b(?!\.)")
_LAUNCH = re.compile(r"launch_server|sglang serve|vllm serve|vllm\.entrypoints")
# vLLM's spelling of the same choice: "method": "eagle" in --speculative-config (JSON,
# escaped inside ssh double quotes, or the dotted flag); vllm/config/speculative.py names
# the methods "eagle" and "eagle3".
_ALGO_EAGLE = re.compile(
    r"--speculative[-_]algorithm(?:=|\s+)['\"]?EAGLE\b(?!3)"
    r"|\\?[\"']method\\?[\"']\s*:\s*\\?[\"']eagle\\?[\"']"
    r"|--speculative[-_]config\.method(?:=|\s+)['\"]?eagle\b(?!3)", re.I)
_CONCAT = re.compile(r"\b(?:torch\.)?cat(?:enate)?\(\s*\[([^\[\]\n]{3,200})\]")
_CONCAT_ITEM = re.compile(r"layer|embed|hidden|aux|\bh\d")
_LAYER_IDS = re.compile(r"(?:eagle_)?aux_hidden_state_layer_ids[\"']?\s*[:=]\s*[\[(]\s*([\d,\s]+)[\])]")
_D2T_MISSING = re.compile(r"(?:\bno|missing|without)\s+(?:a\s+)?[`'\"]?d2t\b|\bd2t\b[^\n]{0,40}\b(?:missing|not found|absent)\b|KeyError: '?d2t'?", re.I)
_D2T_ABSOLUTE = re.compile(r"\bd2t\b[^\n]{0,80}\b(?:absolute|not (?:an )?offset)|\babsolute (?:token )?ids?\b[^\n]{0,60}\bd2t\b", re.I)
_NORM_FLAG = re.compile(
    r"\b(norm_before_residual|norm_before_fc|fc_norm|norm_output)\b[^\n]{0,80}?\b(?:ignor\w*|not (?:read|used|supported|honou?red)|unsupported)"
    r"|\b(?:ignor\w*|does not (?:read|honou?r|support))\b[^\n]{0,80}?\b(norm_before_residual|norm_before_fc|fc_norm|norm_output)\b", re.I)


# A compiled literal finds a short needle about twice as fast as ``in`` does (measured on
# 10 KB server logs, CPython 3.11); gates that scan every output use it, after a test for
# one character every match must hold (a one-character ``in`` is a memchr).
_HAS_CAT_CALL = re.compile(r"cat(?:enate)?\(").search
_HAS_D2T = re.compile("d2t").search


@dataclass(slots=True)
class Observation:
    code: str
    evidence: str


def launch_observations(text: str) -> list[Observation]:
    """Launch-command facts (run on commands and on outputs that echo a command line)."""
    out = []
    if "v" not in text or "speculative" not in text or ("launch_server" not in text and " serve" not in text
                                      and "vllm.entrypoints" not in text):
        return out
    if "\\\n" in text:  # a command continued over lines ("... \\" then a newline) is one line
        text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    for line in text.splitlines():
        if not _LAUNCH.search(line):
            continue
        m = _NUM_STEPS_1.search(line) or _VLLM_ONE_TOKEN.search(line)
        if m:
            out.append(Observation("SD101", _around(line, m.start(), m.end())))
        m = _ALGO_EAGLE.search(line)
        if m and "eagle3" in line.lower():
            out.append(Observation("SD103", _around(line, m.start(), m.end())))
    return out


def concat_orders(text: str) -> list[tuple[str, ...]]:
    """Hidden-state concatenation orders written in a text: ``cat([embed, layer3, layer31])``."""
    if "[" not in text or not _HAS_CAT_CALL(text):  # _CONCAT needs "cat(["
        return []
    orders = []
    for m in _CONCAT.finditer(text):
        items = tuple("".join(part.split()).lower() for part in m.group(1).split(",") if part.strip())
        if len(items) >= 2 and any(_CONCAT_ITEM.search(i) for i in items):
            orders.append(items)
    return orders


def layer_id_lists(text: str) -> list[tuple[int, ...]]:
    if "_" not in text or "aux_hidden_state_layer_ids" not in text:  # the literal _LAYER_IDS needs
        return []
    return [tuple(int(x) for x in re.findall(r"\d+", m.group(1))) for m in _LAYER_IDS.finditer(text)]


def text_observations(text: str) -> list[Observation]:
    """d2t and norm-flag facts stated in prose or printed by a tool."""
    out = []
    if _HAS_D2T(text):
        m = _D2T_ABSOLUTE.search(text)
        if m:
            out.append(Observation("SD302", _around(text, m.start(), m.end())))
        m = _D2T_MISSING.search(text)
        if m:
            out.append(Observation("SD301", _around(text, m.start(), m.end())))
    # "_" first: a one-character search is a memchr, and every flag name has one.
    if "_" in text and "norm" in text and ("norm_before" in text or "fc_norm" in text or "norm_output" in text):
        m = _NORM_FLAG.search(text)
        if m:
            out.append(Observation("SD701", _around(text, m.start(), m.end())))
    return out


def _around(text: str, start: int, end: int) -> str:
    """The line around a match, cut at word boundaries to about 80 characters each side."""
    line_start = text.rfind("\n", 0, start) + 1
    nl = text.find("\n", end)
    line_end = nl if nl >= 0 else len(text)
    a, b = max(line_start, start - 80), min(line_end, end + 80)
    if a > line_start:
        a = text.find(" ", a, start) + 1 or a
    if b < line_end:
        b = text.rfind(" ", end, b) if text.rfind(" ", end, b) > 0 else b
    return ("…" if a > line_start else "") + " ".join(text[a:b].split()) + ("…" if b < line_end else "")
