"""Steps as benchmark and server scripts are really written, run on this machine.

A script that keeps its own log (`exec > bench.log 2>&1`, `python -m sglang.launch_server ...
> server.log 2>&1`) closes the runner's pipes at once. The runner then waited for the process
with no deadline: `timeout: 2` was ignored, the step ran for as long as it liked and was
recorded as passed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.conftest import run_cli
from tests.core.test_hardening8_playbook_shapes import validate


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:  # reaped between the two looks
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def test_a_step_that_logs_to_its_own_file_still_times_out(tmp_path, write_playbook):
    log, pid_file = tmp_path / "bench.log", tmp_path / "bench.pid"
    playbook = write_playbook(f"""\
name: bench_to_log
steps:
  - id: bench
    timeout: 2
    run: |
      exec > {log} 2>&1
      echo $$ > {pid_file}
      echo "warming up"
      sleep 60
  - id: after
    run: echo next
""")
    started = time.monotonic()
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", timeout=120)
    elapsed = time.monotonic() - started

    assert "Traceback" not in result.stderr
    record = json.loads(result.stdout)
    bench, after = record["steps"]
    assert bench["status"] == "timeout" and bench["message"] == "timed out after 2 s; process tree killed"
    # At most: far above the 2 s timeout and its 0.5 s kill grace (a loaded machine stretches
    # them by seconds: < 6 was under 3 times the good path), far below the 60 s sleep.
    assert bench["exit_code"] is None and 1.9 < bench["duration_s"] < 30
    assert [f["code"] for f in record["findings"]] == ["SD002"]
    assert after["status"] == "passed" and after["stdout"] == "next\n"
    assert elapsed < 45, f"the run waited for the 60 s sleep ({elapsed:.0f} s)"
    assert not _alive(int(pid_file.read_text())), "the timed-out script is still running"
    assert log.read_text() == "warming up\n"


def test_a_later_step_can_branch_on_what_an_earlier_step_did(tmp_path, write_playbook):
    # `steps` was a reserved template name that nothing filled: `when: steps.X.status == ...`
    # passed validate and then errored on every host.
    playbook = write_playbook("""\
