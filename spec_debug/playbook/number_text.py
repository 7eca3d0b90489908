"""Refuse a var whose number YAML reshapes before a step puts it into text.

`version: 0.10`, `python: 3.10` and `cuda: 12.10` are floats to YAML 1.1 (and 1.2), so
they come back as 0.1, 3.1 and 12.1; rendered into `pip install vllm=={{ version }}` the
command installs another release, with nothing in the run to say so. This is the trap
behind GitHub Actions' `python-version: 3.10` installing Python 3.1 (the
actions/setup-python README tells users to quote versions for this reason). As a number
(`that: accept_length > min_accept`) the value is right, so only vars that reach text are
refused: a command, a fetched path, a probe argument, a finding's words, another var. A
threshold that an expression compares or computes with (`min_accept_rate: 0.80`,
`that: facts.accept_rate >= min_accept_rate`) is a number to its author: a finding that quotes it
says 0.8, the same number, and is let be (quoting it, as the refusal advised, made the
comparison fail on every host: float >= str).
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import TemplateSyntaxError, nodes

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.models import Playbook
from spec_debug.playbook.templating import TEXT_ENV, var_references
from spec_debug.playbook.yaml_nodes import PositionedDocument, dotted_path


def check_numbers_as_text(playbook: Playbook, document: PositionedDocument, source: str) -> None:
    reshaped = {path[1]: (path, raw) for path, raw in document.reshaped_numbers.items()
                if len(path) >= 2 and path[0] == "vars" and isinstance(path[1], str)}
    if not reshaped:
        return
    names = set(reshaped)
    numbers = _used_as_numbers(playbook, names)
    for where, text in _text_sites(playbook):
        try:
            used = var_references(text, names)
        except TemplateSyntaxError:  # reported by the template checks; nothing to add here
            continue
        for name in used:
            if name in numbers and where.startswith("a finding of"):
                continue
            path, raw = reshaped[name]
            line, column = document.position(path) or (None, None)
            shown = _value_at(playbook.vars.get(name), path[2:])
            raise PlaybookError(
                f"var {name!r} is written {raw} but YAML reads it as the number {shown}, which {where} would get as text",
                path=source, line=line, column=column, key_path=dotted_path(path),
                hint=f'quote it to keep it as written: "{raw}"',
            )


def _text_sites(playbook: Playbook) -> list[tuple[str, str]]:
    """(where, template text) for every template rendered as text, not as an expression."""
    sites: list[tuple[str, str]] = []
    for name, value in playbook.vars.items():
        sites += [(f"var {name!r}", text) for text in _strings(value)]
    for step in playbook.steps:
        here = f"step {step.id!r}"
        if step.run is not None:
            sites.append((f"the command of {here}", step.run))
        if step.fetch is not None:
            sites += [(f"the fetch of {here}", src) for src in step.fetch.sources()]
        sites += [(f"probe argument {key!r} of {here}", text) for key, value in step.with_.items() for text in _strings(value)]
        templates = list(step.findings) + [e.finding for e in step.expect if e.finding is not None]
        for template in templates:
            texts = [template.title, template.remediation, *template.evidence]
            sites += [(f"a finding of {here}", text) for text in texts if text]
    return sites


_ARITHMETIC = (nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow)


def _used_as_numbers(playbook: Playbook, names: set[str]) -> set[str]:
    """The vars among `names` that a `when:`, `until:` or `that:` compares with a number or
    computes with (`x >= min_rate`, `min_gb * 1024`)."""
    found: set[str] = set()
    for step in playbook.steps:
        for expression in [step.when, step.until, *(e.that for e in step.expect)]:
            if not expression:
                continue
            try:
                parsed = TEXT_ENV.parse("{{ " + expression + " }}")
            except TemplateSyntaxError:
                continue
            operands = [o for c in parsed.find_all(nodes.Compare) for o in [c.expr, *(op.expr for op in c.ops)]
                        if all(op.op not in ("in", "notin") for op in c.ops)]
            operands += [side for a in parsed.find_all(_ARITHMETIC) for side in (a.left, a.right)]
            for operand in operands:
                if isinstance(operand, nodes.Name) and operand.name in names:
                    found.add(operand.name)
                elif (isinstance(operand, nodes.Getattr) and isinstance(operand.node, nodes.Name)
                      and operand.node.name == "vars" and operand.attr in names):
                    found.add(operand.attr)
    return found


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


def _value_at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return value
    return value


# `--var min_free_gb=20GB`, `--var baseline_tok_s=90tok/s`, `--var timeout=5m`: a number with
# its unit. For a var the playbook declares as a number, the text then met the playbook's
# arithmetic mid-run ("'>=' not supported between 'int' and 'str'", after `"20GB" * 1024`
# built a 4 MiB string), the step errored, and the run exited 0 with a warning.
_NUMBER_WITH_UNIT = re.compile(r"\s*(?P<number>[-+]?[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[A-Za-z%/][A-Za-z0-9%/._-]*)\s*")


def number_given_with_unit(name: str, value: Any, default: Any) -> UsageError | None:
    """The error for a unit written after a number var's value (None when there is none)."""
    if type(default) not in (int, float) or not isinstance(value, str):
        return None
    written = _NUMBER_WITH_UNIT.fullmatch(value)
    if written is None:
        return None
    return UsageError(
        f"--var {name}={value}: {name} is a number in the playbook (default {default}), and "
        f"{written.group('unit')!r} after it makes the value text its checks cannot compare",
        hint=f"write the number alone, in the unit the playbook uses for {name}: --var {name}={written.group('number')}",
    )
