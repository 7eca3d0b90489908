"""Expectations and captures read a coloured log as people read it, without escape codes;
`finding: SD101` names a catalog finding on its own."""

from __future__ import annotations

from tests.conftest import only_run, run_cli

# SGLang's logger under FORCE_COLOR (or any TTY-coloured tool): the level and the numbers are
# wrapped in SGR sequences, which `contains:` and a capture regex never see in the text a
# person reads.
COLOURED = (
    r"printf '\033[1;31mERROR\033[0m: CUDA out of memory\n"
    r"[TP0] Decode batch, #running-req: 1, accept len: \033[32m1.00\033[0m, "
    r"gen throughput (token/s): \033[1m54.80\033[0m\n'"
)


def test_a_coloured_log_is_checked_and_captured_as_it_reads(tmp_path, write_playbook):
    playbook = write_playbook(f"""
name: coloured
steps:
  - id: server_log
    run: |
      {COLOURED}
    capture:
      - regex: 'accept len: (?P<accept_len>[\\d.]+)'
        type: float
      - regex: 'gen throughput \\(token/s\\): (?P<tput>[\\d.]+)'
        type: float
    expect:
      - not_contains: "ERROR: CUDA out of memory"
        finding: SD101
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), timeout=120)
    _, record = only_run(tmp_path / "runs")
    step = record["steps"][0]
    assert step["facts"] == {"accept_len": 1.0, "tput": 54.8}
    assert step["status"] == "failed"
    assert step["expectations"] == [{"expect": "output does not contain 'ERROR: CUDA out of memory'",
                                     "passed": False, "observed": "found"}]
    assert [f["code"] for f in record["findings"]] == ["SD101"]
    # the catalog's title and remediation, from the code alone
    assert record["findings"][0]["title"] == "Speculation capped at one drafted token per round"
    assert record["findings"][0]["remediation"]
    assert "SD101" in result.stdout + result.stderr


def test_finding_as_a_bare_code_validates_and_a_bad_one_is_refused(tmp_path, write_playbook):
    good = write_playbook("name: x\nsteps:\n  - id: a\n    run: echo\n    expect:\n      - contains: ok\n"
                          "        finding: SD201\n    findings: [SD101]\n")
    assert run_cli("playbooks", "validate", str(good)).code == 0
    bad = write_playbook("name: x\nsteps:\n  - id: a\n    run: echo\n    expect:\n      - contains: ok\n"
                         "        finding: boom\n", name="bad.yaml")
    result = run_cli("playbooks", "validate", str(bad))
    assert result.code == 2
    assert "bad.yaml:7:18" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr
