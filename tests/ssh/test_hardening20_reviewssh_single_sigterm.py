"""A step killed at its timeout gets one SIGTERM per process, not two.

The kill signalled the step's process group and then every process of its tree by pid: each
process in the group got SIGTERM twice. A Python program that dumps its stacks on SIGTERM and
then dies (`faulthandler.register(signal.SIGTERM, chain=True)`, the usual way to learn where an
NCCL collective hung) installs that handler with SA_NODEFER (CPython: Modules/faulthandler.c,
faulthandler_register), so the second SIGTERM entered the handler while it still wrote the first
dump, chained to the default action and killed the process: the record kept "Current thread 0x"
and nothing of where it hung (tests/ssh/test_hardening19_runtime_dying_words.py failed about 1
run in 10 on this machine). Each process here spins (so that a signal reaches it at once, as one on a CPU), writes a dump
per SIGTERM it gets and lives on until the SIGKILL.

The host is real: sshd from tests/sshd_fixture.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.sshd_fixture import ClientSetup

RANKS = 6


def test_each_process_of_a_timed_out_step_gets_one_sigterm(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    rank = (f"python3 -c 'import faulthandler, signal, sys, time; "
            f"faulthandler.register(signal.SIGTERM, file=open(sys.argv[1], \"w\"), chain=False); "
            f"print(\"rank up\", flush=True); sum(iter(int, 1))' {dumps}/rank$r &")
    playbook = tmp_path / "hang.yaml"
    # Three steps: a second signal lands on one of 6 spinning processes about 1 step in 3. Each
    # times out at 6 s (was 3 s): six interpreters spinning beside one another took 2.5-3 s to
    # register their handler at load 10-12 (as test_lead16_local_single_sigterm measured), and
    # one not yet registered dies of the SIGTERM with no dump.
    playbook.write_text("name: hang\nsteps:\n" + "".join(
        f"  - id: allreduce{n}\n    timeout: 6\n    run: |\n      for r in $(seq {RANKS}); do {rank.replace('rank$r', f'step{n}rank$r')} done\n      wait\n"
        for n in range(3)))
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out), timeout=120)
    assert_clean_cli(result)
    _, record = load_run(out)
    assert [step["status"] for step in record["steps"]] == ["timeout"] * 3, [step["message"] for step in record["steps"]]
    got = {path.name: path.read_text().count("most recent call first") for path in sorted(dumps.iterdir())}
    assert len(got) == 3 * RANKS and set(got.values()) == {1}, got