name: gpu_or_cpu
steps:
  - id: gpu
    run: nvidia-smi-not-installed -L
    expect:
      - exit_code: [0, 127]
  - id: cpu_fallback
    when: steps.gpu.exit_code == 127
    run: echo "no GPU tools; previous said {{ steps.gpu.stderr | trim | truncate(60) }}"
  - id: gpu_details
    when: steps.gpu.exit_code == 0
    run: echo never
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    steps = {s["id"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["gpu"]["exit_code"] == 127
    assert steps["cpu_fallback"]["status"] == "passed"
    assert steps["cpu_fallback"]["stdout"].startswith("no GPU tools; previous said ")
    assert "nvidia-smi-not-installed" in steps["cpu_fallback"]["stdout"]
    assert steps["gpu_details"]["status"] == "skipped"
    # The console lists the skipped step and why, as it lists the ones that ran.
    assert "skipped gpu_details when 'steps.gpu.exit_code == 0' is false" in " ".join(result.stderr.split())


def test_results_used_where_they_do_not_exist_yet_are_load_errors(tmp_path, write_playbook):
    cases = {
        "  - id: gpu\n    run: nvidia-smi\n  - id: next\n    when: steps.gpus.status == 'failed'\n    run: echo\n":
            ("6:11: step 'next' uses steps.gpus, but no earlier step has that id", "did you mean steps.gpu?"),
        "  - id: gpu\n    run: nvidia-smi\n  - id: next\n    run: echo {{ stdout }}\n":
            ("6:10: stdout is not defined in run: of step 'next'", "steps.STEP_ID.stdout"),
    }
    for index, (steps, (where, hint)) in enumerate(cases.items()):
        playbook = write_playbook(f"name: p\nsteps:\n{steps}", f"p{index}.yaml")
        code, message = validate(playbook)
        assert code == 2, message
        assert f"p{index}.yaml:{where}" in message and hint in message, message


def test_a_json_capture_reads_a_pretty_printed_result_between_log_lines(tmp_path, write_playbook):
    # A benchmark script as people write them: a log line, the result with indent=2, a
    # closing line. Only a one-line JSON document was found before ("output is not JSON").
    playbook = write_playbook("""\
name: bench_json
steps:
  - id: bench
    run: |
      echo "Loading draft model from /models/eagle3 ..."
      python3 -c 'import json; print(json.dumps({"accept_length": 2.7, "throughput": {"tok_s": 54.8}, "per_position": [{"k": 0, "acc": 0.74}]}, indent=2))'
      echo "done in 3.2 s"
    capture:
      - json: throughput.tok_s
        name: measured_tok_s
      - json: per_position[0].acc
        name: first_acc
    expect:
      - that: facts.measured_tok_s >= 60
        finding: {code: SD900, severity: warning, title: "slow: {{ facts.measured_tok_s }} tok/s"}
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    assert record["steps"][0]["status"] == "failed", record["steps"][0]["message"]
    assert record["facts"]["local"] == {"measured_tok_s": 54.8, "first_acc": 0.74}
    assert [(f["code"], f["title"]) for f in record["findings"]] == [("SD900", "slow: 54.8 tok/s")]


def test_a_pretty_printed_document_cut_by_the_capture_limit_never_passes_for_an_inner_object():
    from spec_debug.runner.capture import CaptureError, parse_json_output
    from spec_debug.runner.output import StreamCapture

    stream = StreamCapture("stdout", limit_bytes=4096)
    document = {"per_position": [{"k": k, "acc": 0.5} for k in range(500)], "throughput": {"tok_s": 54.8}}
    stream.write(("Loading ...\n" + json.dumps(document, indent=2) + "\n").encode())
    stream.close()
    try:
        parsed = parse_json_output(stream.text())
    except CaptureError as exc:
        assert "longer than the capture limit" in str(exc)
    else:
        raise AssertionError(f"a fragment of the cut document was read as the output: {parsed!r}")


def test_show_output_never_passes_a_hosts_escape_sequences_to_the_terminal(tmp_path, write_playbook):
    # OSC 52 asks the terminal to write the clipboard; rich dropped its BEL and kept the ESC, so
    # the sequence stayed open and the terminal swallowed what followed. `ls --hyperlink=always`
    # prints OSC 8 links; tqdm redraws with \r.
    playbook = write_playbook(r"""
name: escapes
steps:
  - id: s
    run: |
      printf 'clip\033]52;c;cm0gLXJmIH4=\007board\n'
      printf '\033]8;;file:///models/llama\033\\llama\033]8;;\033\\ \033[1;31mERROR\033[0m\n'
      printf '\r  0%%|          | 0/4\r 50%%|#####     | 2/4\r100%%|##########| 4/4\n'
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--show-output")
    assert result.code == 0, result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    shown = [line.split("| ", 1)[1] for line in result.stderr.splitlines() if line.startswith("s| ")]
    assert shown == ["clipboard", "llama ERROR", "100%|##########| 4/4"], result.stderr


def test_a_killed_step_says_what_killed_it(tmp_path, write_playbook):
    # A checkpoint load that outgrows host memory ends with the OOM killer's SIGKILL; inside a
    # multi-line script bash reports it as exit 137 with no signal of its own.
    playbook = write_playbook("""\
name: killed
steps:
  - id: load_checkpoint
    run: kill -9 $$
  - id: load_in_script
    run: |
      python3 -c 'import os; os.kill(os.getpid(), 9)'
      exit $?
  - id: crash
    run: kill -SEGV $$
    expect:
      - exit_code: 0
  - id: plain_failure
    run: exit 200
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    messages = {s["id"]: s["message"] for s in json.loads(result.stdout)["steps"]}
    assert messages == {
        "load_checkpoint": "exit code 137 (signal 9, SIGKILL: the out-of-memory killer, or kill -9)",
        "load_in_script": "exit code 137 (128 + 9: killed by SIGKILL: the out-of-memory killer, or kill -9)",
        "crash": "expected exit code 0, observed exit code 139 (signal 11, SIGSEGV: a crash)",
        "plain_failure": "exit code 200",
    }


def test_a_wait_whose_until_never_holds_fails_instead_of_passing(tmp_path, write_playbook):
    # Waiting for a server that never finishes loading: the health endpoint answers (exit 0)
    # but never says ready. Every retry ran, and the step was recorded as passed.
    status = tmp_path / "health.json"
    status.write_text('{"status": "loading", "weights_loaded": "37/61"}\n')
    playbook = write_playbook(f"""\
name: wait_for_server
steps:
  - id: wait_ready
    run: cat {status}
    retries: 2
    retry_delay: 0.05
    until: '"ready" in stdout'
  - id: wait_ready_explained
    run: cat {status}
    retries: 1
    retry_delay: 0.05
    until: '"ready" in stdout'
    findings:
      - code: SD901
        severity: error
        title: "server never became ready ({{{{ stdout | trim }}}})"
  - id: ready_at_once
    run: echo status=ready
    retries: 5
    until: '"ready" in stdout'
""")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    record = json.loads(result.stdout)
    steps = {s["id"]: s for s in record["steps"]}
    assert (steps["wait_ready"]["status"], steps["wait_ready"]["attempts"]) == ("failed", 3)
    assert steps["wait_ready"]["message"] == "until '\"ready\" in stdout' was still false after 3 attempt(s)"
    assert (steps["ready_at_once"]["status"], steps["ready_at_once"]["attempts"]) == ("passed", 1)
    findings = [(f["code"], f["step"], f["title"]) for f in record["findings"]]
    assert findings == [
        ("SD001", "wait_ready", "Step 'wait_ready': until '\"ready\" in stdout' was still false after 3 attempt(s)"),
        ("SD901", "wait_ready_explained", 'server never became ready ({"status": "loading", "weights_loaded": "37/61"})'),
    ]


def test_expectations_and_captures_read_http_headers_with_their_crlf_line_ends(tmp_path, write_playbook):
    # `curl -si` prints the status line and headers as the server sent them, ending in CRLF
    # (RFC 9112): `$` in `^HTTP/1.0 200 OK$` never matched and a captured header kept a \r.
    import http.server
    import threading

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b'{"status": "ok"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("X-Served-Model", "meta-llama/Llama-3.1-8B-Instruct")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        playbook = write_playbook(f"""\
name: health_headers
steps:
  - id: health
    run: curl -si http://127.0.0.1:{server.server_port}/health
    capture:
      - regex: '^X-Served-Model: (?P<served_model>.+)$'
        type: str
    expect:
      - matches: '^HTTP/1\\.0 200 OK$'
      - that: facts.served_model == "meta-llama/Llama-3.1-8B-Instruct"
    retries: 1
    until: stdout.endswith('"ok"}}')
""")
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    finally:
        server.shutdown()
    record = json.loads(result.stdout)
    step = record["steps"][0]
    assert step["status"] == "passed", step["message"]
    assert step["attempts"] == 1
    assert record["facts"]["local"] == {"served_model": "meta-llama/Llama-3.1-8B-Instruct"}
    assert "\r\n" in step["stdout"]  # the record keeps the bytes as printed
