"""Room on the stack for the deepest value a transcript line can hold.

orjson, which reads the lines, refuses JSON nested past 1,024 levels (its depth limit since
3.9.15, ijl/orjson commit b0e4d2c, CVE-2024-27454; orjson 3.13: 1,024 "[" read, 1,025 "depth
limit exceeded"), so a value it gives can be nested that deep. Python's own walks over a value recurse once a level (``str()``,
``repr``, ``json.dumps``, ``==``) or twice (``copy.deepcopy``, ``pickle``), against a recursion
limit of 1,000 by default: a tool input or a text block nested ~990 levels deep stopped
``spec-debug analyze`` with a RecursionError. Raising the limit while the transcript is read
keeps such a line (nothing is lost) instead of counting it broken; checking each line's depth
would cost the common path (the analyzer's speed rule). The C stack is not the bound: 1,024
levels of those walks ran in a thread with a 512 KiB stack.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# orjson's nesting cap: the deepest value a line decodes to
MAX_DECODED_DEPTH = 1024
# two frames a level (deepcopy, pickle), the cap once more for the frames below the walk
_HEADROOM = 3 * MAX_DECODED_DEPTH

_lock = threading.Lock()
_holders = 0
_saved = 0
_raised = 0


@contextmanager
def deep_values() -> Iterator[None]:
    """The recursion limit raised by :data:`_HEADROOM` for the block, set back after it. Nested
    or concurrent blocks (a fleet's hosts analyzed in threads) share one raise: the limit goes
    back when the last one ends, and only if nothing else changed it meanwhile."""
    global _holders, _saved, _raised
    with _lock:
        if _holders == 0:
            _saved = sys.getrecursionlimit()
            _raised = _saved + _HEADROOM
            sys.setrecursionlimit(_raised)
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and sys.getrecursionlimit() == _raised:
                sys.setrecursionlimit(_saved)
