"""A kill sent over ssh to a host no word names, after the agent's own server failed.

``ssh $GPU "pkill -f sglang.launch_server"`` with ``$GPU`` never set in the log (or ``ssh $h`` in a
for loop) runs on a host nobody can name: its command record has no host (shell.Target.unnamed).

Before: the analysis's note of the servers the agent started took the prompt's host for it, so
the kill "stopped" the server launched at that prompt: cleanup, and the turn after the failed
health check was no change of approach. Now the unnamed host is no host, as in the command
record (and in distill's own reading of stopped servers): the kill is the next step, a pivot.
A kill typed at the prompt itself is still the cleanup of that server."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\
root@gpu01:~# python3 -m sglang.launch_server --model-path /models/llama --port 30000 > server.log 2>&1 &
[1] 4242
root@gpu01:~# curl -s localhost:30000/health
curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused
root@gpu01:~# {kill}
root@gpu01:~# tail -n 3 server.log
ok
root@gpu01:~# 
"""


def _pivots(tmp_path: Path, kill: str):
    path = tmp_path / "term.log"
    path.write_text(_LOG.format(kill=kill), encoding="utf-8")
    a = analyze_path(path)
    return [(c.command, c.host) for c in a.commands][2], [p.summary for p in a.pivots]


def test_kill_on_an_unnamed_host_is_no_cleanup_of_the_prompts_server(tmp_path: Path) -> None:
    command, pivots = _pivots(tmp_path, 'ssh $GPU "pkill -f sglang.launch_server"')
    assert command == ('ssh $GPU "pkill -f sglang.launch_server"', None)
    assert pivots == ["After connection: curl: (7) Failed to connect to localhost port 30000 after 0 ms: "
                      "Connection refused [msg 1], moved from probing the server to stopping processes: "
                      "pkill -f sglang.launch_server"]


def test_kill_typed_at_the_prompt_is_still_cleanup(tmp_path: Path) -> None:
    command, pivots = _pivots(tmp_path, "pkill -f sglang.launch_server")
    assert command == ("pkill -f sglang.launch_server", "gpu01")
    assert pivots == []
