"""Session analyzer: agent/engineer transcripts -> events -> extractors -> analysis.

Public entry points: :func:`analyze_path` (the ``analyze`` command) and
:func:`distill_playbook` (the ``distill`` command). See issue #6 and
../shared/reference/TRANSCRIPTS.md for the formats.
"""

from __future__ import annotations

from spec_debug.session.analysis import SessionAnalysis, analyze_path
from spec_debug.session.distill import distill_playbook

__all__ = ["SessionAnalysis", "analyze_path", "distill_playbook"]
