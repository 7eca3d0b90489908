"""A polling step's duration left out its waits: `retries: 3, retry_delay: 0.4` with an `until`
that never held spent about 1.2 s waiting between four quick attempts, and run.json (and the
console's "(0.0 s)") gave the commands' time alone, so a five-minute wait for a server read as
an instant step. duration_s is now the step's wall time, the waits included."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

POLL = """
name: poll
steps:
  - id: wait
    run: echo loading
    retries: 3
    retry_delay: 0.4
    until: "'ready' in stdout"
  - id: once
    run: echo done
"""


def test_a_poll_s_duration_counts_its_waits(tmp_path):
    playbook = tmp_path / "poll.yaml"
    playbook.write_text(POLL)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert result.code == 1, result.stderr
    _, record = only_run(tmp_path / "runs")
    wait, once = record["steps"]
    assert wait["attempts"] == 4
    assert 1.2 <= wait["duration_s"] < 30  # three waits of 0.4 s (was the echoes' time, ~0.01 s)
    assert once["duration_s"] < 1.2  # a step without retries: its command's time, as before
