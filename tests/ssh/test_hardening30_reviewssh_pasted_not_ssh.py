"""Round 30 review of the ssh option words (d581b7b3).

A pasted line that is not ssh's (an engine's flags, `srun -p gpu ...`, `mkdir -p`) was read by
the transcript reader as ssh options, and its `-p` value refused as ssh's bad port: `--port
30000` said "Bad port 'ort'" (`--port` read as -p with `ort`), `--speculative-num-steps 3`
"Bad port 'eculative-num-steps'", `srun -p gpu` "Bad port 'gpu'", and `time -p ssh gpu1`
hinted `time:22` (the service `ssh`). ssh(1) reads none of them so: the first word is no
option of it, or it refuses `--port` as "unknown option -- -". They are said as the ssh
command line they were taken for, as before. And `-7` is no ssh option (it was taken)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.hosts import resolve_hosts
from spec_debug.runner.ssh_args import parse_ssh_args


@pytest.mark.parametrize("pasted", ["--port 30000", "--speculative-num-steps 3 --speculative-eagle-topk 1",
                                    "srun -p gpu -N1 nvidia-smi", "mkdir -p /tmp/x", "time -p ssh gpu1 ls",
                                    "ssh --port 0 gpu01"])
def test_a_pasted_line_ssh_does_not_read_as_a_port_is_no_bad_port(pasted: str) -> None:
    with pytest.raises(UsageError) as refused:
        resolve_hosts([pasted], [], None, None)
    assert refused.value.args[0].startswith(f"--host {pasted!r} is an ssh command line, not host names")
    assert "Bad port" not in refused.value.args[0] and ":22 " not in str(refused.value.hint)


@pytest.mark.parametrize(("pasted", "bad"), [("ssh -p 0 gpu01", "0"), ("-p 65536 gpu01", "65536"),
                                             ("ssh gpu01 -p abc", "abc")])
def test_a_bad_port_of_a_real_ssh_line_is_still_refused(pasted: str, bad: str) -> None:
    with pytest.raises(UsageError) as refused:
        resolve_hosts([pasted], [], None, None)
    assert refused.value.args[0] == f"--host {pasted!r}: Bad port {bad!r}"


def test_minus_7_is_refused_as_ssh_refuses_it() -> None:
    ssh = shutil.which("ssh")
    if ssh is not None:
        said = subprocess.run([ssh, "-G", "-7", "gpu01"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=30, check=False)
        assert said.returncode != 0 and "unknown option -- 7" in said.stderr
    with pytest.raises(UsageError, match="unknown option -- 7"):
        parse_ssh_args("-7")
