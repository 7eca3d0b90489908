"""A one-step playbook run over SSH, as the hint tests of round 49 make it (the CLI's result and
the run's record), and the `ssh` a hint names, run as a person would."""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import socket
import subprocess
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def run_tiny(cli: Callable[..., Any], tmp_path: Path, name: str, *hosts: str) -> tuple[Any, dict[str, Any]]:
    """`spec-debug run tiny.yaml HOSTS... --batch --out tmp_path/NAME`; `hosts` as the CLI takes
    them (`--host gpu01`, `-i hosts.ini`)."""
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    out = tmp_path / name
    done = cli("run", str(tmp_path / "tiny.yaml"), *hosts, "--batch", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, json.loads((run_dir / "run.json").read_text())


def run_hinted_ssh_answering_yes(stderr: str, config: Path, pattern: str = r"or run `(ssh [^`]+)` once") -> list[str]:
    """Run the `ssh` a hint names (group 1 of `pattern` in stderr) as a person would, answering
    yes to the unknown key (StrictHostKeyChecking=accept-new stands in for the answer; given
    first, it wins over the hint's own `ask`); returns the hinted command. -F CONFIG: ssh(1)
    reads the passwd entry's ~/.ssh/config, not $HOME's, and passes -F on to the ssh it starts
    for -J."""
    hint = re.search(pattern, stderr)
    assert hint is not None, stderr
    command = shlex.split(hint.group(1))
    asked = subprocess.run(
        [command[0], "-F", str(config), "-o", "StrictHostKeyChecking=accept-new", "-o", "BatchMode=yes",
         *command[1:], "true"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert asked.returncode == 0, (command, asked.stderr)
    return command


@contextlib.contextmanager
def listening(serve: Callable[[socket.socket], None]) -> Iterator[int]:
    """A loopback port whose every connection `serve` handles (then closed), in a thread."""
    listener = socket.create_server(("127.0.0.1", 0))

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                serve(conn)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()
