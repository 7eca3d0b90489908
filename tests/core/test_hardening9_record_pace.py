"""A fleet run does not spend its time rewriting run.json.

run.json is rewritten whole (an atomic replace) as steps finish, and was also forced at every
host's end. A fleet's record grows with every host and step (60 hosts x 10 steps of 20 kB logs
made 12 MB), so each rewrite got slower and there were more of them: the run spent over half its
wall time rewriting (78 rewrites, 3.2 s of a 5.9 s run; now 9 rewrites, 0.14 s of 3.7 s).
Rewrites are now paced by what the last one cost; the record on disk is still always whole.
"""

from __future__ import annotations

import json
import time

from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.store import RunStore
from tests.conftest import only_run

WRITE_COST_S = 0.1  # a slow disk or a big record: what each rewrite takes


def test_slow_record_writes_take_a_small_share_of_a_fleet_run(tmp_path, monkeypatch):
    inventory = tmp_path / "inventory.ini"
    inventory.write_text("[gpus]\n" + "".join(f"gpu{i:02d} ansible_connection=local\n" for i in range(6)))
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text("name: fleet\nsteps:\n" + "".join(f"  - id: s{j}\n    run: sleep 0.02\n" for j in range(8)))
    writes: list[float] = []
    real_save_json = RunStore.save_json

    def slow_save_json(self: RunStore, payload: str) -> None:
        json.loads(payload)  # every write is a whole record
        time.sleep(WRITE_COST_S)
        real_save_json(self, payload)
        writes.append(time.monotonic())

    monkeypatch.setattr(RunStore, "save_json", slow_save_json)
    started = time.monotonic()
    result = CliRunner().invoke(app, ["run", str(playbook), "-i", str(inventory), "-f", "6",
                                      "--out", str(tmp_path / "runs")], env={"COLUMNS": "200"})
    wall = time.monotonic() - started
    assert result.exit_code == 0, result.output
    # The first write (the run started) and the last (the run finished) always happen; between
    # them, writing took 1/SAVE_COST_RATIO of the run plus one write's lag. Before: a write at
    # each host's end and every 0.1 s, over half the run.
    between = len(writes) - 2
    assert between * WRITE_COST_S <= 0.1 * wall + WRITE_COST_S, (len(writes), wall)
    _, record = only_run(tmp_path / "runs")
    assert record["status"] == "passed"
    assert len(record["steps"]) == 48
    assert all(h["status"] == "passed" and h["finished_at"] for h in record["hosts"])
