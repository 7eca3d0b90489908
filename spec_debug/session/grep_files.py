"""The parts of a `grep` (`rg`, `tail`-less `grep -H`) output that came from each file.

An agent greps two server logs or two benchmark results at once, ``grep "gen throughput"
base.log eagle.log``: grep puts each line's file name before it ("base.log:[2026-01-10 08:15:03
TP0] Decode batch, ..."; with ``-n`` the line number too, "base.log:412:..."). Read whole, the
lines of the run without speculation and of the EAGLE-3 run were one server's: their mean was
the reading of neither, and a benchmark result's "base.txt:Output token throughput (tok/s): ..."
was no reading at all. Each file is read on its own, its file name saying which run it is.
"""

from __future__ import annotations

import re

# "path:" then (grep -n) "N:" or a context line's "N-", at a line's start. A path has no space or
# colon, and a "/" or a "." (a log's "INFO:" has neither: _is_path); one run of non-colons, so a
# megabyte line without a colon is one linear try.
_FILE_PREFIX = re.compile(r"(?P<file>[^\s:]{1,300}):(?:\d+[:-])?")


def _is_path(name: str) -> bool:
    return "/" in name or "." in name
# A file name that says its run drafts nothing: "base.log", "baseline_bs1.txt", "no_spec.log",
# "vanilla.out", "nospec-run2.log", "no-eagle.log".
_BASELINE_FILE = re.compile(r"(?:^|[/_.-])(?:base(?:line)?|vanilla|no[-_]?spec\w*|no[-_]?eagle\w*|no[-_]?draft)"
                            r"(?=[/_.-]|$)", re.I)


def file_sections(text: str) -> list[tuple[str, bool, str]] | None:
    """``(file, names_the_run_without_speculation, its lines without the prefix)`` for each
    file in the order they first appear; None unless every line that has something on it starts
    with a file's name and two files or more are named."""
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
