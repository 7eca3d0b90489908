"""``spec-debug analyze -``: a transcript piped in on standard input.

Transcripts live where the agent ran (``ssh gpu01 cat ~/.claude/projects/.../session.jsonl``,
``zcat rollout.jsonl.gz``), and a pipe cannot be read twice: format detection peeks at the
start of a file, sub-agent discovery looks beside it, and a large file is read by worker
processes at byte offsets. So standard input is first copied, a megabyte at a time (memory
stays bounded), to a private temporary file that is removed afterwards; the analysis then
names the session's file ``-`` instead of that temporary path.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, BinaryIO

from spec_debug.errors import UsageError

STDIN_NAMES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
STDIN_LABEL = "-"
_CHUNK = 1024 * 1024


def wants_stdin(text: str) -> bool:
    """``-``, or a name of standard input that is a pipe (a redirected file reads as itself)."""
    if text == "-":
        return True
    if text not in STDIN_NAMES:
        return False
    try:
        return not Path(text).is_file()
    except OSError:
        return True


@contextmanager
def spooled_stdin(stream: BinaryIO | None = None) -> Iterator[Path]:
    """Standard input saved to a temporary file, removed when the block ends."""
    if stream is None and sys.stdin is None:
        # `spec-debug analyze - <&-`, a cron line or a service with no stdin: Python sets
        # sys.stdin to None when descriptor 0 is closed (an AttributeError traceback here)
        raise UsageError("no transcript on standard input (it is closed)",
                         hint="pipe one in: cat session.jsonl | spec-debug analyze -, or pass the transcript's path")
    stream = sys.stdin.buffer if stream is None else stream
    if stream.isatty():
        raise UsageError("no transcript on standard input (it is a terminal)",
                         hint="pipe one in: cat session.jsonl | spec-debug analyze -")
    try:
        folder = Path(tempfile.mkdtemp(prefix="spec-debug-stdin-"))
    except OSError as exc:
        raise UsageError(f"cannot save standard input to a temporary folder: {exc.strerror or exc}",
                         hint="set TMPDIR to a folder you can write, or pass the transcript's path") from None
    try:
        path = folder / "stdin"
        try:
            with open(path, "wb") as out:
                shutil.copyfileobj(stream, out, _CHUNK)
        except OSError as exc:  # a full /tmp (often a small tmpfs) while a large transcript comes in
            raise UsageError(f"cannot save standard input to {folder}: {exc.strerror or exc}",
                             hint="set TMPDIR to a folder with room for the transcript, or pass its path") from None
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def relabel(analysis: Any, spooled: Path, label: str = STDIN_LABEL) -> None:
    """Name the spooled file ``label`` wherever the analysis gives a file (sessions, agents,
    records' provenance): the temporary path is gone once the command ends."""
    old = str(spooled)
    for f in fields(analysis):
        value = getattr(analysis, f.name)
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, dict):
                for key, v in item.items():
                    if v == old:
                        item[key] = label
            elif is_dataclass(item):
                for g in fields(item):
                    if getattr(item, g.name) == old:
                        setattr(item, g.name, label)
