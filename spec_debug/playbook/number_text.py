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

import math
import re
from typing import Any

from jinja2 import TemplateSyntaxError, nodes

from spec_debug.errors import PlaybookError, UsageError
from spec_debug.playbook.models import Playbook
from spec_debug.playbook.status_words import comparing_tests, number_field
from spec_debug.playbook.float_range import FAR_EXPONENT, past_float_range
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
    return {name for step in playbook.steps for name in _step_number_uses(step, names)}


def _step_number_uses(step: Any, names: set[str], *, number_facts: set[str] | None = None) -> set[str]:
    """`_used_as_numbers` for one step. With `number_facts` (the facts a capture makes numbers),
    an operand of == or != counts only where another is surely a number (`expected ==
    facts.commit` with a commit 1234e56 compares text with text, as meant)."""
    found: set[str] = set()
    for expression in [step.when, step.until, *(e.that for e in step.expect)]:
        if not expression:
            continue
        try:
            parsed = TEXT_ENV.parse("{{ " + expression + " }}")
        except TemplateSyntaxError:
            continue
        compares = [c for c in [*parsed.find_all(nodes.Compare), *_tests_as_compares(parsed)]
                    if all(op.op not in ("in", "notin") for op in c.ops)]
        if number_facts is not None:
            compares = [c for c in compares if not _equality_without_number(c, number_facts)]
        operands = [o for c in compares for o in [c.expr, *(op.expr for op in c.ops)]]
        operands += [side for a in parsed.find_all(_ARITHMETIC) for side in (a.left, a.right)]
        for operand in operands:
            if isinstance(operand, nodes.Name) and operand.name in names:
                found.add(operand.name)
            elif (isinstance(operand, nodes.Getattr) and isinstance(operand.node, nodes.Name)
                  and operand.node.name == "vars" and operand.attr in names):
                found.add(operand.attr)
    return found


# YAML 1.2 numbers that YAML 1.1 (PyYAML, which reads playbooks) leaves as text: an exponent
# with no '.' or no sign (1e3, 1.5e3, 2e-5) and the 0o octal prefix (yaml.org/type/float.html
# and int.html for 1.1; YAML 1.2.2, 10.3.2, for 1.2). JSON and Python read 1e3 as 1000 too.
_EXPONENT_TEXT = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)[eE][-+]?\d+$")
_OCTAL_TEXT = re.compile(r"^0o[0-7]+$")


def _tests_as_compares(parsed: nodes.Template) -> list[nodes.Compare]:
    """`facts.n is gt(min_tokens)` as `facts.n > min_tokens` (templating.COMPARING_TESTS)."""
    return [nodes.Compare(tested, [nodes.Operand(operator, argument)]) for tested, operator, argument in comparing_tests(parsed)]


def check_text_numbers(playbook: Playbook, document: PositionedDocument, source: str, numeric_facts: set[str]) -> None:
    """Refuse a var written as a number that YAML 1.1 reads as text, where an expression compares
    or computes with it: `min_tokens: 1e3` with `that: facts.n > min_tokens` loaded, then failed
    on every host ("min_tokens is the text '1e3', not a number") as SD003. `numeric_facts` is
    status_words.number_facts of the playbook's steps, which the loader has worked out already."""
    meant = {name: number_meant(value) for name, value in playbook.vars.items() if isinstance(value, str)}
    meant = {name: number for name, number in meant.items() if number is not None}
    # 1e-400 was "write it as 0"; 1e400 loads as the text it is, compared at run time (SD003), as
    # tests/core/test_hardening26_reviewcore_huge_exponent.py pins
    past = {name: what for name, value in playbook.vars.items()
            if isinstance(value, str) and _EXPONENT_TEXT.match(value.strip()) and (what := past_float_range(value.strip()))
            and float(value) == 0}
    if not meant and not past:
        return
    for step in playbook.steps:
        for name in sorted(_step_number_uses(step, set(meant) | set(past), number_facts=numeric_facts)):
            line, column = document.position(("vars", name)) or (None, None)
            written = playbook.vars[name]
            if name in past:  # `min_kl: 1e-400`: was "write it as min_kl: 0"; 1e400 loaded unsaid
                raise PlaybookError(
                    f"var {name!r} is written {written}, {past[name]}: step {step.id!r} compares or computes with it",
                    path=source, line=line, column=column, key_path=f"vars.{name}",
                    hint="write a number between 1e-300 and 1e300 (or 0)",
                )
            raise PlaybookError(
                f"var {name!r} is written {written}, which YAML 1.1 reads as text, not the number {meant[name]}: "
                f"step {step.id!r} compares or computes with it, and would fail on every host",
                path=source, line=line, column=column, key_path=f"vars.{name}",
                hint=f"write it as a number YAML 1.1 reads: {name}: {meant[name]}",
            )


