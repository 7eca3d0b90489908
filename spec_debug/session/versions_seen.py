"""The installed versions a version check printed (`pip show sglang`: "Version: 0.4.1"), kept
for the postmortem: its "what went well" said a turn to `pip show sglang` after a failed
EAGLE-3 launch was a turn to "running commands", not what was checked and what it showed.

Read from the output of :func:`version_checks.checked_packages`' commands only, and only for
the packages the command names:

- pip ``show``: a ``Name:`` line, then its ``Version:`` line (pip's show command prints one
  block per package, pypa/pip src/pip/_internal/commands/show.py ``print_results``);
- pip ``list`` (columns ``name version``), ``freeze`` (``name==version``), conda ``list``
  (``name version build channel``): a line whose first word is the package;
- Python printing ``NAME.__version__`` for one package: the output's one version-shaped line;
- ``python3 --version``: "Python 3.11.7" (a ``name version`` line, as pip list's); ``nvcc
  --version``: its "Cuda compilation tools, release 12.1, V12.1.105" line's release.

Kept outside the JSON contract (the command's record is the contract's), one per check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spec_debug.session.version_checks import normalized_name

_VERSION = re.compile(r"v?(\d+(?:\.\w+)+(?:[+-][\w.]+)?)")
_SHOW_FIELD = re.compile(r"^(Name|Version):\s*(\S+)\s*$", re.M)
_LIST_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\s+|==)(\S+)", re.M)
_NVCC_RELEASE = re.compile(r"^Cuda compilation tools, release (\d+\.\d+)", re.M)
MAX_OUTPUT_CHARS = 20_000
"""A `pip list` prints a few hundred lines: the head of a longer output is read."""


@dataclass(slots=True)
class VersionSeen:
    session: str
    seq: int
    """The check's command."""
    agent: str
    host: str | None
    package: str
    """Normalised (PEP 503), as :func:`version_checks.checked_packages` names it."""
    version: str


def printed_versions(packages: set[str], output: str, printed_by_python: bool,
                     order: list[str] | tuple[str, ...] = ()) -> dict[str, str]:
    """The version ``output`` shows of each of ``packages`` (normalised names); ``printed_by_python``:
    the check printed ``NAME.__version__`` (a bare version line is its one package's); ``order``:
    the packages it printed, in the command's order (version_checks.printed_modules): the bare
    versions of `print(vllm.__version__, torch.__version__)` ("0.10.1 2.7.1+cu126", on one line
    or one a line) are theirs in that order, where there are as many."""
    text = output[:MAX_OUTPUT_CHARS]
    out: dict[str, str] = {}
    if "Name:" in text and "Version:" in text:
        name = None
        for m in _SHOW_FIELD.finditer(text):
            if m.group(1) == "Name":
                name = normalized_name(m.group(2))
            elif name in packages and name not in out:
                out[name] = m.group(2)
                name = None
    for m in _LIST_LINE.finditer(text):
        name = normalized_name(m.group(1))
        if name in packages and name not in out and (v := _VERSION.fullmatch(m.group(2))):
            out[name] = v.group(1)
    if "nvcc" in packages and (m := _NVCC_RELEASE.search(text)):
        out["nvcc"] = m.group(1)
    if printed_by_python and len(packages) == 1 and not out:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        found = [v.group(1) for line in lines if (v := _VERSION.fullmatch(line))]
        if len(found) == 1:
            out[next(iter(packages))] = found[0]
    elif printed_by_python and not out and len(order) > 1:
        words = [line.split() for line in text.splitlines()]
        found = [v.group(1) for line in words if line and all(_VERSION.fullmatch(w) for w in line)
                 for w in line if (v := _VERSION.fullmatch(w))]
        if len(found) == len(order):
            out = dict(zip(order, found))
    return out

