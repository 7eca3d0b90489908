"""Where a failed compile or test run says it failed, when no Python traceback does: the source
file and line of the error a non-Python tool printed.

- A compiler that puts the place first: gcc and clang (``src/kv.c:41:9: error: ...``), tsc
  (``src/a.ts(3,7): error TS2322: ...``, or ``src/a.ts:3:7 - error TS2322: ...`` with
  ``--pretty``; microsoft/TypeScript ``src/compiler/program.ts`` formatDiagnostic).
- rustc, which puts it on the line under its diagnostic: ``error[E0308]: mismatched types`` then
  `` --> src/main.rs:4:18`` (rust-lang/rust ``compiler/rustc_errors/src/emitter.rs``, the
  ``-->`` of the primary span).
- A Go program's panic: ``panic: runtime error: ...``, ``goroutine 1 [running]:``, then each
  frame's function and, indented by a tab, its ``/path/main.go:12 +0x1d`` (golang/go
  ``src/runtime/traceback.go``); the first frame outside the Go runtime's own sources is where it
  panicked.
- jest (and vitest): `` FAIL  src/a.test.ts`` (``getResultHeader``), each failed test after a
  ``●`` (``jest-message-util`` formatResultsErrors) with its stack, ``at Object.<anonymous>
  (src/a.test.ts:14:20)``; its first frame outside ``node_modules`` and Node's own modules is the
  place, else the file the FAIL line names.

Run only on an output already known to have failed (:func:`failures.extract_errors`'s last
branch), each behind a substring test.
"""

from __future__ import annotations

import re

_PLACE_FIRST = re.compile(r"(?P<file>[^\s:()]+\.[A-Za-z]\w*)(?::(?P<line>\d+)(?::\d+)?|\((?P<pline>\d+)(?:,\d+)?\))"
                          r"(?::| -) (?:fatal )?error\b")
_ARROW = re.compile(r"^[ \t]*--> (?P<file>[^\s:]+):(?P<line>\d+):\d+[ \t]*$", re.M)
_ARROW_WINDOW = 600
"""How far after its diagnostic's line rustc's arrow is looked for: the next line, past a
wide gutter."""
_GO_FRAME = re.compile(r"^\t(?P<file>\S+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?[ \t]*$", re.M)
_GO_RUNTIME = "/src/runtime/"
_JEST_FAIL = re.compile(r"^[ \t]*FAIL[ \t]+(?P<file>\S+\.(?:[cm]?[jt]sx?))\b", re.M)
_JEST_FRAME = re.compile(r"^[ \t]+at (?:[^\n(]*\()?(?P<file>[^\s():]+):(?P<line>\d+):\d+\)?[ \t]*$", re.M)
_JEST_BULLET = "\u25cf "


def failure_place(output: str, message: str, said_at: int | None = None) -> tuple[str | None, int | None]:
    """``(file, line)`` of the error ``message`` names, or ``(None, None)``; ``said_at``: where
    the message's line starts in ``output``, if it was found there."""
    if "error" in message and (m := _PLACE_FIRST.match(message)) is not None:
        return m.group("file"), int(m.group("line") or m.group("pline"))
    if said_at is not None and message.startswith("error") and "-->" in output:
        nl = output.find("\n", said_at)
        if nl >= 0 and (m := _ARROW.search(output, nl + 1, nl + 1 + _ARROW_WINDOW)) is not None:
            return m.group("file"), int(m.group("line"))
    if message.startswith("panic: ") and "goroutine " in output:
        start = output.find("goroutine ")
        for m in _GO_FRAME.finditer(output, start):
            if _GO_RUNTIME not in m.group("file"):
                return m.group("file"), int(m.group("line"))
        return None, None
    if "FAIL" in output and _JEST_BULLET in output and (fail := _JEST_FAIL.search(output)) is not None:
        bullet = output.find(_JEST_BULLET, fail.end())
        if bullet >= 0:
            for m in _JEST_FRAME.finditer(output, bullet):
                file = m.group("file")
                if "node_modules/" not in file and not file.startswith("node:"):
                    return file, int(m.group("line"))
        return fail.group("file"), None
    return None, None
