"""Go templates in a playbook's text (a command, a var, a finding's fix), and the line that keeps
them from Jinja.

docker, podman and kubectl take Go templates for `--format` / `-o go-template`
(`{{.State.Status}}`, `{{json .Config}}`, `{{range .items}}...{{end}}`; pkg.go.dev/text/template
for the actions and functions, docs.docker.com "Format command and log output" for docker's
own `json`, `join`, `table`, `lower`, `upper`, `split`, `title`, `pad`, `truncate`). Jinja
reads the same braces: `{{.State}}` fails to parse, and `{{json .Config}}` parses as the
attribute `Config` of a variable `json` (Jinja allows space before the dot), so validation said
"undefined variable 'json' ... declare it under vars:". Both now get the author's own line back
with each Go template inside `{% raw %}...{% endraw %}`, which runs as written.
"""

from __future__ import annotations

import re

# Words that open a Go template action or call a function docker adds; `{{.` and `{{$` always do.
GO_WORDS = frozenset({
    "range", "with", "if", "else", "end", "define", "template", "block", "printf", "println", "print",
    "json", "index", "len", "slice", "join", "table", "lower", "upper", "split", "title", "pad", "truncate",
    "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not", "call", "html", "js", "urlquery",
})
GO_TEMPLATE = re.compile(r"\{\{-?\s*(\.|\$|(" + "|".join(sorted(GO_WORDS)) + r")\b)")
# One `{{ ... }}` on a line.
_ACTION = re.compile(r"\{\{.*?\}\}")
_RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}", re.DOTALL)


def go_call(text: str, name: str) -> bool:
    """Whether `name` (a name Jinja found undefined) is a Go function called on a field or a
    variable, `{{json .Config}}`, `{{ lower $name }}`, in text outside raw blocks."""
    if name not in GO_WORDS:
        return False
    return re.search(r"\{\{-?\s*" + re.escape(name) + r"\s+[.$]", _RAW_BLOCK.sub("", text)) is not None


def raw_wrapped(text: str) -> str | None:
    """The first line of text that holds a Go template outside a raw block, with each run of Go
    templates on it wrapped in `{% raw %}...{% endraw %}`; None when there is none."""
    bare = _RAW_BLOCK.sub(lambda m: "\0" * len(m.group(0)), text)  # raw blocks are left as they are
    for start, line in _lines(bare):
        if not GO_TEMPLATE.search(line):
            continue
        written = text[start:start + len(line)]
        spans = [(m.start(), m.end(), GO_TEMPLATE.match(m.group(0)) is not None) for m in _ACTION.finditer(line)]
        if not any(go for _, _, go in spans):
            return None  # a Go `{{` with no `}}` on its line: nothing sure to wrap
        fixed, last, run_start, run_end = [], 0, None, None
        for begin, end, go in spans + [(len(line), len(line), False)]:
            if go:
                run_start = begin if run_start is None else run_start
                run_end = end
                continue
            if run_start is not None:
                fixed += [written[last:run_start], "{% raw %}", written[run_start:run_end], "{% endraw %}"]
                last, run_start = run_end, None
        fixed.append(written[last:])
        return "".join(fixed).strip()
    return None


def _lines(text: str) -> list[tuple[int, str]]:
    found, at = [], 0
    for line in text.split("\n"):
        found.append((at, line))
        at += len(line) + 1
    return found
