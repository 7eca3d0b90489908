"""A step that waits for a server (`retries: 30`, `retry_delay: 10`, `until: ...`) read in the
walkthrough "It is tried up to 31 times until ... holds": nothing said the tries are 10 s apart,
which is what makes them a five-minute wait. And `exit_code: [0, 1]` (grep's "no match" is 1)
read "exit code [0, 1]", Python's list. Now: "tried up to 31 times, 10 s apart, until ... holds"
and "exit code 0 or 1"."""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = """\
name: wait
steps:
  - id: ready
    run: curl -s localhost:30000/health
    retries: 30
    retry_delay: 10
    until: "'ok' in stdout"
  - id: count
    run: grep -c EAGLE3 server.log
    retries: 1
    expect:
      - exit_code: [0, 1]
  - id: three
    run: "true"
    expect:
      - exit_code: [0, 1, 2]
"""


def test_walkthrough_says_the_wait_and_the_exit_codes(tmp_path):
    path = tmp_path / "wait.yaml"
    path.write_text(PLAYBOOK)
    result = run_cli("explain", str(path), cwd=tmp_path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "It is tried up to 31 times, 10 s apart, until `'ok' in stdout` holds." in lines, result.stdout
    assert "It is tried up to 2 times." in lines, result.stdout  # no delay, no until: as before
    assert "**Healthy:** exit code 0 or 1." in lines, result.stdout
    assert "**Healthy:** exit code 0, 1 or 2." in lines, result.stdout
