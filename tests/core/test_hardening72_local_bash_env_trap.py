"""A BASH_ENV file's EXIT trap does not print into a local step's output.

bash reads $BASH_ENV before every non-interactive command (bash(1), INVOCATION); a CI runner
or a module system's file with `trap 'echo bye' EXIT` made a `--host local` step
`echo 'NVRM version: 550.54.15'` record stdout "NVRM version: 550.54.15\\nbye\\n" (and the
trap's stderr in the step's stderr), so `that: stdout == '...'` failed with SD001 on a line
the step never wrote. The trap now still runs (it writes its file) with its output dropped, as
the ssh runner drops the login rc files' trap; a step's exit code is kept, a trap the step sets
itself prints as before, and $LINENO is unchanged. Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def test_bash_env_exit_trap_stays_out_of_local_steps(tmp_path):
    marker = tmp_path / "trap-ran"
    bash_env = tmp_path / "env.sh"
    bash_env.write_text(f"export FROM_ENV=yes\ntrap 'echo bye; echo bye-err >&2; echo x >> {marker}' EXIT\n")
    long_tail = "#" + "x" * (70 * 1024) + "\n"  # past the inline limit: run from a script file
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nsteps:\n"
        "  - id: ver\n    run: \"echo 'NVRM version: 550.54.15'; echo $FROM_ENV $LINENO\"\n"
        "  - id: own\n    run: \"trap 'echo mine' EXIT; echo body\"\n"
        "  - id: code\n    run: \"echo before; exit 3\"\n    expect:\n      - that: exit_code == 3\n"
        f"  - id: long\n    run: |\n      echo long\n      {long_tail}"
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out),
                     env={"BASH_ENV": str(bash_env)})
    _, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert [(s["stdout"], s["stderr"]) for s in (steps["ver"], steps["own"], steps["code"], steps["long"])] == [
        ("NVRM version: 550.54.15\nyes 1\n", ""),
        ("body\nmine\n", ""),
        ("before\n", ""),
        ("long\n", ""),
    ], result.stderr
    assert steps["code"]["exit_code"] == 3 and steps["code"]["status"] == "passed"
    assert steps["ver"]["status"] == "passed" and steps["long"]["status"] == "passed"
    # the trap itself still ran for every step but the one that replaced it
    assert marker.read_text() == "x\n" * 3
