"""Session analyzer: agent/engineer transcripts -> events -> extractors -> analysis.

Public entry points: :func:`analyze_path` (the ``analyze`` command) and
:func:`distill_playbook` (the ``distill`` command). See issue #6 and
../shared/reference/TRANSCRIPTS.md for the formats.

They are imported on first use (PEP 562): the CLI imports this package to register its
commands, and the readers and extractors are most of what it would otherwise load at start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spec_debug.session.analysis import SessionAnalysis, analyze_path
    from spec_debug.session.distill import distill_playbook

__all__ = ["SessionAnalysis", "analyze_path", "distill_playbook"]

_HOMES = {"SessionAnalysis": "spec_debug.session.analysis", "analyze_path": "spec_debug.session.analysis",
          "distill_playbook": "spec_debug.session.distill"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(home), name)
