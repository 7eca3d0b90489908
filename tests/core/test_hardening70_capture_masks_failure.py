"""A capture that cannot read a failed command's output no longer hides the failure.

`curl -sf http://localhost:30000/get_server_info` against a server that is down exits 7 and
prints nothing; against a proxy in front of it, exits 22 after an HTML error page. With a
`json:` capture on the step, the capture's "output is not JSON" (SD003, a warning) was all the
step said: the command's non-zero exit (SD001 without the capture) and a failed
`exit_code: 0` expectation were never judged, and the run said PASSED, exit 0. Like Ansible,
where a `command` task fails on its rc before anything parses its output, the step is now
failed on what reads no capture; the capture's SD003 stays beside it, and a `that:` (which
reads the facts) is recorded as not evaluated. Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

PLAYBOOK = """\
name: p
steps:
  - id: server_info
    run: |
      echo "curl: (7) Failed to connect to localhost port 30000" >&2; exit 7
    capture:
      - json: version
        name: engine_version
  - id: proxied
    run: |
      echo '<html>502 Bad Gateway</html>'; exit 22
    capture:
      - json: version
        name: proxied_version
    expect:
      - exit_code: 0
      - that: facts.proxied_version is not none
"""


def test_a_failed_command_fails_though_its_output_is_not_json(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    _, record = only_run(out)
    assert result.code == 1, result.stderr  # was 0, PASSED
    assert record["status"] == "failed"
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["server_info"]["status"] == "failed"
    assert steps["server_info"]["message"] == "exit code 7; capture failed: output is not JSON"
    assert steps["proxied"]["status"] == "failed"
    assert steps["proxied"]["message"] == ("expected exit code 0, observed exit code 22; "
                                           "capture failed: output is not JSON")
    assert steps["proxied"]["expectations"] == [
        {"expect": "exit code 0", "passed": False, "observed": "exit code 22"},
        {"expect": "that facts.proxied_version is not none", "passed": False,
         "observed": "not evaluated: capture failed: output is not JSON"},
    ]
    said = [(f["step"], f["code"], f["severity"]) for f in record["findings"]]
    assert said == [("server_info", "SD001", "error"), ("server_info", "SD003", "warning"),
                    ("proxied", "SD001", "error"), ("proxied", "SD003", "warning")]
    assert record["findings"][0]["title"] == "Step 'server_info' failed: exit code 7"
    assert "FAILED: 2 error(s), 2 warning(s)" in result.stderr


def test_a_command_that_succeeded_with_unreadable_output_is_still_unread(tmp_path):
    # Nothing but the capture says anything of the step: it could not be read (SD003), as before.
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK.replace("exit 7", "exit 0").replace("exit 22", "exit 0"))
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    _, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [(s["id"], s["status"], s["message"]) for s in record["steps"]] == [
        ("server_info", "error", "capture failed: output is not JSON"),
        ("proxied", "error", "capture failed: output is not JSON"),
    ]
    assert [f["code"] for f in record["findings"]] == ["SD003", "SD003"]
    assert "nothing was checked: no step ran to an answer" in " ".join(result.stderr.split())
