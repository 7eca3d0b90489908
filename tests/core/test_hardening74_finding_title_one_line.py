"""A finding title filled from a step's output kept the output's newlines: `title: "free memory
{{ steps.mem.stdout }} left"` gave "free memory 2 GiB\\n left" in run.json, a broken console
line and a report heading/verdict with a stray break ("2 GiB ." in the report). A title is one
line now: its lines are joined by a space, every word kept."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""
name: titles
steps:
  - id: mem
    run: echo "2 GiB"
  - id: gpus
    run: printf 'GPU 0\nGPU 1\n'
  - id: judge
    run: "false"
    findings:
      - code: SD601
        title: "free memory {{ steps.mem.stdout }} left"
      - code: SD601
        title: "GPUs seen: {{ steps.gpus.stdout }}"
"""


def test_a_title_filled_from_output_is_one_line(tmp_path):
    playbook = tmp_path / "titles.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    run_dir, record = only_run(tmp_path / "runs")
    memory, gpus = [f for f in record["findings"] if f["step"] == "judge"]
    assert memory["title"] == "free memory 2 GiB left"  # was "free memory 2 GiB\n left"
    assert memory["evidence"] == ["exit code 1"]
    assert gpus["title"] == "GPUs seen: GPU 0 GPU 1"
    assert "free memory 2 GiB left" in (run_dir / "report.md").read_text()
    assert "free memory 2 GiB left" in result.stdout + result.stderr
