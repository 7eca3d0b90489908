"""Playbook texts that are used as written, never rendered, but hold a `{{ ... }}` of a var.

`contains:`, `not_contains:` and `matches:` compare the step's output with their text as
written (runner/attempt.py, _check): `contains: "{{ served_model }}"` looked for the braces
and the name themselves, so the check failed on every host whatever the server served, and
`not_contains: "{{ bad_version }}"` could never fail. Ansible, where authors learn playbooks,
renders every string of a task, so the habit is common. A `{{` that reads no var, fact or
template name (a chat template's `{{ messages }}` looked for in a prompt dump) stays text;
braces meant as text around a var's name are looked for with `that: "'{{ host }}' in stdout"`.
A capture's regex, `json:` path, `name:` and `default:` are used as written too
(runner/capture.py), and so are a --var's and a --var-file's values (runner/engine.py renders
only the playbook's defaults and an inventory's values), where Ansible renders
`-e 'draft={{ model }}/eagle3'` and `-e @vars.yml`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from jinja2 import TemplateError

from spec_debug.errors import UsageError
from spec_debug.playbook.templating import names_used

EXPECTATION_TEXTS = ("contains", "not_contains", "matches")
"""The expectation keys whose value is compared with the output as written."""

_FILLED_NAMES = frozenset({"vars", "facts", "host", "steps"})
"""Template names that hold a value before a step runs (its own stdout and exit_code do not)."""

# One `{{ expression }}` with plain text around it: the check it was meant as can be written
# with the text joined to the value (`'model=' ~ served_model`).
_ONE_EXPRESSION = re.compile(
    r"(?P<before>(?:(?!\{[{%#]).)*)\{\{-?(?P<expression>(?:(?!\{\{|\}\}).)+?)-?\}\}(?P<after>(?:(?!\{[{%#]).)*)",
    re.DOTALL,
)


def names_filled_in(text: str, var_names: set[str]) -> list[str]:
    """The vars and template names a text's `{{ ... }}` reads, were it a template; [] for a text
    that does not parse as one, or reads nothing a playbook defines."""
    if "{{" not in text:
        return []
    try:
        used = names_used(text)
    except (TemplateError, RecursionError):
        return []  # not Jinja (a lone `{{`): text to look for
    return [name for name in used if name in var_names or name in _FILLED_NAMES]


def first_expression(text: str) -> str:
    """The expression inside a text's first `{{ ... }}`, as written."""
    found = _FIRST_EXPRESSION.search(text)
    return found.group(1).strip() if found else text


_FIRST_EXPRESSION = re.compile(r"\{\{-?((?:(?!\}\}).)+?)-?\}\}", re.DOTALL)


def expectation_as_expression(key: str, text: str) -> str:
    """The `that:` expression that checks what `key: text` was meant to, the value filled in: the
    text around one `{{ ... }}` joined to it (`'model=' ~ served_model`); for a regex, or a text
    with more than one, the first expression's value alone."""
    one = _ONE_EXPRESSION.fullmatch(text) if key != "matches" else None
    if one is None:
        needle = _as_text(first_expression(text))
    else:
        expression = one.group("expression").strip()
        parts = [repr(one.group("before"))] if one.group("before") else []
        parts.append(_as_text(expression) if not parts and not one.group("after") else _grouped(expression))
        parts += [repr(one.group("after"))] if one.group("after") else []
        needle = " ~ ".join(parts)
    if key == "not_contains":
        return f"{needle} not in stdout and {needle} not in stderr"
    return f"{needle} in stdout or {needle} in stderr"


def _grouped(expression: str) -> str:
    return expression if _NAME_PATH.fullmatch(expression) else f"({expression})"


def _as_text(expression: str) -> str:
    """A number var (`port: 30000`) is no left operand of `in` a text: `30000 in stdout` is an error."""
    return f"{_grouped(expression)} | string"


_NAME_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def refuse_var_templates(var_texts: dict[str, str], defaults: dict[str, Any]) -> None:
    """Refuse a --var whose value reads a var of the playbook in {{ }}: it would reach the
    command as the braces. Values that read nothing of the playbook (`{{.State.Status}}` for
    docker, text that is no Jinja) are given as typed."""
    for name, text in var_texts.items():
        if name not in defaults or not names_filled_in(text, set(defaults)):
            continue
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise UsageError(
            f"--var {name}={shown}: a --var value is used as given, not as a template (the command would get "
            f"the braces, not the value of {first_expression(text)})",
            hint=f"write the value itself; a value built from other vars is a default in the playbook's vars: "
                 f"({name}: {json.dumps(text)}), rendered for each host",
        )
