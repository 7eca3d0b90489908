"""The postmortem's "what went well" lower-cased the whole title of the kinds a change of
approach went between: "reading logs → checking the gpus", "running python". The names in a
title keep their case; only the first letter is lowered for the sentence."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"


def test_the_kinds_keep_their_names_case() -> None:
    view = postmortem_view(analyze_path(DATA / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl"))
    assert view["went_well"] == [
        "Changed approach after RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. "
        "[msg 4]: reading logs → checking the GPUs [msg 5] (main).",
        # (the failure in words: was "after connection: ssh: ...", hardening 72)
        "Changed approach after ssh: connect to host gpu01 port 2222: No route to host [msg 8]: "
        "checking the GPUs → inspecting configs and checkpoints [msg 10] (main).",
    ]
