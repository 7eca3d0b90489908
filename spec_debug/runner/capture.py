"""Captures: output text -> typed facts (regex named groups or a JSON path). Pure functions."""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Protocol

from spec_debug.playbook.json_path import json_path_parts
from spec_debug.playbook.models import Capture
from spec_debug.playbook.yaml_nodes import MAX_DEPTH, nests_too_deep
from spec_debug.redact import cut_outside_secret
from spec_debug.runner.output import TRUNCATION_MARKER, shown_repr
from spec_debug.runner.output_regex import anchored_to_text_ends, compile_first_match

_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
# A bitmask as nvidia-smi prints it (`--query-gpu=clocks_throttle_reasons.active`:
# 0x0000000000000004, NVML's nvmlClocksThrottleReasonSwPowerCap), read by `type: int` as its
# value; `type: int` refused it, with a hint about units and thousands separators.
_HEX_INT = re.compile(r"[-+]?0[xX][0-9a-fA-F]+")


class WholeOutput(Protocol):
    """A step's streams searched whole, the parts cut from the record included; ``source`` is
    stdout, stderr or output (both, in that order)."""

    def first(self, source: str, pattern: re.Pattern[str]) -> Any:
        """The first match (with .group()), or None."""

    def every(self, source: str, pattern: re.Pattern[str]) -> list[Any] | None:
        """Every match in order; None when there were too many to keep."""

    def text(self, source: str) -> str | None:
        """The whole text, the cut part included; None where it cannot be read back."""


# Python (3.11; 3.10.7 and later) reads no int from more digits than this (CVE-2020-10735):
# int() and json.loads raised "Exceeds the limit (4300 digits) ...; use
# sys.set_int_max_str_digits() to increase the limit", which failed the step's captures with
# advice no playbook can follow, and a json: capture lost the value it asked for to a number
# elsewhere in the document.
_MAX_INT_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def _too_many_digits(text: str) -> bool:
    """Whether `text`, an integer's digits (a sign, spaces around), is past what Python reads."""
    return bool(_MAX_INT_DIGITS) and len(text.strip().lstrip("+-")) > _MAX_INT_DIGITS


def _json_int(digits: str) -> int | str:
    """A JSON integer as json reads it, or its digits' text where there are too many to read."""
    return digits if _too_many_digits(digits) else int(digits)


# Only where the plain read failed: json's C scanner is slower with any parse_int but int.
_LONG_INT_DECODER = json.JSONDecoder(parse_int=_json_int)


class CaptureError(ValueError):
    """A capture could not convert or find its value (reported on the step)."""


class JsonTooDeepError(CaptureError):
    """The output is JSON, nested past what can be read: not "no JSON" (a probe said that)."""


# A fact is walked recursively by the run (redact.redact_value, run.json, templates): 500 levels of
# `[[[...]]]` from a host ran into RecursionError, an "internal error" that ended the host. Bounded
# as a playbook, a --var-file and an inventory are.
MAX_FACT_DEPTH = MAX_DEPTH
_TOO_DEEP = object()


