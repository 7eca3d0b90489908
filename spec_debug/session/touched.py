"""What an agent's commands changed, in topic words: which of its open guesses an outcome naming
only the symptom ("That fixed it: 96.8 tok/s now") answers.

Worked out only when such an outcome comes with more than one guess open (rare), from the
launches and edits the agent kept (:class:`Change`), never on the per-event path.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from spec_debug.session import reasoning
from spec_debug.session.formats.common import EDIT_TEXT_CHARS, edited_text


@dataclass(slots=True)
class Change:
    seq: int
    command: str
    """The command as its host ran it (a launch's, an edit's)."""
    before: str | None
    """For a launch, the agent's launch before it: only what differs between the two was
    changed. None for an edit (``sed -i 's/"num_steps": 8/"num_steps": 3/' config.json``),
    whose words are all what it changed."""


def edit_text(path: str, text: str) -> str:
    """The words an edit tool's call changed, bounded (:data:`EDIT_TEXT_CHARS`): the lines a
    patch adds (Codex's ``apply_patch`` input, ``*** Begin Patch``; a unified diff), else the
    call's text as its reader kept it (Claude Code's Edit: the lines it wrote,
    :func:`~spec_debug.session.formats.common.edited_text`; another format's arguments). The
    path's words too: a ``sed -i`` names its file."""
    head = text[:200]
    if "*** Begin Patch" in head or head.startswith(("--- ", "diff --git")):
        added = []
        size = 0
        for line in text.splitlines():
            if line.startswith("+") and not line.startswith("+++"):
                added.append(line[1:])
                size += len(line)
                if size >= EDIT_TEXT_CHARS:
                    break
        text = "\n".join(added)
    elif head.lstrip().startswith("{") and len(text) <= _JSON_PARSED:
        # another format's call shows its arguments as sent (formats.common.call_text): the old
        # text of a str_replace is no change
        try:
            args = json.loads(text)
        except (ValueError, RecursionError):
            args = None
        if isinstance(args, dict) and (wrote := edited_text(args)):
            text = wrote
    return f"{path} {text[:EDIT_TEXT_CHARS]}"


WHOLE_FILE_WRITERS = frozenset({"Write", "write_file", "write", "create_file"})
"""File tools that write a file whole (Claude Code's Write, Gemini CLI's write_file, OpenCode's
write): every line of their content, not only the changed ones, is in the call."""
_WRITTEN_PATHS = 32


def rewritten(written: OrderedDict, path: str, wrote: str) -> str:
    """``wrote`` (:func:`edit_text` of a whole-file Write of ``path``) less the lines the agent's
    last Write of ``path`` held too, and that Write's lines now ``wrote``'s, in ``written``
    (bounded). A rewrite of serve.yaml with only ``speculative_num_steps: 3`` new changed that
    line, not its ``cuda_graph: false`` beside it: with two guesses open, a symptom's outcome
    settles the steps guess, not the newest (the CUDA graph one) by an unchanged line."""
    lines = wrote[len(path) + 1:].splitlines()
    had = written.pop(path, None)
    written[path] = frozenset(line.strip() for line in lines)
    if len(written) > _WRITTEN_PATHS:
        written.popitem(last=False)
    if had is None:
        return wrote
    return f"{path} " + "\n".join(line for line in lines if line.strip() not in had)


_JSON_PARSED = 1 << 20
"""The longest arguments :func:`edit_text` decodes: past it, their head is kept as it is."""


def _flag_of(words: list[str], i: int) -> str | None:
    """The option word ``words[i]`` is the value of (``--speculative-num-steps 3``), or the word
    itself when it is an option (``--speculative-num-steps=3``, ``--enable-torch-compile``), or
    the JSON key it is the value of (``"num_speculative_tokens": 5``)."""
    word = words[i]
    if word.startswith("-"):
        return word.split("=", 1)[0]
    if i > 0 and words[i - 1].startswith("-") and "=" not in words[i - 1]:
        return words[i - 1]
    if i > 0 and words[i - 1].endswith(":"):
        # a key of vLLM's --speculative-config JSON written with spaces: '{"method": "eagle3",
        # "num_speculative_tokens": 5}' changed in its value, 5
        return words[i - 1]
    return None


def _differs(after: list[str], before: list[str]) -> list[str]:
    """The words of ``after`` a relaunch changed against ``before``: the option each new value
    is given to (the option's name says what changed, ``3`` of ``--speculative-num-steps 3`` does
    not), or the new word itself (an environment variable put before the command)."""
    had = set(before)
    out = []
    for i, word in enumerate(after):
        if word in had:
            continue
        flag = _flag_of(after, i)
        out.append(flag if flag is not None else word)
    return out


def changed_words(changes: list[Change]) -> frozenset:
    """The topic words of what ``changes`` changed: a relaunch's options that differ from the
    launch before it (added, removed or given another value), an edit's words."""
    said: list[str] = []
    for change in changes:
        if change.before is None:
            said.append(change.command)
            continue
        after, before = change.command.split(), change.before.split()
        said.extend(_differs(after, before))
        said.extend(_differs(before, after))  # an option dropped changed too
    return parts(reasoning.topic_words(" ".join(said)))


def parts(words: frozenset) -> frozenset:
    """``words`` with the parts of each snake_case word ("num_steps" is "num" and "step", as the
    guess "--speculative-num-steps is too high" says them), a part's plural "s" dropped."""
    more = set(words)
    for word in words:
        if "_" in word:
            more |= reasoning.topic_words(word.replace("_", " "))
    return frozenset(more)
