"""Jinja's sandbox with the size of `*` and `**` bounded: for playbook templates and report
templates, both written by whoever hands over the file."""

from __future__ import annotations

from typing import Any

from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

MAX_REPEATED = 10_000_000
"""Items (or characters) a `*` may make: a command or a value, never a memory's worth."""
MAX_POWER_BITS = 1_000_000
"""Bits a `**` may make (a number of 300,000 digits)."""


class BoundedSandbox(SandboxedEnvironment):
    """The sandbox bounds `range()` (MAX_RANGE) but not `*` and `**`: `when: "'x' * 10**10"` took
    10 GB and the kernel killed the run, its run.json left "running"; `10 ** 100000000` computed
    for minutes; a report --template can do the same. Both are refused with the size
    (jinja2/sandbox.py: intercepted_binops, call_binop)."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if (isinstance(sequence, (str, list, tuple)) and isinstance(times, int)
                        and len(sequence) * times > MAX_REPEATED):
                    raise SecurityError(f"'*' would make {len(sequence) * times:,} items; at most {MAX_REPEATED:,}")
        elif (operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1
              and right * abs(left).bit_length() > MAX_POWER_BITS):
            raise SecurityError(f"'**' would make a number of about {right * abs(left).bit_length():,} bits; "
                                f"at most {MAX_POWER_BITS:,}")
        return super().call_binop(context, operator, left, right)