def convert(value: Any, kind: str, name: str | None = None) -> Any:
    if value is None:
        return None
    if kind == "json":
        try:
            read = value if not isinstance(value, str) else json.loads(value)
        except json.JSONDecodeError as exc:
            # json's own words ("Expecting value: line 1 column 1 (char 0)") named neither the
            # fact nor what was read.
            raise CaptureError(f"{name or 'the value'} (type: json): cannot read {_clipped(value)} as JSON "
                               f"({exc.msg} at character {exc.pos + 1})") from None
        except RecursionError:  # json.loads itself gives up, about 1,000 levels in
            read = _TOO_DEEP
        if read is _TOO_DEEP or nests_too_deep(read):
            raise CaptureError(f"{name or 'the value'} (type: json): cannot read {_clipped(value)} as JSON: it nests "
                               f"lists and objects within each other more than {MAX_FACT_DEPTH} levels deep")
        return read
    if kind == "str":
        return value if isinstance(value, str) else json.dumps(value)
    if kind in ("int", "float"):
        # A JSON true/false or a fractional number went through int() and float() as the
        # numbers 1, 0 and 3 (`{"accept_len": 3.7}` with type: int read 3, and a check for
        # >= 3.5 raised its finding on a host at 3.7): a value changed without a word.
        if isinstance(value, bool):
            raise CaptureError(f"{name or 'the value'} (type: {kind}): {json.dumps(value)} is a boolean, not a number: "
                               "use type: bool (or leave type out)")
        if kind == "int" and isinstance(value, float) and not value.is_integer():
            raise CaptureError(f"{name or 'the value'} (type: int): {value!r} is not a whole number: use type: float "
                               "(or leave type out)")
        if kind == "int" and isinstance(value, str) and _INT.match(value.strip()) and _too_many_digits(value):
            raise CaptureError(
                f"{name or 'the value'} (type: int): cannot read {_quoted(value)} as an int: a number of "
                f"{len(value.strip().lstrip('+-'))} digits, more than the {_MAX_INT_DIGITS} Python reads one from: "
                "capture fewer digits, or keep it as text (type: str)")
        if kind == "int" and isinstance(value, str) and _HEX_INT.fullmatch(value.strip()):
            return int(value.strip(), 16)
        if kind == "int" and isinstance(value, str) and value.strip().lstrip("+-").lower() in _NOT_FINITE:
            # "a unit, a thousands separator or a decimal point in it?" on loss=nan sent the
            # user looking for a separator that is not there; no int holds nan or inf.
            raise CaptureError(f"{name or 'the value'} (type: int): {_quoted(value)} is not a finite number, and no int "
                               "holds it: use type: float (or leave type out)")
        try:
            return int(value) if kind == "int" else float(value)
        except (TypeError, ValueError):
            # Python's "invalid literal for int() with base 10: '1,024'" named neither the
            # fact nor the fix; a unit or a thousands separator is the usual cause.
            raise CaptureError(
                f"{name or 'the value'} (type: {kind}): cannot read {_quoted(value)} as {'an int' if kind == 'int' else 'a float'}"
                " (a unit, a thousands separator or a decimal point in it?): capture the number alone, "
                "e.g. (?P<tps>[0-9.]+) tok/s"
            ) from None
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off", ""):
            return False
        # The fact named, as the int, float and json conversions name it.
        raise CaptureError(f"{name or 'the value'} (type: bool): cannot read {_quoted(value)} as a boolean "
                           "(true/false, yes/no, on/off or 1/0)")
    # auto: numbers become numbers, everything else stays as it is
    if isinstance(value, str):
        stripped = value.strip()
        if _INT.match(stripped):
            return value if _too_many_digits(stripped) else int(stripped)
        if _FLOAT.match(stripped):
            return float(stripped)
        if len(stripped) <= 9 and stripped.lstrip("+-").lower() in _NOT_FINITE:
            # A diverged loss or a 0/0 acceptance prints nan or inf (Python's and C printf's
            # spelling). Kept as text, `that: facts.loss < 5` ended the step as SD003 "TypeError:
            # '<' not supported between instances of 'str' and 'int'", no check made; as the float
            # it is, the comparison is false and the expectation fails with the value shown.
            return float(stripped)
    return value


_NOT_FINITE = frozenset(("nan", "inf", "infinity"))


def _clipped(text: str, limit: int = 80) -> str:
    # A byte that is no UTF-8 as run.json shows it (`'12\\xe9'`), not repr()'s `'12\\udce9'`.
    cut = cut_outside_secret(text, limit)
    return shown_repr(text) if cut >= len(text) else f"{shown_repr(text[:cut])}... ({len(text)} characters)"


def _quoted(value: Any, limit: int = 80) -> str:
    """A value a conversion refused, as its message quotes it: a regex group of a 3,000-digit
    number, or a JSON path that named a whole object, was quoted whole in the step's message
    and its SD003 evidence (the output it came from is in the record already), where a JSON
    capture's text is cut (_clipped)."""
    if isinstance(value, str):
        return _clipped(value, limit)
    text = shown_repr(value)
    cut = cut_outside_secret(text, limit)
    return text if cut >= len(text) else f"{text[:cut]}... ({len(text)} characters)"


_DOCUMENT_START = re.compile(r"^[ \t]*[\[{]", re.MULTILINE)
_LINE_REST = re.compile(r"[ \t\r]*(?:\n|$)")
_MAX_FAILED_STARTS = 2000
"""Lines that look like a document's start but are not one ("[INFO] ...") tried at most: each
try may read far before it fails."""


