"""A step that starts a server in the background, the way people start SGLang and vLLM.

`nohup python -m sglang.launch_server ... &` without a redirection leaves the server writing to
the step's stdout and stderr (nohup redirects only a terminal). The step's shell exits at once;
ssh(1) would wait for the server to close the stream (the channel's EOF), and we used to stop
reading after a second and close the pipes: the server's next log line then killed it (SIGPIPE;
BrokenPipeError in Python), silently, and the playbook's next step found no server. Now the
pipes are read until the host's steps end, and the step's record names the process and says how
to keep it running after the run.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.conftest import only_run, run_cli

# A "server" that logs a line every 0.1 s, as a loading model server does; bash dies of SIGPIPE
# on the first echo after its stdout is closed.
SERVER = 'while :; do echo "loading weights"; echo tick >&2; sleep 0.1; done'

PLAYBOOK = """\
name: launch_and_use
description: start a server in the background, then use it
vars:
  state: ""
steps:
  - id: launch
    title: Start the server without redirecting its output
    run: nohup bash -c 'echo $$ > {{{{ state | raw }}}}/server.pid; {server}' &
  - id: launch_detached
    title: Start a second one in its own session
    run: setsid bash -c 'echo $$ > {{{{ state | raw }}}}/detached.pid; {server}' &
  - id: launch_logged
    title: Start one whose output goes to a file
    run: nohup bash -c 'echo $$ > {{{{ state | raw }}}}/logged.pid; {server}' > {{{{ state | raw }}}}/server.log 2>&1 &
  - id: still_up
    title: The servers are still up while the playbook goes on
    run: sleep 2; kill -0 $(cat {{{{ state | raw }}}}/server.pid) && kill -0 $(cat {{{{ state | raw }}}}/detached.pid) && echo up
    expect:
      - exit_code: 0
""".format(server=SERVER)


def _pid(path: Path) -> int:
    return int(path.read_text().strip())


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def _wait_gone(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return not _alive(pid)


def test_a_server_started_in_the_background_survives_the_step_and_is_named(tmp_path, write_playbook):
    state = tmp_path / "state"
    state.mkdir()
    playbook = write_playbook(PLAYBOOK)
    out = tmp_path / "runs"
    pids: list[int] = []
    try:
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"state={state}")
        pids = [_pid(state / name) for name in ("server.pid", "detached.pid", "logged.pid")]
        assert "Traceback" not in result.stderr
        _, record = only_run(out)
        steps = {s["id"]: s for s in record["steps"]}
        # The servers were alive two seconds after they were started: their output was still read.
        assert steps["still_up"]["status"] == "passed", steps["still_up"]
        assert result.code == 0, result.stderr
        for step_id, pid in (("launch", pids[0]), ("launch_detached", pids[1])):
            message = steps[step_id]["message"] or ""
            assert steps[step_id]["status"] == "passed"
            assert f"pid {pid} (bash -c echo" in message, message
            assert "stdout and stderr" in message and "> /tmp/server.log 2>&1" in message, message
            assert "loading weights" in steps[step_id]["stdout"]
        # Output sent to a file: nothing holds the step's streams, nothing to say.
        assert steps["launch_logged"]["message"] is None
        assert f"pid {pids[0]}" in result.stdout + result.stderr  # the terminal says it too
        # As the message says: once the host's steps are over, nobody reads, and the next write
        # ends a server that did not redirect its output; the one that did is unaffected.
        assert _wait_gone(pids[0], 30) and _wait_gone(pids[1], 30)
        assert _alive(pids[2])
    finally:
        for pid in pids:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass


def test_the_note_survives_into_the_reports(tmp_path, write_playbook):
    state = tmp_path / "state"
    state.mkdir()
    playbook = write_playbook(
        "name: one_launch\ndescription: d\nvars:\n  state: ''\nsteps:\n"
        "  - id: launch\n"
        f"    run: bash -c 'echo $$ > {{{{ state | raw }}}}/server.pid; exec 2>/dev/null; {SERVER.replace(' >&2', '')}' &\n"
    )
    out = tmp_path / "runs"
    try:
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"state={state}")
        assert result.code == 0, result.stderr
        run_dir, record = only_run(out)
        message = record["steps"][0]["message"]
        assert "this step's stdout;" in message, message  # stderr went to /dev/null: only stdout is held
        report = run_cli("report", str(run_dir))
        assert "left running in the background" in report.stdout
        assert json.loads((run_dir / "run.json").read_text())["status"] == record["status"]
    finally:
        pid_file = state / "server.pid"
        if pid_file.exists():
            try:
                os.kill(_pid(pid_file), 9)
            except ProcessLookupError:
                pass