def _equality_without_number(compare: nodes.Compare, facts: set[str]) -> bool:
    """An == / != chain none of whose operands is surely a number: text may be compared with
    text there. A number literal, arithmetic, `| int` / `| float` / `| length`, a step's
    exit_code or a fact a regex capture makes a number (an auto capture of 1e3 is 1000.0,
    runner/capture.py convert) makes it a comparison with a number."""
    if any(op.op not in ("eq", "ne") for op in compare.ops):
        return False
    return not any(_surely_number(o, facts) for o in [compare.expr, *(op.expr for op in compare.ops)])


def _surely_number(node: nodes.Node, facts: set[str]) -> bool:
    if isinstance(node, nodes.Const):
        return type(node.value) in (int, float)
    if isinstance(node, (nodes.Neg, nodes.Pos)):
        return _surely_number(node.node, facts)
    if isinstance(node, nodes.Filter):
        return node.name in ("int", "float", "length", "count", "abs", "round")
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "facts":
        return node.attr in facts
    return isinstance(node, _ARITHMETIC) or number_field(node) is not None


def number_meant(text: str) -> str | None:
    """The YAML 1.1 spelling of the number `text` means in YAML 1.2, or None."""
    text = text.strip()
    if _OCTAL_TEXT.match(text):
        return str(int(text[2:], 8))
    if not _EXPONENT_TEXT.match(text) or past_float_range(text):
        # 1e400: no number a playbook can compare with (it was a ValueError traceback); 1e-400
        # was said to mean 0, and the hint told the author to write 0
        return None
    value = float(text)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    # The fewest digits that read back as the same float: `{:e}` keeps six after the point, and
    # 1.23456789e-5 was told to be written 1.234568e-5, another number.
    places = next(p for p in range(17) if float(f"{value:.{p}e}") == value)
    mantissa, exponent = f"{value:.{places}e}".split("e")  # 2e-5 -> '2', '-05' -> 2.0e-5
    if "." not in mantissa:
        mantissa += ".0"  # YAML 1.1 reads an exponent as a float's only after a '.' (yaml.org/type/float.html)
    return f"{mantissa}e{exponent[0]}{int(exponent[1:])}"


def literal_past_float_range(text: str, *, expression: bool) -> tuple[str, str] | None:
    """(the number as written, what it is) for the first number in a template or expression
    that a float cannot hold: `that: facts.kl < 1e-400` compared with 0 on every host."""
    if not FAR_EXPONENT.search(text):
        return None  # most texts: no lexing
    try:
        tokens = [value for _, kind, value in TEXT_ENV.lex("{{ " + text + " }}" if expression else text) if kind == "float"]
    except TemplateSyntaxError:
        return None  # the template checks say so
    for written in tokens:
        what = past_float_range(written)
        if what is not None:
            return written, what
    return None


def _nearer(value: float) -> str:
    """How the number to write differs from `value`, inf or 0 (a float's reading of a number past
    its range): -1e400 is -inf, and a smaller number than that is no fix."""
    if math.isinf(value):
        return "a smaller number" if value > 0 else "a number nearer 0"
    return "a number further from 0" if math.copysign(1, value) < 0 else "a larger number"


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