def parse_json_output(text: str) -> Any:
    """The whole output as JSON, else the last JSON document on lines of its own: tools print
    banners first ("Loading model ..."), and scripts print their result with indent=2 (one
    document over many lines), often with a closing line after it ("done in 3.2 s")."""
    decoder = json.JSONDecoder()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    except RecursionError:
        raise _json_too_deep() from None
    except ValueError:  # an integer of more digits than Python reads (_MAX_INT_DIGITS)
        decoder = _LONG_INT_DECODER
        try:
            return decoder.decode(text)
        except json.JSONDecodeError:
            pass
        except RecursionError:
            raise _json_too_deep() from None
    found: list[Any] = []
    failed, position = 0, 0
    # Text cut by the capture limit keeps a document's head and tail: an object nested in the
    # tail would pass for the document. Only an unindented start is a document's there.
    cut_at = TRUNCATION_MARKER.search(text)
    while failed < _MAX_FAILED_STARTS:
        start = _DOCUMENT_START.search(text, position)
        if start is None:
            break
        if cut_at is not None and start.end() - 1 > start.start():
            position = start.end()
            continue
        try:
            try:
                value, end = decoder.raw_decode(text, start.end() - 1)
            except json.JSONDecodeError:
                raise
            except ValueError:  # an integer of more digits than Python reads (_MAX_INT_DIGITS)
                decoder = _LONG_INT_DECODER
                value, end = decoder.raw_decode(text, start.end() - 1)
        except json.JSONDecodeError:
            value, end = None, -1
        except RecursionError:
            raise _json_too_deep() from None
        rest = _LINE_REST.match(text, end) if end >= 0 else None
        if rest is None:  # not JSON, or JSON with more text on its last line ("[1, 2] tensors")
            failed += 1
            position = start.end()
            continue
        found[:] = [value]
        position = rest.end()  # past the document: the objects nested in it start lines too
        if position >= len(text):
            break
    if found:
        return found[0]
    cut = cut_at
    if cut:
        # The record keeps only head and tail of a long stream, so a large JSON document
        # arrives here with its middle missing: say that, not just "not JSON".
        raise CaptureError(
            f"output is not JSON: it is longer than the capture limit, so only its head and tail were kept "
            f"({cut.group(1)} bytes cut); run again with --capture-limit above the output's size"
        )
    raise CaptureError("output is not JSON")


def _parsed_whole(text: str, source: str, whole: WholeOutput | None) -> Any:
    """parse_json_output of the text, or, where the capture limit cut the document, of the whole
    stream read back (WholeOutput.text)."""
    try:
        return parse_json_output(text)
    except JsonTooDeepError:
        raise
    except CaptureError:
        full = whole.text(source) if whole is not None and TRUNCATION_MARKER.search(text) else None
        if full is None:
            raise
    return parse_json_output(full)


def _json_too_deep() -> JsonTooDeepError:
    return JsonTooDeepError("the output is JSON nested too deep to read (lists and objects within each other, more than "
                        f"{MAX_FACT_DEPTH} levels deep)")


def json_lookup(document: Any, path: str) -> Any:
    """`a.b[0].c` (a leading `$.` is allowed; json_path). Missing -> KeyError."""
    current = document
    for part in json_path_parts(path):
        if isinstance(part, int):
            if not isinstance(current, list) or not -len(current) <= part < len(current):
                raise KeyError(path)
        elif not isinstance(current, dict) or part not in current:
            raise KeyError(path)
        current = current[part]
    return current


