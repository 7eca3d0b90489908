"""End-to-end runs of real playbooks on --host local, through the real CLI."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import only_run, run_cli


def test_capture_when_expect_finding(tmp_path, write_playbook):
    playbook = write_playbook(
        """
name: flags
vars:
  cmdline: "python -m sglang.launch_server --speculative-num-steps 1"
steps:
  - id: read_flags
    title: Read the launch flags
    run: echo {{ cmdline }}
    capture:
      - regex: '--speculative-num-steps (?P<num_steps>\\d+)'
        type: int
  - id: check_steps
    when: facts.num_steps is defined
    run: echo "num_steps={{ facts.num_steps }}"
    expect:
      - that: facts.num_steps > 1
        finding:
          code: SD101
          severity: error
          title: "Drafting capped at {{ facts.num_steps }} token per round"
          remediation: Raise --speculative-num-steps to the trained depth.
  - id: never
    when: facts.num_steps > 5
    run: echo unreachable
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 1, result.stderr  # an error finding -> exit 1
    run_dir, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["read_flags"]["facts"] == {"num_steps": 1}
    assert steps["check_steps"]["status"] == "failed"
    assert steps["never"]["status"] == "skipped"
    [finding] = [f for f in record["findings"] if f["code"] == "SD101"]
    assert finding["severity"] == "error"
    assert finding["title"] == "Drafting capped at 1 token per round"
    assert finding["host"] == "local" and finding["step"] == "check_steps"
    assert record["status"] == "failed"
    assert (run_dir / "report.md").read_text().count("SD101") >= 1
    assert "<html" in (run_dir / "report.html").read_text()


def test_clean_run_exits_zero_and_json_prints_record(tmp_path, write_playbook):
    playbook = write_playbook("name: ok\nsteps:\n  - id: a\n    run: echo fine\n    expect:\n      - contains: fine\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--json")
    assert result.code == 0, result.stderr
    printed = json.loads(result.stdout)
    _, record = only_run(out)
    assert printed["run_id"] == record["run_id"]
    assert printed["status"] == "passed"
    for key in ("run_id", "playbook", "started_at", "finished_at", "status", "vars", "hosts", "steps", "facts", "findings"):
        assert key in printed
    assert set(printed["playbook"]) >= {"name", "path", "sha256"}
    step = printed["steps"][0]
    for key in ("id", "host", "status", "exit_code", "duration_s", "stdout", "stderr", "truncated", "facts"):
        assert key in step


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if marker in cmdline and stat[stat.rfind(")") + 2] != "Z":
            found.append(int(entry.name))
    return found


def _survivors(marker: str) -> list[int]:
    """The marked processes still alive 30 s on. Each was sent SIGKILL before the run ended,
    but a killed process ends only once it is scheduled (and one reparented to init is reaped
    by it): a fixed 0.3 s wait saw the dying ones on a loaded machine. A survivor of a missed
    kill sleeps for minutes and is still listed."""
    deadline = time.monotonic() + 30
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _processes_with(marker)


def test_timeout_kills_the_whole_process_tree(tmp_path, write_playbook):
    marker = f"sdmark{uuid.uuid4().hex[:8]}"
    # A child, a grandchild, and one that escaped into its own session with setsid.
    playbook = write_playbook(
        f"""
name: hang
steps:
  - id: hang
    timeout: 1
    run: |
      bash -c 'exec -a {marker}a sleep 300' &
      bash -c 'bash -c "exec -a {marker}b sleep 300" & wait' &
      setsid bash -c 'exec -a {marker}c sleep 300' &
      wait
"""
    )
    out = tmp_path / "runs"
    started = time.monotonic()
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert time.monotonic() - started < 30
    _, record = only_run(out)
    assert record["steps"][0]["status"] == "timeout"
    assert any(f["code"] == "SD002" for f in record["findings"])
    assert _survivors(marker) == [], "a process of the timed-out step survived"
    assert result.code == 0  # a timeout is a warning, not an error finding


def test_retries_until_success(tmp_path, write_playbook):
    counter = tmp_path / "count"
    playbook = write_playbook(
        f"""
name: flaky
steps:
  - id: flaky
    retries: 4
    run: |
      n=$(cat {counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {counter}
      echo attempt $n
      [ $n -ge 3 ]
    expect:
      - exit_code: 0
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    step = record["steps"][0]
    assert step["status"] == "passed"
    assert step["attempts"] == 3
    assert "attempt 3" in step["stdout"]


def test_retries_exhausted_reports_failure(tmp_path, write_playbook):
    playbook = write_playbook("name: f\nsteps:\n  - id: f\n    retries: 2\n    run: echo nope; exit 4\n    expect:\n      - exit_code: 0\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    _, record = only_run(out)
    assert record["steps"][0]["attempts"] == 3 and record["steps"][0]["exit_code"] == 4
    assert [f["code"] for f in record["findings"]] == ["SD001"]
    assert result.code == 1


def test_fifty_megabytes_of_output_neither_deadlocks_nor_bloats_the_record(tmp_path, write_playbook):
    # Both streams at once: a runner that drains one pipe at a time deadlocks here.
    playbook = write_playbook(
        f"""
name: big
steps:
  - id: flood
    timeout: 120
    run: {sys.executable} -c "import sys; b = b'x' * 1048576; [ (sys.stdout.buffer.write(b), sys.stderr.buffer.write(b[:65536])) for _ in range(50) ]; print('END')"
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), timeout=180)
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    step = record["steps"][0]
    assert step["status"] == "passed"
    assert step["truncated"] is True
    assert step["stdout"].rstrip().endswith("END")  # the tail is kept: that is where tracebacks are
    assert (run_dir / "run.json").stat().st_size < 2_000_000
    spilled = run_dir / "artifacts" / "local" / "flood.stdout.log"
    assert spilled.stat().st_size == 50 * 1048576 + len("END\n")


