"""`spec-debug explain perf_regression --step`, the two commands a new engineer is told of
(README: "`spec-debug explain perf_regression`, then `spec-debug demo --step`") run into one:
it said "no such option: --step" with "spec-debug explain --help lists the options", and
`explain --step` hinted "the concept 'num steps'?" (the server's --speculative-num-steps).
Neither said where --step is. The hint now names `run PLAYBOOK --step` (the playbook typed,
where one was) and `demo --step`; exit 2 as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HINT = ("  hint: --step is run's and demo's: `spec-debug run {} --step` runs the playbook, asking before each "
        "step (`spec-debug demo --step` on the demo host); explain shows the same walk without running it")


def _explain(*words: str, cwd: Path = REPO) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1", "COLUMNS": "300"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", *words], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60)
    assert proc.returncode == 2, proc.stderr
    return proc.stderr.splitlines()


def test_explain_a_playbook_with_step_points_at_run_step():
    assert _explain("perf_regression", "--step") == ["error: no such option: --step", HINT.format("perf_regression")]
    assert _explain("--step", "host_smoke") == ["error: no such option: --step", HINT.format("host_smoke")]


def test_explain_step_alone_is_not_the_num_steps_concept():
    assert _explain("--step") == ["error: no such option: --step", HINT.format("PLAYBOOK")]


def test_a_step_id_is_not_offered_as_the_playbook(tmp_path: Path):
    assert _explain("hidden_layout", "--step") == ["error: no such option: --step", HINT.format("PLAYBOOK")]
    (tmp_path / "my walk.yaml").write_text("name: w\nsteps:\n  - id: a\n    run: echo a\n")
    assert _explain("my walk.yaml", "--step", cwd=tmp_path) == ["error: no such option: --step",
                                                                HINT.format("'my walk.yaml'")]


def test_other_unknown_options_keep_their_hint():
    assert _explain("perf_regression", "--stpe") == ["error: no such option: --stpe",
                                                     "  hint: spec-debug explain --help lists the options"]
