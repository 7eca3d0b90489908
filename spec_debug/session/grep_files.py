"""The parts of a `grep`, `tail` or `head` output over several files that came from each file.

An agent greps two server logs or two benchmark results at once, ``grep "gen throughput"
base.log eagle.log``: grep puts each line's file name before it ("base.log:[2026-01-10 08:15:03
TP0] Decode batch, ..."; with ``-n`` the line number too, "base.log:412:..."). Read whole, the
lines of the run without speculation and of the EAGLE-3 run were one server's: their mean was
the reading of neither, and a benchmark result's "base.txt:Output token throughput (tok/s): ..."
was no reading at all. `tail -n 5 base.log eagle.log` (and `head`) heads each file's lines with
"==> base.log <==" (GNU coreutils tail.c/head.c write_header) instead. Each file is read on its
own, its file name saying which run it is.
"""

from __future__ import annotations

import re

# "path:" then (grep -n) "N:" or a context line's "N-", at a line's start. A path has no space or
# colon, and a "/" or a "." (a log's "INFO:" has neither: _is_path); one run of non-colons, so a
# megabyte line without a colon is one linear try.
_FILE_PREFIX = re.compile(r"(?P<file>[^\s:]{1,300}):(?:\d+[:-])?")
# tail's and head's header over each file's lines, "==> /tmp/eagle.log <==", the first of them the
# output's first line that has something on it
_TAIL_HEADER = re.compile(r"^==> (?P<file>[^\n]{1,300}?) <==[ \t\r]*$", re.M)
_STARTS_WITH_HEADER = re.compile(r"\s*==> ")
# A file name that says its run drafts nothing: "base.log", "baseline_bs1.txt", "no_spec.log",
# "vanilla.out", "nospec-run2.log", "no-eagle.log".
_BASELINE_FILE = re.compile(r"(?:^|[/_.-])(?:base(?:line)?|vanilla|no[-_]?spec\w*|no[-_]?eagle\w*|no[-_]?draft)"
                            r"(?=[/_.-]|$)", re.I)


def _is_path(name: str) -> bool:
    return "/" in name or "." in name


def file_sections(text: str) -> list[tuple[str, bool, str]] | None:
    """``(file, names_the_run_without_speculation, its lines without the prefix)`` for each
    file in the order they first appear; None unless two files or more are named: by tail's and
    head's headers, the first line that has something on it one of them, or before every line
    that has something on it (grep's)."""
    if _STARTS_WITH_HEADER.match(text):
        return _tail_sections(text)
    if (first := _FILE_PREFIX.match(text)) is None or not _is_path(first.group("file")):
        return None  # the first line has none (one short match for most outputs)
    parts: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _FILE_PREFIX.match(line)
        if m is None or not _is_path(m.group("file")):
            return None
        parts.setdefault(m.group("file"), []).append(line[m.end():])
    if len(parts) < 2:
        return None
    return [(file, _BASELINE_FILE.search(file) is not None, "\n".join(lines) + "\n") for file, lines in parts.items()]


def _tail_sections(text: str) -> list[tuple[str, bool, str]] | None:
    headers = list(_TAIL_HEADER.finditer(text))
    if len(headers) < 2:
        return None
    parts: dict[str, str] = {}
    for i, header in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(text)
        file = header.group("file")
        parts[file] = parts.get(file, "") + text[header.end() + 1:end]
    if len(parts) < 2:
        return None
    return [(file, _BASELINE_FILE.search(file) is not None, part) for file, part in parts.items()]