@pytest.mark.parametrize("signum, reason", [(signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM"),
                                            (signal.SIGHUP, "SIGHUP")])
def test_ctrl_c_leaves_an_aborted_record_and_a_report(tmp_path, write_playbook, signum, reason):
    marker = f"sdint{uuid.uuid4().hex[:8]}"
    playbook = write_playbook(
        f"""
name: interrupted
steps:
  - id: first
    run: echo one
  - id: slow
    run: bash -c 'exec -a {marker} sleep 120'
  - id: never
    run: echo never
"""
    )
    out = tmp_path / "runs"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _processes_with(marker):
        time.sleep(0.05)
    assert _processes_with(marker), "the slow step never started"
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 3, stderr
    run_dir, record = only_run(out)
    assert record["status"] == "aborted" and reason in record["abort_reason"]
    assert record["finished_at"]
    statuses = {s["id"]: s["status"] for s in record["steps"]}
    assert statuses["first"] == "passed"
    assert "never" not in statuses or statuses["never"] == "skipped"
    assert statuses["slow"] == "error"
    assert [f for f in record["findings"] if f["severity"] == "error"] == []  # the kill is not a finding
    assert (run_dir / "report.md").exists() and "ABORTED" in (run_dir / "report.md").read_text()
    assert _survivors(marker) == []


def test_captured_value_is_never_executed(tmp_path, write_playbook):
    victim = tmp_path / "pwned"
    evil = f"$(touch {victim}); `touch {victim}`; touch {victim}"
    source = tmp_path / "remote_output.txt"
    source.write_text(f"model_path={evil}\n")
    playbook = write_playbook(
        f"""
name: inject
steps:
  - id: read
    run: cat {source}
    capture:
      - regex: 'model_path=(?P<model_path>.*)'
        type: str
  - id: use
    run: echo {{{{ facts.model_path }}}}
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    assert not victim.exists()
    assert record["steps"][1]["stdout"].strip() == evil


def test_raw_filter_opts_out_of_quoting(tmp_path, write_playbook):
    playbook = write_playbook(
        'name: raw\nvars:\n  flags: "-n hello"\nsteps:\n  - id: a\n    run: echo {{ flags | raw }}; echo {{ flags }}\n'
    )
    out = tmp_path / "runs"
    assert run_cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 0
    _, record = only_run(out)
    assert record["steps"][0]["stdout"] == "hello-n hello\n"


def test_secrets_are_redacted_in_record_and_reports(tmp_path, write_playbook):
    playbook = write_playbook(
        "name: sec\nvars:\n  hf_token: hf_abcdefghijklmnopqrstuvwxyz0123\nsteps:\n"
        "  - id: a\n    run: echo HF_TOKEN={{ hf_token }} python -m sglang.launch_server --api-key sk-live-1234567890abcdefghij\n"
    )
    out = tmp_path / "runs"
    assert run_cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 0
    run_dir, _ = only_run(out)
    for name in ("run.json", "report.md", "report.html"):
        text = (run_dir / name).read_text()
        assert "hf_abcdefghijklmnopqrstuvwxyz0123" not in text, name
        assert "sk-live-1234567890abcdefghij" not in text, name
        assert "REDACTED" in text


def test_shipped_playbook_by_name_from_any_directory(tmp_path, cli):
    result = cli("playbooks", "list", "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    names = [row["name"] for row in json.loads(result.stdout)]
    assert names, "no shipped playbooks"
    for name in names:
        assert cli("playbooks", "validate", name, cwd=tmp_path).code == 0
        assert cli("playbooks", "validate", f"{name}.yaml", cwd=tmp_path).code == 0


def test_report_rerenders_from_run_json(tmp_path, write_playbook, cli):
    playbook = write_playbook("name: rr\nsteps:\n  - id: a\n    run: echo '<script>alert(1)</script>'\n")
    out = tmp_path / "runs"
    assert cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 0
    run_dir, record = only_run(out)
    html = cli("report", str(run_dir), "--format", "html")
    assert html.code == 0
    assert "<script>alert(1)</script>" not in html.stdout and "&lt;script&gt;" in html.stdout
    assert "http://" not in html.stdout.split("<body>")[0] and "<link" not in html.stdout  # self-contained
    as_json = cli("report", str(run_dir), "--format", "json")
    assert json.loads(as_json.stdout)["run_id"] == record["run_id"]
    custom = tmp_path / "mine.j2"
    custom.write_text("{{ record.run_id }} has {{ record.steps | length }} step(s)")
    mine = cli("report", str(run_dir), "--template", str(custom))
    assert mine.stdout.strip() == f"{record['run_id']} has 1 step(s)"


def test_unknown_var_on_command_line_is_a_usage_error(tmp_path, write_playbook, cli):
    playbook = write_playbook("name: v\nvars:\n  python: python3\nsteps:\n  - id: a\n    run: echo\n")
    result = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--var", "pyhton=x")
    assert result.code == 2
    assert "pyhton" in result.stderr


def test_requires_skips_with_a_hint_and_an_info_finding(tmp_path, write_playbook, cli):
    playbook = write_playbook(
        'name: req\nvars:\n  server_log: ""\nsteps:\n  - id: parse_log\n    requires: [server_log]\n    run: cat {{ server_log }}\n'
    )
    out = tmp_path / "runs"
    assert cli("run", str(playbook), "--host", "local", "--out", str(out)).code == 0
    _, record = only_run(out)
    assert record["steps"][0]["status"] == "skipped"
    assert "--var server_log=" in record["steps"][0]["message"]
    [info] = record["findings"]
    assert info["code"] == "SD004" and info["severity"] == "info"
