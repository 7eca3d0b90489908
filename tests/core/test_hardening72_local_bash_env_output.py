"""What a BASH_ENV file prints as bash reads it stays out of a local step's output.

bash reads $BASH_ENV before every non-interactive command (bash(1), INVOCATION). A file that
prints (`echo loaded-env`, a module system's banner, a warning on stderr) put its lines at the
start of every `--host local` step's stdout and stderr: `that: stdout.startswith('fn-ok')`
failed with SD001 on a line the step never wrote. The ssh runner drops what the login's rc
files print before the step; the local runner now does the same. The file is still read in the
step's shell (its functions, exported variables and EXIT trap are there), BASH_ENV is still
exported to the step as it was, so a bash script the step starts reads it and prints as before
(that is the step's own output), and $LINENO is unchanged. Through the real CLI."""

from __future__ import annotations

from tests.conftest import only_run, run_cli


def _env_file(tmp_path, marker):
    bash_env = tmp_path / "env.sh"
    bash_env.write_text("echo loaded-env\necho env-err >&2\nmyfn() { echo fn-ok; }\nexport FROM_ENV=yes\n"
                        f"trap 'echo x >> {marker}' EXIT\n")
    return bash_env


def test_bash_env_output_stays_out_of_local_steps_and_its_definitions_stay_in(tmp_path):
    marker = tmp_path / "trap-ran"
    bash_env = _env_file(tmp_path, marker)
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nsteps:\n"
        "  - id: drv\n    run: \"myfn; echo $FROM_ENV $LINENO\"\n"
        "    expect:\n      - that: stdout.startswith('fn-ok')\n"
        "  - id: child\n    run: \"echo \\\"$BASH_ENV\\\"; bash -c 'myfn'\"\n"
        "  - id: code\n    run: \"echo before >&2; exit 3\"\n    expect:\n      - that: exit_code == 3\n"
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), env={"BASH_ENV": str(bash_env)})
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert [(s["stdout"], s["stderr"]) for s in record["steps"]] == [
        ("fn-ok\nyes 1\n", ""),
        # a bash the step starts reads BASH_ENV itself: what it prints is the step's output
        (f"{bash_env}\nloaded-env\nfn-ok\n", "env-err\n"),
        ("", "before\n"),
    ], result.stderr
    assert steps["code"]["exit_code"] == 3
    # the file's EXIT trap still ran in each step's shell (and in the step's own child bash)
    assert marker.read_text() == "x\n" * 4


def test_a_bash_env_named_without_a_slash_is_read_from_the_working_folder(tmp_path):
    """bash reads BASH_ENV=env.sh as ./env.sh; `. env.sh` would look it up on PATH."""
    marker = tmp_path / "trap-ran"
    _env_file(tmp_path, marker)
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: drv\n    run: \"myfn\"\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), cwd=tmp_path,
                     env={"BASH_ENV": "env.sh"})
    _, record = only_run(out)
    (step,) = record["steps"]
    assert (step["stdout"], step["stderr"], step["status"]) == ("fn-ok\n", "", "passed"), result.stderr