def apply_captures(
    captures: list[Capture], stdout: str, stderr: str, whole: WholeOutput | None = None, defaulted: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``whole`` reads a regex capture's matches from a stream cut by the capture limit: else a
    value printed in the cut middle of a long log reads as "matched nothing" (the fact None,
    the capture's default) though the output holds it, and an `all: true` list silently holds
    the head's and tail's matches only. ``defaulted`` gets the facts set to their capture's
    `default:` (none found), each with why: a failed check says `facts.tps = 0` was no reading."""
    facts: dict[str, Any] = {}
    # The facts a capture of this step found in the output. Two captures of one fact are two
    # spellings of a line (SGLang's `accept len: 3.20`, vLLM's `Mean acceptance length: 3.20`):
    # the one that matched nothing set the fact None (or its default) over the value the other
    # had found, and the step said the capture "matched nothing".
    found: set[str] = set()
    parsed_json: dict[str, Any] = {}
    for capture in captures:
        text = {"stdout": stdout, "stderr": stderr, "output": stdout + ("\n" if stdout and stderr else "") + stderr}[capture.from_]
        if capture.regex is not None:
            values, hits = _regex_capture(capture, text, whole)
            facts.update((name, value) for name, value in values.items() if name in hits or name not in found)
            found |= hits
            if defaulted is not None and capture.default is not None and not capture.all:
                defaulted.update((name, "the capture's default: nothing matched") for name in values if name not in found)
            continue
        assert capture.json_path is not None and capture.name is not None
        if capture.from_ not in parsed_json:
            parsed_json[capture.from_] = _parsed_whole(text, capture.from_, whole)
        try:
            value = json_lookup(parsed_json[capture.from_], capture.json_path)
        except KeyError:
            value = None
        if nests_too_deep(value):
            raise CaptureError(f"{capture.name} (json: {capture.json_path}): the value nests more than {MAX_FACT_DEPTH} levels "
                               "deep (lists and objects within each other); capture a part of it with a longer json: path")
        # A JSON null is "no value" as a missing key is: `{"port": null}` with `default: 30000`
        # gave the fact None, and the next command using it failed asking for a default.
        if value is not None or capture.name not in found:
            facts[capture.name] = convert(capture.default if value is None else value, capture.type, capture.name)
        if value is not None:
            found.add(capture.name)
        elif defaulted is not None and capture.default is not None and capture.name not in found:
            defaulted[capture.name] = f"the capture's default: no value at {capture.json_path}"
    if defaulted:
        for name in found & defaulted.keys():  # another capture of the fact found it after
            del defaulted[name]
    return facts


def _regex_capture(capture: Capture, text: str, whole: WholeOutput | None = None) -> tuple[dict[str, Any], set[str]]:
    """The facts the capture sets, and the names of those it found in the text (a match, the
    group taking part in it), as against those left None or at their default."""
    assert capture.regex is not None
    # A single capture takes the first match: guarded against quadratic scans (output_regex).
    pattern = re.compile(capture.regex, re.MULTILINE) if capture.all else compile_first_match(capture.regex)
    names = list(pattern.groupindex)
    # A match in a truncation marker is spec-debug's words, not the host's: `(?P<n>\d+) bytes`
    # read the count of bytes cut, `[a-z]+` the word "truncated".
    markers = [m.span() for m in TRUNCATION_MARKER.finditer(text)]
    found = (m for m in pattern.finditer(text) if not any(start < m.end() and m.start() < end for start, end in markers))
    matches: list[Any] = list(found) if capture.all else [m for m in [next(found, None)] if m]
    # `\Z`/`\A`: the kept head and tail hold the text's ends; the whole stream is searched a
    # block at a time, where they would match at each block's (output_regex).
    searchable = whole is not None and not anchored_to_text_ends(pattern.pattern, pattern.flags)
    cut = TRUNCATION_MARKER.search(text) if searchable else None
    if cut is not None and capture.all:
        every = whole.every(capture.from_, pattern)  # type: ignore[union-attr]
        if every is None:
            raise CaptureError(
                f"capture {capture.name or ', '.join(names)}: the regex matches more lines of the output than a "
                f"run record keeps; narrow it (e.g. anchor it to the summary line)")
        matches = every
    elif cut is not None and (not matches or matches[0].start() > cut.start()):
        # Nothing in the kept head: the first match may be in the cut middle, before the tail's.
        first = whole.first(capture.from_, pattern)  # type: ignore[union-attr]
        matches = [first] if first is not None else matches
    if capture.name is not None and capture.name not in pattern.groupindex:
        group: str | int = 1 if pattern.groups else 0
        values = [convert(m.group(group), capture.type, capture.name) for m in matches]
        hit = {capture.name} if any(v is not None for v in values[: None if capture.all else 1]) else set()
        return {capture.name: values if capture.all else _first_or_default(values, capture)}, hit
    result: dict[str, Any] = {}
    hits: set[str] = set()
    for name in names if capture.name is None else [capture.name]:
        values = [convert(m.group(name), capture.type, name) for m in matches]
        result[name] = values if capture.all else _first_or_default(values, capture)
        if any(v is not None for v in values[: None if capture.all else 1]):
            hits.add(name)
    return result, hits


def _first_or_default(values: list[Any], capture: Capture) -> Any:
    """The first match's value; the capture's default when nothing matched or the group took no
    part in the match (`port=(?P<port>\\d+)?` on "port=" reads None, not the default)."""
    value = values[0] if values else None
    return capture.default if value is None else value
