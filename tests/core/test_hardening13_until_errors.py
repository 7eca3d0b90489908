"""An `until` that cannot be evaluated says why when the polling ends, not "was still false".

`until: facts.redy == 1` (a typo of the captured `ready`) polled for all its retries and ended
with "until 'facts.redy == 1' was still false after 30 attempt(s)": the on-call looked at the
server for five minutes for a fault that was a typo. The templating layer knew ("facts.redy is
not set"); `until` swallowed it. A failing expression still counts as "not yet" (a capture is
None until the server logs the line), so polling goes on; the last attempt's reason is said.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """
name: wait_server
steps:
  - id: typo
    run: echo ready=1
    capture:
      - regex: 'ready=(?P<ready>\\\\d)'
        type: int
    retries: 2
    until: facts.redy == 1
  - id: loading
    run: echo 'loading weights'
    capture:
      - regex: 'tokens_per_s=(?P<tokens_per_s>[0-9.]+)'
        type: float
    retries: 1
    until: facts.tokens_per_s > 100
  - id: slow
    run: echo 'tokens_per_s=12.5'
    capture:
      - regex: 'tokens_per_s=(?P<tokens_per_s>[0-9.]+)'
        type: float
    retries: 1
    until: facts.tokens_per_s > 100
  - id: became_ready
    run: |
      n=$(cat {state} 2>/dev/null || echo 0); echo $((n + 1)) > {state}
      [ "$n" -ge 1 ] && echo tokens_per_s=250.0 || echo loading
    capture:
      - regex: 'tokens_per_s=(?P<tokens_per_s>[0-9.]+)'
        type: float
    retries: 3
    until: facts.tokens_per_s > 100
"""


def test_until_says_why_it_could_not_be_evaluated(tmp_path, write_playbook):
    playbook = write_playbook(PLAYBOOK.replace("{state}", str(tmp_path / "attempts")))
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    # A typo: all attempts ran, and the message names the fact that is not set.
    typo = steps["typo"]
    assert typo["status"] == "failed" and typo["attempts"] == 3
    assert typo["message"].startswith("until 'facts.redy == 1' could not be evaluated after 3 attempt(s): facts.redy is not set")
    # A capture that never matched: the value is None, and the message says so.
    loading = steps["loading"]
    assert loading["status"] == "failed" and loading["attempts"] == 2
    assert "could not be evaluated after 2 attempt(s)" in loading["message"] and "facts.tokens_per_s is None" in loading["message"]
    # An expression that evaluated to false is still "was still false".
    assert steps["slow"]["message"] == "until 'facts.tokens_per_s > 100' was still false after 2 attempt(s) (facts.tokens_per_s = 12.5)"
    # A None on an early attempt is "not yet": polling went on until the value came.
    assert steps["became_ready"]["status"] == "passed" and steps["became_ready"]["attempts"] == 2
    sd001 = {f["step"]: f for f in record["findings"] if f["code"] == "SD001"}
    assert "facts.redy is not set" in sd001["typo"]["title"]