# A whole number as YAML 1.1 (a --var-file) and Python write it in another base, or with `_`
# between its digits: 0x1F, -0b101, 1_000_000 (yaml.org/type/int.html).
_OTHER_BASE_INT = re.compile(r"[-+]?(?:(?P<base>0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+)|[0-9]+(?:_[0-9]+)+)")
# A decimal written with `_` between its digits, as float() and YAML 1.1 read it: 1_000.5.
_GROUPED_DECIMAL = re.compile(r"[-+]?(?:[0-9]+(?:_[0-9]+)*\.(?:[0-9]+(?:_[0-9]+)*)?|\.[0-9]+(?:_[0-9]+)*)")


def number_given_with_unit(name: str, value: Any, default: Any) -> UsageError | None:
    """The error for a unit written after a number var's value (None when there is none)."""
    if type(default) not in (int, float) or not isinstance(value, str):
        return None
    meant = number_meant(value)
    if meant is not None:
        # `min_tokens: 1e3` in a --var-file (YAML 1.1 text), `--var n=0o17`: 'e3' was taken for
        # a unit and the hint said --var min_tokens=1, a thousand times less.
        return UsageError(
            f"--var {name}={value}: {name} is a number in the playbook (default {default}), and {value.strip()} "
            f"is text to YAML 1.1 (a --var-file is read so), which its checks cannot compare",
            hint=f"write the number as YAML 1.1 reads it: --var {name}={meant}, or {name}: {meant} in a --var-file",
        )
    if _EXPONENT_TEXT.match(value.strip()):
        return UsageError(  # 1e400, 1e-400: past what a float holds, so no number to name
            f"--var {name}={value}: {name} is a number in the playbook (default {default}), and {value.strip()} "
            f"is {past_float_range(value.strip()) or 'no number its checks can compare'}",
            hint=f"write {_nearer(float(value))}: --var {name}={default}")
    other_base = _OTHER_BASE_INT.fullmatch(value.strip())
    grouped = _GROUPED_DECIMAL.fullmatch(value.strip()) if other_base is None and "_" in value else None
    if other_base is not None or grouped is not None:
        # `--var port=0x10`, `--var mask=0b11`, `--var n=1_000` (ints to YAML 1.1 and Python):
        # the x or b was taken for a unit and the hint said --var port=0. `--var rate=1_000.5`
        # (1000.5 to float() and YAML 1.1) was "not a number", with the default as the hint.
        if other_base is not None:
            digits = other_base.group().replace("_", "")
            number: int | str = int(digits, 0) if other_base.group("base") else int(digits)
        else:
            number = value.strip().replace("_", "").lstrip("+")
        return UsageError(
            f"--var {name}={value}: {name} is a number in the playbook (default {default}), and {value.strip()} "
            f"is text its checks cannot compare (only decimal digits are read as a number)",
            hint=f"write the number in decimal: --var {name}={number}",
        )
    written = _NUMBER_WITH_UNIT.fullmatch(value)
    if written is None:
        return None
    if written.group("unit").strip() == "%" and type(default) is float and abs(default) <= 1:
        # `--var min_accept=60%` where the playbook's default is 0.5: a fraction. "write it in
        # the unit the playbook uses: --var min_accept=60" set a bar no acceptance rate reaches.
        fraction = f"{float(written.group('number')) / 100:g}"
        return UsageError(
            f"--var {name}={value}: {name} is a number in the playbook (default {default}, a fraction), and "
            f"'%' after it makes the value text its checks cannot compare",
            hint=f"write it as a fraction, as the default is: --var {name}={fraction}",
        )
    return UsageError(
        f"--var {name}={value}: {name} is a number in the playbook (default {default}), and "
        f"{written.group('unit')!r} after it makes the value text its checks cannot compare",
        hint=f"write the number alone, in the unit the playbook uses for {name}: --var {name}={written.group('number')}",
    )
