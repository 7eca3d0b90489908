"""A `{{` the author did not close, found in a template Jinja refused.

`run: echo {{ host }` (one brace short) and `echo {{ server_log` fail to parse with Jinja's
"unexpected '}'" or "unexpected end of template, expected 'end of print statement'", placed at
the start of the value: on a long command line with several templates, or a script of fifty
lines, the author had to find the brace alone. This names the `{{` and the fix.

A `{{` meant as text for the command (`grep -E 'x\\{{2}'`, `printf '{{'`) is no expression left
open: "write {{ 2 }}" would change the command. It gets the form that passes it as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"\{\{")
_BODY = re.compile(r"-?[^{}\n]*")
# How a value starts: a name, a bracket, or a whole quoted string (`{{ 'a' ~ x }`).
_EXPRESSION_START = re.compile(r"[A-Za-z_(\[]|'[^'\n]*'|\"[^\"\n]*\"")


@dataclass(frozen=True)
class UnclosedExpression:
    offset: int  # where the `{{` is in the template text
    line_text: str  # the template's text from the `{{` to the end of its line
    fixed: str  # the expression as it should be written, `{{ host }}`
    literal: bool = False  # the `{{` reads as text for the command: fixed passes it as written


def unclosed_expression(text: str) -> UnclosedExpression | None:
    """The first `{{` with no `}}` before the next `{{` or the end of its line; None when every
    one is closed (or the text holds a raw block, whose braces are not Jinja's)."""
    if "{% raw" in text or "{%- raw" in text:
        return None
    at = 0
    while True:
        opened = _OPEN.search(text, at)
        if opened is None:
            return None
        start = opened.end()
        closed, reopened, line_end = text.find("}}", start), text.find("{{", start), text.find("\n", start)
        ends = [p for p in (reopened, line_end) if p != -1]
        if closed == -1 or (ends and min(ends) < closed):
            body = _BODY.match(text, start).group(0).strip().rstrip("}").strip()  # type: ignore[union-attr]
            rest = text[opened.start():line_end if line_end != -1 else len(text)].rstrip()
            trim = "-" if body.startswith("-") else ""  # `{{- x`: Jinja's whitespace control stays
            body = body[len(trim):].strip()
            if text[:opened.start()].endswith("\\") or (body and not _EXPRESSION_START.match(body)):
                # `\{{2}` (a regex's escaped brace), `'{{'`: text for the command, not a value.
                line_start = text.rfind("\n", 0, opened.start()) + 1
                written = text[line_start:opened.start()] + "{{ '{{' }}" + rest[2:]
                return UnclosedExpression(opened.start(), rest, written.strip(), literal=True)
            return UnclosedExpression(opened.start(), rest, f"{{{{{trim} {body} }}}}" if body else "{{ NAME }}")
        at = closed + 2
