"""sudo refusing to run a command typed at a prompt, in a terminal log with no exit status: three
wrong passwords, ``sudo -n`` where a password is needed, a user the sudoers file does not allow, an
unknown ``-u`` user (the words of sudo-project/sudo plugins/sudoers/logging.c, ``log_auth_failure``
and ``log_denial``). Nothing ran, yet the call was no failure and the log showed no error, so
``sudo systemctl restart sglang`` read as a restart that happened."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PANE = (
    "me@gpu01:~$ sudo systemctl restart sglang\n"
    "[sudo] password for me: \nSorry, try again.\n[sudo] password for me: \nSorry, try again.\n"
    "[sudo] password for me: \nsudo: 3 incorrect password attempts\n"
    "me@gpu01:~$ sudo -n nvidia-smi -r\nsudo: a password is required\n"
    "me@gpu01:~$ sudo nvidia-smi -pm 1\n[sudo] password for me: \n"
    "me is not in the sudoers file.  This incident will be reported.\n"
    "me@gpu01:~$ sudo -u svc ls /srv/models\nsudo: unknown user svc\n"
    "sudo: error initializing audit plugin sudoers_audit\n"
    "me@gpu01:~$ sudo nvidia-smi -L\n[sudo] password for me: \nGPU 0: NVIDIA H100 80GB HBM3\n"
    "me@gpu01:~$ hostname\ngpu01\n")


def test_a_command_sudo_refused_is_a_failed_call_with_sudo_s_words(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_text(PANE)
    doc = analyze_path(path).to_json()
    assert {c["command"]: c["is_error"] for c in doc["commands"]} == {
        "sudo systemctl restart sglang": True, "sudo -n nvidia-smi -r": True, "sudo nvidia-smi -pm 1": True,
        "sudo -u svc ls /srv/models": True, "sudo nvidia-smi -L": False, "hostname": False}
    assert [e["message"] for e in doc["errors"]] == [
        "sudo: 3 incorrect password attempts", "sudo: a password is required",
        "me is not in the sudoers file.  This incident will be reported.", "sudo: unknown user svc"]
