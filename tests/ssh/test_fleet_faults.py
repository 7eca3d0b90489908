"""What real fleets do to an SSH run, against real sshd servers: accounts that cannot run
commands, hosts without python3, read-only homes, no SFTP, MaxSessions 1, connections that drop
mid-run. Each fault ends as one line in run.json and on the CLI, the other hosts finish, and
the exit code says what happened (3: a host could not be used)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.ssh.faults import stop_when_running
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]

PROBE_PLAYBOOK = """
name: first_look
description: a probe (needs the bundle and python3), a shell step and a fetch
vars:
  python: python3
steps:
  - id: host_info
    title: Python and GPUs
    why: the probe bundle is uploaded and run with the host's python
    probe: host_info
    with:
      python: "{{ python }}"
  - id: shell
    title: A plain shell step
    why: needs no python and no upload
    run: echo "cwd=$(pwd)"; echo hello > note.txt
  - id: fetch_note
    title: Fetch a file
    why: fetch uses SFTP too
    fetch:
      src: note.txt
      dest: notes
  - id: after
    title: Still running commands
    why: the host keeps working after the fetch
    run: echo after
"""

# Tools a minimal host has on PATH; python3 is added only when the test wants it.
_TOOLS = ("bash", "sh", "env", "cat", "echo", "pwd", "sleep", "test", "df", "dd", "head", "tail", "id", "ps", "grep", "mkdir", "ls",
          "mktemp")


def sftp_server_path() -> str:
    return next(p for p in ("/usr/lib/openssh/sftp-server", "/usr/libexec/openssh/sftp-server", "/usr/libexec/sftp-server") if os.path.exists(p))


class FreshHost:
    """A host as a new machine looks: an empty home (no probe bundle yet) and a PATH of our
    choosing, built with a real sshd and a ForceCommand that moves into them.

    The ForceCommand shim is how sshd itself would start a restricted session: it replaces
    every exec and subsystem request (openssh-portable: session.c, do_exec), exporting the
    original command as SSH_ORIGINAL_COMMAND.
    """

    def __init__(self, root: Path, *, python: bool = True, sftp: str = "rw", banner: str = "") -> None:
        self.home = root / "home"
        self.bin = root / "bin"
        self.home.mkdir(parents=True)
        self.bin.mkdir()
        for tool in _TOOLS + (("python3",) if python else ()):
            found = shutil.which(tool, path="/usr/bin:/bin:/usr/local/bin")
            if found:
                (self.bin / tool).symlink_to(found)
        sftp_server = sftp_server_path()
        sftp_line = {
            "rw": f"exec {sftp_server}",
            "ro": f"exec {sftp_server} -R",  # sftp-server(8): -R read-only mode
            "none": "echo 'This service allows sftp connections only.' >&2; exit 1",
            # 30 kB into the first upload: the sftp-server dies (its input ends) ...
            "dies": f"dd bs=4096 count=30000 iflag=count_bytes status=none | {sftp_server}; exit",
            # ... or the whole connection drops (its sshd process is killed).
            "drops": f"{{ dd bs=4096 count=30000 iflag=count_bytes status=none; kill -9 $PPID; }} | {sftp_server}; exit",
            # ... or the connection drops 30 kB into a download.
            "drops-download": f"{sftp_server} | {{ dd bs=4096 count=30000 iflag=count_bytes status=none; kill -9 $PPID; }}; exit",
            # ... or it stops answering mid-upload (its disk hangs): input stays open, nothing moves.
            "stalls": f"{{ dd bs=4096 count=30000 iflag=count_bytes status=none; sleep 60; }} | {sftp_server}; exit",
            # A subsystem that never answers (a ForceCommand reading its input): no SFTP version.
            "silent": "cat > /dev/null; exit",
        }[sftp]
        self.shim = root / "session.sh"
        self.shim.write_text(
            "#!/bin/bash\n"
            f"cd {self.home} || exit 1\n"
            f"export HOME={self.home} PATH={self.bin}\n"
            'case "$SSH_ORIGINAL_COMMAND" in\n'
            f"  internal-sftp*|*sftp-server*) {sftp_line} ;;\n"
            "esac\n"
            f"{banner}"
            'eval "$SSH_ORIGINAL_COMMAND"\n'
        )
        self.shim.chmod(0o755)

    @property
    def sshd_config(self) -> str:
        return f"ForceCommand {self.shim}\n"


def load_run(out: Path) -> tuple[Path, dict[str, Any]]:
    dirs = sorted(p for p in out.iterdir() if p.is_dir())
    assert len(dirs) == 1, dirs
    return dirs[0], json.loads((dirs[0] / "run.json").read_text())


def by_id(record: dict[str, Any], host: str) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in record["steps"] if s["host"] == host}


def codes(record: dict[str, Any], host: str) -> set[str]:
    return {f["code"] for f in record["findings"] if f["host"] == host}


def assert_clean_cli(result: Any) -> None:
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr


def fresh_server(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, name: str, *, extra: str = "", alias: dict[str, Any] | None = None, **kwargs: Any
) -> FreshHost:
    host = FreshHost(tmp_path / f"fresh-{name}", **kwargs)
    server = sshd_factory(name, extra_config=host.sshd_config + extra)
    client.trust(server)
    client.alias(name, server, **(alias or {}))
    return host


def test_accounts_that_cannot_run_commands_are_host_errors_and_the_fleet_finishes(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # nobody's real login shell is /usr/sbin/nologin; a ForceCommand of /bin/false is the
    # other common "no shell for you" setup (e.g. a tunnel-only account).
    nobody = [line for line in Path("/etc/passwd").read_text().splitlines() if line.startswith("nobody:")]
    if not nobody or not nobody[0].rstrip().endswith("nologin"):
        pytest.skip("this machine has no `nobody` account with a nologin shell")
    # sshd reads authorized_keys as the user: nobody needs a copy it may read (pytest's tmp is 0700).
    keys_dir = Path(tempfile.mkdtemp(prefix="spec-debug-nobody-"))
    try:
        keys_dir.chmod(0o755)
        (keys_dir / "authorized_keys").write_text(client.key.public + "\n")
        (keys_dir / "authorized_keys").chmod(0o644)
        nologin = sshd_factory("nologin", extra_config=f"Match User nobody\n  AuthorizedKeysFile {keys_dir / 'authorized_keys'}\n")
        forced = sshd_factory("forced", extra_config="ForceCommand /bin/false\n")
        # An sftp-only account with the external server: it reads stdin, and must not hang the run.
        sftponly = sshd_factory("sftponly", extra_config=f"ForceCommand {sftp_server_path()}\n")
        for name, server in (("nologin", nologin), ("forced", forced), ("sftponly", sftponly)):
            client.trust(server)
            client.alias(name, server)
        result, record = _run_three(cli, client, tmp_path)
    finally:
        shutil.rmtree(keys_dir, ignore_errors=True)
    assert result.code == 3, result.stderr
    assert_clean_cli(result)
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["target"]["status"] == "passed"
    assert by_id(record, "target")["after"]["status"] == "passed"
    expected = {"nobody@nologin": "This account is currently not available.", "forced": "no output", "sftponly": "exit code 0, no output"}
    for name, said in expected.items():
        assert hosts[name]["status"] == "error", hosts[name]
        error = hosts[name]["error"]
        assert "login shell did not run the command" in error and said in error and "\n" not in error, error
        assert "SD005" in codes(record, name)
        assert hosts[name]["finished_at"] is not None
    assert "login shell did not run the command" in result.stderr
    assert record["status"] == "error"


def _run_three(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    hosts = ["target", "nobody@nologin", "forced", "sftponly"]
    result = cli("run", str(playbook), *[arg for host in hosts for arg in ("--host", host)], "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    return result, load_run(out)[1]


def test_a_host_without_python3_fails_the_probe_step_by_name_and_runs_shell_steps(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "nopython", python=False)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "nopython", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    assert result.code == 0, result.stderr  # SD003 is a warning: not an unreachable host (3)
    _, record = load_run(out)
    steps = by_id(record, "nopython")
    assert steps["host_info"]["status"] == "error" and "python3" in steps["host_info"]["message"], steps["host_info"]
    assert any(f["code"] == "SD003" and f["step"] == "host_info" and "python3" in " ".join(f["evidence"]) for f in record["findings"])
    assert [steps[s]["status"] for s in ("shell", "fetch_note", "after")] == ["passed"] * 3
    assert steps["shell"]["stdout"].strip() == f"cwd={fresh.home}"
    assert list((fresh.home / ".cache" / "spec-debug").glob("bundle-*.pyz")), "the bundle was uploaded to the fresh home"


@pytest.mark.parametrize(
    ("sftp", "cause"),
    [
        # (A read-only SFTP server on a writable home is no failure: the upload goes over the
        # shell, test_hardening64_readonly_sftp.py.)
        ("none", "no working SFTP"),
        ("silent", "no working SFTP (no answer within 5 s)"),
    ],
    ids=["sftp-disabled", "sftp-never-answers"],
)
def test_a_bundle_upload_the_host_refuses_fails_only_the_probe_step(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, sftp: str, cause: str
) -> None:
    # ConnectTimeout is also the SFTP server's time to answer (the silent one's wait) and the
    # login's: at 1 s a loaded machine's key exchange could run past it.
    fresh_server(client, sshd_factory, tmp_path, f"sftp-{sftp}", sftp=sftp, alias={"ConnectTimeout": 5})
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", f"sftp-{sftp}", "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    _, record = load_run(out)
    host = record["hosts"][0]
    assert host["status"] == "passed" and host["finished_at"] is not None, host
    assert any(f["code"] == "SD003" and f["step"] == "host_info" for f in record["findings"])
    steps = by_id(record, host["name"])
    assert steps["host_info"]["status"] == "error" and cause in steps["host_info"]["message"], steps["host_info"]
    assert "\n" not in steps["host_info"]["message"]
    assert steps["shell"]["status"] == "passed" and steps["after"]["status"] == "passed"
    assert steps["fetch_note"]["status"] == "error"
    assert "\n" not in (steps["fetch_note"]["message"] or "")


def test_a_home_without_room_for_the_bundle_gets_it_in_a_private_tmp_folder(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # ~/.cache is a file here (as on a home that is full, read-only or odd): the upload to
    # ~/.cache/spec-debug fails, so the bundle goes to a fresh `mktemp -d` folder under /tmp.
    fresh = fresh_server(client, sshd_factory, tmp_path, "nocache")
    (fresh.home / ".cache").write_text("not a folder\n")
    before = set(Path("/tmp").glob("spec-debug.*"))
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    try:
        result = cli("run", str(playbook), "--host", "nocache", "-F", str(client.config), "--batch", "--out", str(out))
        assert_clean_cli(result)
        assert result.code == 0, result.stdout + result.stderr
        _, record = load_run(out)
        steps = by_id(record, "nocache")
        assert steps["host_info"]["status"] == "passed", steps["host_info"]
        assert not [f for f in record["findings"] if f["code"] == "SD003"]
        # The folder the step ran the bundle from: made now, or (probes.bundle reuses a whole
        # copy an earlier run left) one another test or run made, never a fixed path.
        folder = Path(steps["host_info"]["command"].split()[1]).parent
        assert folder.parent == Path("/tmp") and folder.name.startswith("spec-debug."), steps["host_info"]["command"]
        assert list(folder.glob("bundle-*.pyz")) and (folder.stat().st_mode & 0o777) == 0o700
        assert len(set(Path("/tmp").glob("spec-debug.*")) - before) <= 1
    finally:
        for folder in set(Path("/tmp").glob("spec-debug.*")) - before:
            shutil.rmtree(folder, ignore_errors=True)


def test_max_sessions_1_still_runs_probes_fetches_and_later_steps(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # The kept SFTP channel (bundle upload, fetch) would hold the server's only session slot,
    # and a timed-out step holds it until it is killed, which needs a channel of its own.
    fresh_server(client, sshd_factory, tmp_path, "onesession", extra="MaxSessions 1\n")
    playbook = tmp_path / "first_look.yaml"
    marker = f"4242.{os.getpid()}"  # a sleep only this run starts
    playbook.write_text(
        PROBE_PLAYBOOK
        + f"  - id: hang\n    title: hang\n    why: times out\n    run: sleep {marker}; echo never\n    timeout: 1\n"
        + f"  - id: after_hang\n    title: after the hang\n    why: the slot is free again\n    run: ps -eo args= | grep -c '^sleep {marker}$' || true\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "onesession", "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 0, result.stdout + result.stderr  # the timeout is a warning (SD002)
    _, record = load_run(out)
    steps = by_id(record, "onesession")
    assert [steps[s]["status"] for s in ("host_info", "shell", "fetch_note", "after")] == ["passed"] * 4
    assert steps["hang"]["status"] == "timeout"
    assert steps["after_hang"]["status"] == "passed" and steps["after_hang"]["stdout"].strip() == "0"  # killed for real
    # No step waits out channel-open retries (_CHANNEL_RETRY_S, 10 s): the hang takes 2 s here
    # (its 1 s timeout and the kill), the others under 0.5 s. Per step, not the whole run (3.6 s
    # here, against the 12 s bound it had): the CLI's start, the login and the probe's upload
    # are what a loaded machine stretches.
    slow = {step_id: step["duration_s"] for step_id, step in steps.items() if step["duration_s"] >= 8}
    assert not slow, slow


def test_a_server_that_allows_no_sessions_fails_at_once_with_the_cause(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    closed = sshd_factory("nosessions", extra_config="MaxSessions 0\n")
    client.trust(closed)
    client.alias("nosessions", closed)
    playbook = tmp_path / "tiny.yaml"
    playbook.write_text("name: tiny\ndescription: t\nsteps:\n  - id: a\n    title: a\n    why: a\n    run: 'true'\n")
    result = cli("run", str(playbook), "--host", "nosessions", "-F", str(client.config), "--batch", "--out", str(tmp_path / "runs"))
    assert result.code == 3
    _, record = load_run(tmp_path / "runs")
    [host] = record["hosts"]
    assert "refuses every session channel" in host["error"]
    # No channel-open retries waited out (_CHANNEL_RETRY_S, 10 s): the run's own time, its login
    # and the refusal (0.2 s here). Was the whole CLI call's, under 8 s: 4 s of that quiet was
    # the CLI's start, which a loaded machine stretches past it.
    took = (datetime.fromisoformat(host["finished_at"]) - datetime.fromisoformat(record["started_at"])).total_seconds()
    assert took < 8, took


def test_a_connection_dropped_mid_run_keeps_the_finished_steps_and_retry_failed_reruns_that_host(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    doomed = sshd_factory("dropping")
    client.trust(doomed)
    client.alias("dropping", doomed)
    playbook = tmp_path / "three.yaml"
    playbook.write_text(
        "name: three\ndescription: three steps\nvars:\n  wait: '0'\nsteps:\n"
        "  - id: first\n    title: first\n    why: finishes before the drop\n    run: echo first\n"
        "  - id: long\n    title: long\n    why: the connection drops under it\n    run: sleep {{ wait if host == 'dropping' else 0 }}; echo long\n"
        "  - id: last\n    title: last\n    why: never reached on the dropped host\n    run: echo last\n"
    )
    # A sleep only this test runs, to spot on the host; it ends in 1 so that however --var
    # types it (str or float), it renders the same.
    wait = f"7.{os.getpid() % 100:02d}1"

    dropper = stop_when_running(doomed, ["sleep", wait])
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "--host", "dropping", "-F", str(client.config), "--batch", "--out", str(out), "--var", f"wait={wait}")
    dropper.join()
    assert result.code == 3, result.stderr
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    assert record["status"] == "error" and record["finished_at"] is not None
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["target"]["status"] == "passed"
    dropped = hosts["dropping"]
    assert dropped["status"] == "error" and "connection lost" in dropped["error"] and "\n" not in dropped["error"]
    steps = by_id(record, "dropping")
    assert steps["first"]["status"] == "passed" and steps["first"]["stdout"] == "first\n"  # finished work is kept
    assert steps["long"]["status"] == "error" and "last" not in steps
    assert "SD005" in codes(record, "dropping")

    # The host comes back (on a new port): --retry-failed re-runs only it, with the same vars.
    doomed.start()
    client.trust(doomed)
    client.alias("dropping", doomed)
    again = tmp_path / "again"
    retry = cli("run", str(playbook), "-F", str(client.config), "--batch", "--out", str(again), "--retry-failed", str(run_dir), "--var", "wait=0")
    assert retry.code == 0, retry.stdout + retry.stderr
    _, second = load_run(again)
    assert [h["name"] for h in second["hosts"]] == ["dropping"]
    assert [s["status"] for s in second["steps"]] == ["passed"] * 3


def _peak_rss_kb_of_cli(args: list[str]) -> tuple[int, int]:
    """Run the real CLI in a child Python and return (exit code, its peak RSS in KiB)."""
    import subprocess
    import sys

    runner = (
        "import resource, runpy, sys\n"
        "sys.argv = ['spec-debug', *sys.argv[1:]]\n"
        "code = 0\n"
        "try:\n"
        "    runpy.run_module('spec_debug', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code if isinstance(exc.code, int) else 1\n"
        "sys.stderr.write(f'\\nPEAK_RSS_KB={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n')\n"
        "sys.exit(code)\n"
    )
    proc = subprocess.run([sys.executable, "-c", runner, *args], capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, int(proc.stderr.rsplit("PEAK_RSS_KB=", 1)[1].split()[0])


def test_tens_of_mb_of_stdout_stay_bounded_and_a_step_that_ignores_sigterm_is_killed(client: ClientSetup, tmp_path: Path) -> None:
    megabytes = 32
    playbook = tmp_path / "noisy.yaml"
    playbook.write_text(
        "name: noisy\ndescription: a flood of output, then a process that ignores SIGTERM\nvars:\n  mb: '0'\nsteps:\n"
        "  - id: flood\n    title: flood\n    why: a log cat of a whole training run\n"
        "    run: head -c {{ mb }}000000 /dev/zero | tr '\\\\0' x; echo; echo END-OF-FLOOD\n"
        "  - id: stubborn\n    title: stubborn\n    why: a server that traps TERM\n"
        "    run: trap '' TERM; sleep 4321.{{ mb }}; echo never\n    timeout: 1\n"
        "  - id: after\n    title: after\n    why: the host still works\n    run: echo after\n"
    )
    common = ["run", str(playbook), "--host", "target", "-F", str(client.config), "--batch"]
    code, baseline_kb = _peak_rss_kb_of_cli([*common, "--out", str(tmp_path / "small"), "--var", "mb=0"])
    assert code == 0
    started = time.monotonic()
    code, flood_kb = _peak_rss_kb_of_cli([*common, "--out", str(tmp_path / "big"), "--var", f"mb={megabytes}"])
    elapsed = time.monotonic() - started
    assert code == 0  # a timeout is a warning (SD002)
    run_dir, record = load_run(tmp_path / "big")
    steps = by_id(record, "target")
    flood = steps["flood"]
    assert flood["status"] == "passed" and flood["truncated"] and flood["stdout"].rstrip().endswith("END-OF-FLOOD")
    assert len(flood["stdout"]) < 1024 * 1024  # the record keeps head and tail only
    assert (run_dir / flood["artifacts"][0]).stat().st_size == megabytes * 1_000_000 + len("\nEND-OF-FLOOD\n")
    # Memory stays flat: measured +8 MiB over the tiny run for 40 MB of output; a capture that
    # kept everything would grow by the whole output.
    assert flood_kb - baseline_kb < megabytes * 1024 // 2, (baseline_kb, flood_kb)
    assert steps["stubborn"]["status"] == "timeout" and steps["after"]["status"] == "passed"
    assert elapsed < 60  # 6-8 s here; a stubborn step not killed hangs to the 120 s limit
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport

    with SSHTransport.connect("target", client.options()) as transport:
        listing = StreamCapture("stdout")
        transport.run("ps -eo stat=,args=", stdout=listing, stderr=StreamCapture("stderr"))
    assert not [line for line in listing.text().splitlines() if f"sleep 4321.{megabytes}" in line and not line.lstrip().startswith("Z")]


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH client not installed")
def test_a_real_world_ssh_config_with_match_defaults_tokens_and_command_line_overrides(
    client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, closed_port: Callable[[], int]
) -> None:
    """`Host *` defaults after specific blocks, `Match host`, IdentityFile with ~ and %h, and a
    user and port from the command line that must win over the config *and* be what %r/%p in
    ProxyCommand expand to (ssh(1) reads them before the config; first value wins)."""
    import getpass

    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport
    from tests.sshd_fixture import ClientKey, write_ssh_config

    me = getpass.getuser()
    jump = sshd_factory("cfgjump")
    client.trust(jump)
    keys = client.home / ".ssh" / "keys"
    keys.mkdir()
    for suffix in ("", ".pub"):  # the key as ~/.ssh/keys/%h.key, %h being the HostName
        shutil.copy(str(client.key.path) + suffix, str(keys / "127.0.0.1.key") + suffix)
    ClientKey.create(client.home / ".ssh", "id_ed25519")  # a default identity the server does not know
    write_ssh_config(client.config, {
        # Shell syntax, as ssh(1) runs ProxyCommand through the shell: a redirection, $VARS.
        "shellproxy": {"HostName": "127.0.0.1", "Port": sshd.port, "ProxyCommand": "ssh -F $SPEC_DEBUG_TEST_CONFIG -W %h:%p %r@cfgjump 2>/dev/null"},
        # ConnectTimeout far from the bound below on gpu-b's failing connect (the default 15 s was
        # 5 s from it, with an OpenSSH login to the jump and our own start on the good path).
        "gpu-*": {"HostName": "127.0.0.1", "ProxyCommand": f"ssh -F {client.config} -W %h:%p %r@cfgjump", "ConnectTimeout": 60},
        # The jump is run by OpenSSH, which expands ~ from the passwd entry, not $HOME: absolute paths.
        "cfgjump": {"HostName": "127.0.0.1", "Port": jump.port, "BatchMode": "yes", "IdentityFile": str(client.key.path), "UserKnownHostsFile": str(client.known_hosts)},
        "*": {"IdentityFile": "~/.ssh/keys/%h.key", "UserKnownHostsFile": "~/.ssh/known_hosts", "Port": closed_port(), "User": "nobody-here"},
    })
    with open(client.config, "a") as handle:  # Match blocks go last; IdentitiesOnly drops the decoy
        handle.write("Match host 127.0.0.1\n  IdentitiesOnly yes\n")
    with SSHTransport.connect(f"{me}@gpu-a:{sshd.port}", client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        target = transport.connection.target
        assert (target.user, target.port, target.identities_only) == (me, sshd.port, True)
        assert target.identity_files == (str(keys / "127.0.0.1.key"),)
        assert target.proxy_command == f"ssh -F {client.config} -W 127.0.0.1:{sshd.port} {me}@cfgjump"
        out = StreamCapture("stdout")
        transport.run("echo $USER ${SSH_CONNECTION##* }", stdout=out, stderr=StreamCapture("stderr"))
        assert out.text().split() == [me, str(sshd.port)]
        assert jump.connection_pids(), "the session went through the ProxyCommand jump"
    os.environ["SPEC_DEBUG_TEST_CONFIG"] = str(client.config)
    try:
        with SSHTransport.connect(f"{me}@shellproxy", client.options()) as transport:
            assert isinstance(transport, SSHTransport) and transport.connection.target.port == sshd.port
    finally:
        del os.environ["SPEC_DEBUG_TEST_CONFIG"]
    # Without the command-line port, %p is the config's closed default: the jump's `ssh -W` exits
    # at once, and that is the one-line cause (not a 15 s wait for a "stalled" banner).
    from spec_debug.runner.ssh_errors import HostUnreachableError

    started = time.monotonic()
    with pytest.raises(HostUnreachableError, match=r"ProxyCommand .* exited with code 255: .*") as info:
        SSHTransport.connect(f"{me}@gpu-b", client.options())
    assert time.monotonic() - started < 30  # under 1 s here; the banner wait is 60 s (ConnectTimeout)
    assert "\n" not in info.value.message


@pytest.mark.parametrize(
    ("server_config", "message"),
    [
        ("PubkeyAuthentication no\n  PasswordAuthentication yes", "server does not accept public keys (allowed: password)"),
        ("PubkeyAuthentication no\n  KbdInteractiveAuthentication yes", "server does not accept public keys (allowed: keyboard-interactive)"),
    ],
    ids=["password-only", "keyboard-interactive-only"],
)
def test_servers_that_want_passwords_fail_clearly_under_batch(client: ClientSetup, sshd_factory: StartServer, server_config: str, message: str) -> None:
    from spec_debug.errors import AuthenticationError
    from spec_debug.runner.ssh import SSHTransport

    server = sshd_factory("passwords", extra_config=f"Match all\n  {server_config}\n")
    client.trust(server)
    client.alias("pwonly", server)
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("pwonly", client.options())
    assert info.value.message == f"pwonly: {message}"


def test_a_server_that_hangs_after_login_times_out_opening_the_session(client: ClientSetup, sshd_factory: StartServer) -> None:
    import signal

    from spec_debug.errors import TransportError
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport

    server = sshd_factory("hangs")
    client.trust(server)
    client.alias("hangs", server, ConnectTimeout=3)  # the login's too: at 1 s a loaded key exchange ran past it
    with SSHTransport.connect("hangs", client.options()) as transport:
        stopped = []
        for pid in server.connection_pids():  # the per-connection sshd freezes: logged in, but answers nothing
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            except ProcessLookupError:
                pass  # a short-lived helper that already exited
        try:
            started = time.monotonic()
            with pytest.raises(TransportError) as info:
                transport.run("true", stdout=StreamCapture("o"), stderr=StreamCapture("e"))
            assert time.monotonic() - started < 30  # about 3 s (ConnectTimeout); the frozen sshd never answers
        finally:
            for pid in stopped:
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
    assert info.value.message == "hangs: the server accepted the login but did not open a session within 3 s"


def test_an_ansible_inventory_folder_with_group_vars_host_vars_and_bastion_args(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path
) -> None:
    """A team's existing Ansible layout, unchanged: the connection user and key live in
    group_vars/all.yml (next to a vault-encrypted secret), the address in group_vars/gpus/,
    one host's vars in host_vars/, and the bastion in ansible_ssh_common_args (-J, or
    -o ProxyCommand=...). The interpreter Ansible uses is the one probes run with."""
    import getpass
    import sys

    import yaml

    from spec_debug.runner.hosts import open_transport, resolve_hosts
    from spec_debug.runner.ssh import SSHTransport

    bastion = sshd_factory("bastion")
    client.trust(bastion)
    client.alias("bastion", bastion, BatchMode="yes")
    client.hosts["*"] = {"UserKnownHostsFile": str(client.known_hosts)}
    client.alias("target", sshd)
    used = tmp_path / "proxycommand-used"
    inv = tmp_path / "inventory"
    (inv / "group_vars" / "gpus").mkdir(parents=True)
    (inv / "host_vars").mkdir()
    (inv / "hosts.yml").write_text(yaml.safe_dump({"all": {"children": {"gpus": {"hosts": {
        "gpu01": None,
        "gpu02": {"ansible_ssh_common_args": "-J bastion"},
        "gpu03": {"ansible_ssh_common_args": f"-o ProxyCommand=\"sh -c 'echo used > {used}; exec ssh -F {client.config} -W %h:%p bastion'\""},
    }}}}}))
    (inv / "README.md").write_text("# not an inventory\n")
    (inv / "group_vars" / "all.yml").write_text(
        f"ansible_user: {getpass.getuser()}\n"
        f"ansible_ssh_private_key_file: {client.key.path}\n"
        "ansible_become_pass: !vault |\n"
        "  $ANSIBLE_VAULT;1.1;AES256\n"
        "  62313365396662343061393464336163383764373764613633653634306231386433626436623361\n"
        "region: eu\n"
    )
    (inv / "group_vars" / "gpus" / "main.yml").write_text(
        f"ansible_host: 127.0.0.1\nansible_port: {sshd.port}\nansible_python_interpreter: {sys.executable}\n"
    )
    (inv / "host_vars" / "gpu01.yml").write_text("region: us\n")
    playbook = tmp_path / "fleet.yaml"
    playbook.write_text(
        "name: fleet\ndescription: t\nvars:\n  python: python3\n  region: unset\nsteps:\n"
        "  - id: info\n    title: info\n    why: probe with the inventory's interpreter\n    probe: host_info\n"
        "  - id: where\n    title: where\n    why: vars from group_vars and host_vars\n    run: echo region={{ region }}\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "-i", str(inv), "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 0, result.stdout + result.stderr
    _, record = load_run(out)
    assert [(h["name"], h["status"]) for h in record["hosts"]] == [("gpu01", "passed"), ("gpu02", "passed"), ("gpu03", "passed")]
    regions = {s["host"]: s["stdout"].strip() for s in record["steps"] if s["id"] == "where"}
    assert regions == {"gpu01": "region=us", "gpu02": "region=eu", "gpu03": "region=eu"}
    assert all(s["command"].startswith(sys.executable + " ") for s in record["steps"] if s["id"] == "info")
    assert "ansible_become_pass" not in json.dumps(record)
    assert used.read_text().strip() == "used"  # gpu03 went through its ProxyCommand
    [spec] = resolve_hosts(["gpu02"], [], inv, None)
    with open_transport(spec, client.options()) as transport:
        assert isinstance(transport, SSHTransport)
        assert [hop.target.alias for hop in transport.connection.via] == ["bastion"]  # gpu02 through -J


class _BusyBastion(SshServer):
    """A bastion whose sshd turns away all but 2 unauthenticated connections (MaxStartups 2),
    as a default bastion (MaxStartups 10:30:100) does to a fleet run with more forks."""

    def _sshd_config(self) -> str:
        config = super()._sshd_config()
        assert "MaxStartups 100\n" in config
        return config.replace("MaxStartups 100\n", "MaxStartups 2\n")


def test_many_hosts_through_one_busy_bastion_all_connect(cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path) -> None:
    """gpu01-05 sit behind the bastion (one shared bastion login carries them all); gpu06-08
    are names of the busy machine itself, so their simultaneous logins meet MaxStartups and
    are retried."""
    from spec_debug.runner.ssh import SSHTransport

    bastion = _BusyBastion(tmp_path / "busy-bastion", [client.key]).start()
    try:
        client.trust(bastion)
        client.alias("bastion", bastion)
        names = [f"gpu{index:02d}" for index in range(1, 9)]
        for name in names[:5]:
            client.alias(name, sshd, ProxyJump="bastion")
        for name in names[5:]:
            client.alias(name, bastion)
        with SSHTransport.connect("gpu01", client.options()) as first, SSHTransport.connect("gpu02", client.options()) as second:
            assert isinstance(first, SSHTransport) and isinstance(second, SSHTransport)
            assert first.connection.via[0].transport is second.connection.via[0].transport  # one bastion login
        playbook = tmp_path / "tiny.yaml"
        playbook.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: echo ok\n")
        out = tmp_path / "runs"
        result = cli("run", str(playbook), "--hosts", "gpu[01-08]", "--forks", "8", "-F", str(client.config), "--batch", "--out", str(out))
    finally:
        bastion.stop()
    _, record = load_run(out)
    assert result.code == 0, [h["error"] for h in record["hosts"] if h["error"]]
    assert [h["status"] for h in record["hosts"]] == ["passed"] * 8


def test_a_host_that_always_hangs_up_before_the_banner_says_so_at_once(client: ClientSetup, sshd: SshServer) -> None:
    import socket

    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import HandshakeError

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def hang_up() -> None:  # what TCP wrappers (hosts.deny) or a full MaxStartups do
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                listener.accept()[0].close()
            except OSError:
                continue

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    try:
        client.alias("hangsup", sshd, Port=listener.getsockname()[1], ConnectTimeout=60)
        started = time.monotonic()
        with pytest.raises(HandshakeError) as info:
            SSHTransport.connect("hangsup", client.options())
        elapsed = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
        listener.close()
    assert "closed the connection before the SSH banner" in info.value.message and "MaxStartups" in (info.value.hint or "")
    # A few quick retries (their backoff alone is 1.5-3 s: ssh_handshake, _EARLY_CLOSE_BACKOFF_S),
    # not the 60 s ConnectTimeout. The bound was 5 s against a 10 s ConnectTimeout.
    assert elapsed < 20


def test_what_the_login_shell_prints_before_the_step_stays_out_of_its_output(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    # A ~/.bashrc that greets non-interactive shells too (or conda init chatter): ssh runs it
    # before every command.
    fresh_server(client, sshd_factory, tmp_path, "chatty", banner="echo 'Welcome to the GPU cluster!'; echo '42 jobs queued'\n")
    playbook = tmp_path / "count.yaml"
    playbook.write_text(
        "name: count\ndescription: t\nsteps:\n"
        "  - id: cores\n    title: cores\n    why: a capture anchored at the start of the output\n    run: echo 16\n"
        "    capture:\n      - regex: '\\A(?P<cores>\\d+)\\n\\Z'\n        type: int\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "chatty", "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 0, result.stdout + result.stderr
    _, record = load_run(out)
    assert record["steps"][0]["stdout"] == "16\n" and record["facts"]["chatty"]["cores"] == 16


@pytest.mark.parametrize("sftp", ["dies", "drops"])
def test_an_upload_cut_short_fails_the_step_or_the_host_and_the_record_stays_whole(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, sshd_factory: StartServer, tmp_path: Path, sftp: str
) -> None:
    name = f"cut-{sftp}"
    fresh_server(client, sshd_factory, tmp_path, name, sftp=sftp)
    playbook = tmp_path / "first_look.yaml"
    playbook.write_text(PROBE_PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "target", "--host", name, "-F", str(client.config), "--batch", "--out", str(out))
    assert_clean_cli(result)
    _, record = load_run(out)
    hosts = {h["name"]: h for h in record["hosts"]}
    assert hosts["target"]["status"] == "passed"
    steps = by_id(record, name)
    if sftp == "dies":  # the connection is fine: only the step that needed the upload fails
        assert result.code == 0, result.stderr
        assert steps["host_info"]["status"] == "error" and "SFTP session ended while copying" in steps["host_info"]["message"]
        assert steps["after"]["status"] == "passed"
    else:  # the host is gone: one line, SD005, exit 3
        assert result.code == 3, result.stderr
        assert hosts[name]["status"] == "error" and "connection lost while copying" in hosts[name]["error"], hosts[name]
        assert "SD005" in codes(record, name) and "after" not in steps
    assert record["finished_at"] is not None and all(h["finished_at"] for h in record["hosts"])


def test_an_encrypted_key_with_no_terminal_to_ask_fails_at_once_instead_of_hanging(client: ClientSetup, tmp_path: Path) -> None:
    """A CI job or cron run forgot --batch: there is no terminal, and stdin is an open pipe that
    getpass would wait on forever."""
    import subprocess
    import sys

    from tests.sshd_fixture import ClientKey

    locked = ClientKey.create(tmp_path / "locked", passphrase="correct horse")
    server = SshServer(tmp_path / "sshd-locked", [locked]).start()
    try:
        client.trust(server)
        client.alias("locked", server, IdentityFile=str(locked.path))
        playbook = tmp_path / "tiny.yaml"
        playbook.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
        out = tmp_path / "runs"
        process = subprocess.Popen(
            [sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "locked", "-F", str(client.config), "--out", str(out)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,  # no controlling terminal
            env={**os.environ, "COLUMNS": "200"},
        )
        try:
            _, stderr = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    finally:
        server.stop()
    assert process.returncode == 3, stderr
    _, record = load_run(out)
    assert "is encrypted and there is no terminal to ask for its passphrase" in record["hosts"][0]["error"]


def test_an_upload_whose_server_stops_answering_fails_after_the_stall_limit(
    client: ClientSetup, sshd_factory: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spec_debug.runner import ssh_sftp
    from spec_debug.runner.output import StreamCapture
    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import RemoteFileError

    monkeypatch.setattr(ssh_sftp, "_STALL_S", 1.0)  # 120 s in real runs
    fresh_server(client, sshd_factory, tmp_path, "stalls", sftp="stalls")
    source = tmp_path / "payload.bin"
    source.write_bytes(os.urandom(200_000))
    with SSHTransport.connect("stalls", client.options()) as transport:
        started = time.monotonic()
        with pytest.raises(RemoteFileError, match="did not answer for 1 s while copying payload.bin"):
            transport.put(source, "payload.bin")
        assert time.monotonic() - started < 20  # about 1 s (_STALL_S); the server is silent for 60 s
        echoed = StreamCapture("stdout")  # the connection itself is fine: commands still run
        assert transport.run("echo still here", stdout=echoed, stderr=StreamCapture("stderr")).exit_code == 0
        assert echoed.text() == "still here\n"


def test_a_bastion_that_forbids_forwarding_says_so(client: ClientSetup, sshd: SshServer, sshd_factory: StartServer) -> None:
    from spec_debug.runner.ssh import SSHTransport
    from spec_debug.runner.ssh_errors import HostUnreachableError

    bastion = sshd_factory("noforward", extra_config="Match all\n  AllowTcpForwarding no\n")
    client.trust(bastion)
    client.alias("noforward", bastion)
    client.alias("behind", sshd, ProxyJump="noforward")
    with pytest.raises(HostUnreachableError) as info:
        SSHTransport.connect("behind", client.options())
    assert "jump host noforward could not open a connection" in info.value.message and "AllowTcpForwarding" in (info.value.hint or "")


def test_a_download_cut_short_leaves_no_partial_artifact(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh_server(client, sshd_factory, tmp_path, "dropdl", sftp="drops-download")
    playbook = tmp_path / "fetch.yaml"
    playbook.write_text(
        "name: fetch\ndescription: t\nsteps:\n"
        "  - id: make\n    title: make\n    why: a log to fetch\n    run: head -c 300000 /dev/zero > big.log\n"
        "  - id: fetch\n    title: fetch\n    why: the connection drops under it\n    fetch:\n      src: big.log\n      dest: logs\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "dropdl", "-F", str(client.config), "--batch", "--out", str(out))
    assert result.code == 3, result.stderr
    run_dir, record = load_run(out)
    assert "connection lost while copying big.log" in record["hosts"][0]["error"]
    assert not [p for p in run_dir.rglob("big.log*")], "a truncated download was left in the artifacts"
