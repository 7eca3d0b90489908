"""perf_regression given the training hidden states but no draft (no --var draft_model, and no
server command naming one: the server is down, or launch_flags skipped at `run --step`): the
hidden_layout step said "conventions table only: no hidden states to run the layout probe",
and drafter_eval "needs a draft checkpoint (--var draft_model) and training hidden states
(--var hidden_states)" titled "Not checked: --var hidden_states=DIR --var draft_model=DIR":
both asked for the hidden states the user had passed. They now name the draft alone. Runs the
shipped playbook with the local transport on the demo fixture's hidden states."""

from __future__ import annotations

import sys
from pathlib import Path

from spec_debug.playbook.loader import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.reporter import Reporter
from spec_debug.store import RunStore

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
DRAFT = "--var draft_model=DIR (or a server command that names it)"


def _notes(out: Path, variables: dict[str, str]) -> dict[str, list[tuple[str, list[str]]]]:
    loaded = load_playbook("perf_regression")
    record = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                 RunStore.create(out, loaded.playbook.name), {"python": sys.executable, **variables},
                 RunOptions(reporter=Reporter())).execute()
    notes: dict[str, list[tuple[str, list[str]]]] = {}
    for f in record.findings:
        if f.code == "SD004":
            notes.setdefault(f.step, []).append((f.title, f.evidence))
    return notes


def test_the_hidden_states_given_the_draft_is_asked_for(tmp_path: Path):
    notes = _notes(tmp_path / "runs", {"hidden_states": str(DEMO / "hidden_states"), "server_cmdline": "python3 -m x"})
    assert notes["hidden_layout"] == [(f"Not checked: {DRAFT}", [
        "conventions table only: no draft checkpoint to run the layout probe and the embedding check with "
        "on the training hidden states"])]
    assert notes["drafter_eval"] == [(f"Not checked: {DRAFT}", ["needs a draft checkpoint (--var draft_model)"])]


def test_with_no_hidden_states_the_layout_still_asks_for_them(tmp_path: Path):
    notes = _notes(tmp_path / "runs", {"server_cmdline": "python3 -m x"})
    assert notes["hidden_layout"] == [("Not checked: --var hidden_states=DIR (training dump)", [
        "conventions table only: no hidden states to run the layout probe and the embedding check on"])]
    # requires: [hidden_states]: the runner skips it, naming the var; the probe never ran
    assert notes["drafter_eval"] == [("Not checked: provide --var hidden_states=... to run 1 more step(s)",
                                      ["skipped: drafter_eval"])]
