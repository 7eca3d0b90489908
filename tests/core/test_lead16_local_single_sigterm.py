"""A local step killed at its timeout gets one SIGTERM per process, not two.

kill_tree signalled the step's process group, then every process of its tree by pid: each
process in the group got SIGTERM twice, and a Python program that dumps its stacks on SIGTERM
(faulthandler installs that handler with SA_NODEFER, CPython Modules/faulthandler.c) entered it
again mid-dump (with chain=True the second one killed it and the record kept half a dump). As
tests/ssh/test_hardening20_reviewssh_single_sigterm.py shows for the SSH transport: each process
here spins, writes one dump per SIGTERM it gets and lives on until the SIGKILL. (Spinning, on a
CPU, it takes the second SIGTERM inside the handler; a sleeping one merges the two pending ones
and the fault goes unseen: checked.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import only_run

RANKS = 6


def test_each_process_of_a_timed_out_local_step_gets_one_sigterm(tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    # Each rank sleeps until spin_at (7-8 s into the step), then spins: six spinners for the whole
    # 10 s would take both cores of a CI machine from the other xdist worker; only the spinning
    # at the SIGTERM matters.
    rank = (f"python3 -c 'import faulthandler, signal, sys, time; "
            f"faulthandler.register(signal.SIGTERM, file=open(sys.argv[1], \"w\"), chain=False); "
            f"print(\"rank up\", flush=True); "
            f"[time.sleep(0.05) for _ in iter(lambda: time.time() >= int(sys.argv[2]), True)]; "
            f"sum(iter(int, 1))' {dumps}/rank$r $spin_at &")
    playbook = tmp_path / "hang.yaml"
    # Each rank must have registered its handler by the timeout, or it dies of the SIGTERM
    # without a dump: six interpreters starting beside the spinning ones took 2.5 s to open
    # their dump files at load 10 (3 s without spinners). 10 s, not 3.
    playbook.write_text("name: hang\nsteps:\n  - id: allreduce\n    timeout: 10\n    run: |\n"
                        "      spin_at=$(( $(date +%s) + 8 ))\n"
                        f"      for r in $(seq {RANKS}); do {rank} done\n      wait\n")
    out = tmp_path / "runs"
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(out)
    (step,) = record["steps"]
    assert step["status"] == "timeout", step["message"]
    got = {path.name: path.read_text().count("most recent call first") for path in sorted(dumps.iterdir())}
    assert len(got) == RANKS and set(got.values()) == {1}, got
