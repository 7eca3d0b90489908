"""A secret in the first line of a step left running is masked in its check, message and finding.

The check the record keeps (left_running.check, and the message and SD002 evidence that quote
it) holds the command's first line as a grep pattern (ssh.left_running_check): a `.` there is
`[.]`, a `'` is quoted. The masking looked for the value as given, so a token with a dot
(`hf.Abc.Secret9`, a JWT) stood in run.json three times. The value's forms in the pattern are
masked too (transport.forms_in_check). The host is real: the step's shell waits in a BASH_ENV
file, so its pid line cannot come before the step times out."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from spec_debug.playbook import load_playbook
from spec_debug.runner.engine import HostTarget, Run, RunOptions
from spec_debug.runner.reporter import Reporter
from spec_debug.runner.ssh import SSHTransport
from spec_debug.store import RunStore
from tests.ssh.faults import rc_holding_shell
from tests.sshd_fixture import ClientSetup, SshServer

SECRET = "hf.Abc.Secret9"


def test_a_secret_with_a_dot_is_masked_in_the_left_running_check(
    client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    set_env, release, _ = rc_holding_shell(tmp_path, "sglang.launch_server")
    server = sshd_factory("leftsecret", set_env=set_env)
    client.trust(server)
    client.alias("gpu24", server, ConnectTimeout=3)  # 1 s bounded the login and each channel open too: tight under load
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(
        "name: serve\nvars:\n  hf_token: ''\nsteps:\n"
        "  - id: serve\n    run: python3 -m sglang.launch_server --tag {{ hf_token }}\n    timeout: 0.2\n"
    )
    store = RunStore.create(tmp_path / "runs", "serve")
    target = HostTarget(name="gpu24", connect=lambda: SSHTransport.connect("gpu24", client.options()), transport="ssh")
    try:
        Run(load_playbook(playbook), [target], store, {"hf_token": SECRET}, RunOptions(reporter=Reporter())).execute()
    finally:
        release.touch()
    saved = (store.run_dir / "run.json").read_text()
    assert '"left_running": {' in saved and "sglang[.]launch_server --tag " in saved, saved
    assert "Secret9" not in saved, [line for line in saved.splitlines() if "Secret9" in line]
