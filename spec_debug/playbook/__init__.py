"""Playbooks: the pydantic model, YAML loading with line numbers, JSON Schema export."""

from spec_debug.playbook.loader import find_playbook, load_playbook, load_playbook_text
from spec_debug.playbook.models import Capture, Expectation, FetchSpec, FindingTemplate, Playbook, Step

__all__ = [
    "Capture",
    "Expectation",
    "FetchSpec",
    "FindingTemplate",
    "Playbook",
    "Step",
    "find_playbook",
    "load_playbook",
    "load_playbook_text",
]
