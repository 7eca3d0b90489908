"""The drafter's words, said in a playbook's: `--target DIR` becomes `--var target_model=DIR`.

The drafter probes call spec_debug.eagle3, whose errors and notes name the `spec-debug
drafter` options (spec_debug/eagle3/commands.py: --model, --target, --data, ...). Quoted in a
playbook run's findings they sent the user after flags `spec-debug run` does not take; the
playbook sets the same inputs as vars (playbooks/*.yaml: draft_model, target_model,
hidden_states, ...). A suggested `spec-debug drafter ...` command keeps its own options: it is
meant to be run as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from spec_debug.errors import SpecDebugError

# the drafter's option -> the playbook var that carries the same input
DRAFTER_VARS: Mapping[str, str] = {
    "model": "draft_model", "target": "target_model", "data": "hidden_states",
    "vocab-mapping": "vocab_mapping", "max-samples": "max_samples", "device": "device",
    "engine-version": "engine_version",
    # the engine whose semantics the drafter runs: the playbook's engine var runs them
    # (probes/drafter_eval.py, evaluate_drafter semantics=engine)
    "semantics": "engine",
}

# a suggested drafter command, to its end in the sentence (kept as written)
_COMMAND = re.compile(r"spec-debug drafter\b[^;)\n\"'`]*")
# `--target`, `--target DIR`, `--target=/p`, not `--target-foo` nor `--speculative-draft-model`;
# the value is taken when it reads as one (a path, a placeholder, a number, an engine name),
# not a word such as "and" or "must"
_OPTION = re.compile(r"(?<![\w-])--(?P<name>[a-z][a-z-]*[a-z])(?![\w-])"
                     r"(?:(?P<eq>=)(?P<glued>[^\s,;)]+)|"
                     r" (?P<value>(?:[A-Z][A-Z_]*\b|<[^>\s]+>|[/~.$\d][^\s,;)]*|\S*/[^\s,;)]*|(?:sglang|vllm)\b)))?")

T = TypeVar("T")


def in_playbook_words(text: str, renames: Mapping[str, str] | None = None) -> str:
    """`text` with each drafter option named as the playbook var that sets it; `renames`
    overrides the var for an option (a serving dump read as the drafter's --data)."""
    names = {**DRAFTER_VARS, **(renames or {})}

    def option(match: re.Match[str]) -> str:
        var = names.get(match["name"])
        if var is None:
            return match[0]
        value = match["glued"] if match["eq"] else match["value"]
        return f"--var {var}={value}" if value else f"--var {var}"

    out, last = [], 0
    for command in _COMMAND.finditer(text):
        out += [_OPTION.sub(option, text[last:command.start()]), command[0]]
        last = command.end()
    return "".join(out) + _OPTION.sub(option, text[last:])


def said_in_playbook_words(value: T, renames: Mapping[str, str] | None = None) -> T:
    """Every string in a probe's result (lists and dicts walked) in playbook words."""
    if isinstance(value, str):
        return in_playbook_words(value, renames)  # type: ignore[return-value]
    if isinstance(value, list):
        return [said_in_playbook_words(v, renames) for v in value]  # type: ignore[return-value]
    if isinstance(value, dict):
        return {k: said_in_playbook_words(v, renames) for k, v in value.items()}  # type: ignore[return-value]
    return value


def reworded(exc: SpecDebugError, renames: Mapping[str, str] | None = None) -> SpecDebugError:
    """The same error, its message and hint in playbook words (raised on by the caller)."""
    exc.message = in_playbook_words(exc.message, renames)
    if exc.hint:
        exc.hint = in_playbook_words(exc.hint, renames)
    exc.args = (exc.message, *exc.args[1:])
    return exc


def speaks_playbook(run: Callable[[dict], dict]) -> Callable[[dict], dict]:
    """A probe's run whose result (its args left as given) and errors are in playbook words."""

    def wrapped(args: dict) -> dict:
        try:
            result = run(args)
        except SpecDebugError as exc:
            raise reworded(exc) from None
        return {k: (v if k == "args" else said_in_playbook_words(v)) for k, v in result.items()}

    wrapped.__doc__, wrapped.__name__, wrapped.__wrapped__ = run.__doc__, run.__name__, run  # type: ignore[attr-defined]
    return wrapped
