"""`echo 'Pa55word!' | sudo -S journalctl -u sglang -n 50` is how an agent without a TTY reads a
root-only log; `sudo -S cmd <<< PASS` and `curl --oauth2-bearer TOKEN` are as common. The
password and the token were copied into the distilled playbook's `run:` and title (and masked
nowhere: analyze's timeline, run.json's command line). Each is now a secret: a var named for
what it is, empty by default, required by the step. Sessions written the way Claude Code writes
them (incident_story._Writer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.redact import MASK, redact_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.failed_then_pivot import failed_then_pivot


def _distilled(tmp_path: Path, failing: str) -> tuple[dict, str]:
    path = failed_then_pivot(tmp_path, failing, "9a1b0000-0000-4000-8000-00000000a146")
    doc = distill_playbook(analyze_path(path))
    text = dump_playbook(doc)
    load_playbook_text(text, "distilled.yaml")
    return doc, text


@pytest.mark.parametrize("failing, run", [
    ("echo 'Pa55word!' | sudo -S journalctl -u sglang -n 50",
     "echo '{{ sudo_password }}' | sudo -S journalctl -u sglang -n 50"),
    ("sudo -S journalctl -u sglang -n 50 <<< 'Pa55word!'",
     "sudo -S journalctl -u sglang -n 50 <<< '{{ sudo_password }}'"),
    ("ssh root@gpu01 'echo Pa55word! | sudo -S cat /var/log/sglang.log'",
     "echo {{ sudo_password }} | sudo -S cat {{ sglang_log }}"),
])
def test_a_sudo_password_is_a_var_the_user_passes(tmp_path, failing, run):
    doc, text = _distilled(tmp_path, failing)
    assert "Pa55word" not in text
    assert doc["steps"][0]["run"] == run
    assert doc["steps"][0]["requires"] == ["sudo_password"]
    assert doc["vars"]["sudo_password"] == ""


def test_a_curl_oauth2_bearer_token_is_a_var(tmp_path):
    doc, text = _distilled(tmp_path, "curl -s http://gpu01:30000/metrics --oauth2-bearer abcd1234efgh5678ijkl")
    assert "abcd1234efgh5678ijkl" not in text
    assert doc["steps"][0]["run"] == ("curl -s http://{{ host_gpu01 }}:30000/metrics "
                                      "--oauth2-bearer {{ oauth2_bearer_secret }}")


@pytest.mark.parametrize("typed, shown", [
    ("printf '%s\\n' hunter2 | sudo -kS ls /root", f"printf '%s\\n' {MASK} | sudo -kS ls /root"),
    ("echo -n hunter2 | sudo --stdin ls /root", f"echo -n {MASK} | sudo --stdin ls /root"),
    ('echo "$PW" | sudo -S ls /root', 'echo "$PW" | sudo -S ls /root'),  # a reference holds no secret
    ('sudo -S ls /root <<< "$PW"', 'sudo -S ls /root <<< "$PW"'),
    ("echo 3 | sudo tee /proc/sys/vm/drop_caches", "echo 3 | sudo tee /proc/sys/vm/drop_caches"),  # no -S
    # an -S after the command is the command's own flag: what is piped in is its input
    ("echo x | sudo ls -lS", "echo x | sudo ls -lS"),
    ("echo x | sudo grep -S foo", "echo x | sudo grep -S foo"),
    ("sudo ls -lS <<< x", "sudo ls -lS <<< x"),
    # sudo's own options, with their arguments, before its -S
    ("echo pw1 | sudo -u root -S ls", f"echo {MASK} | sudo -u root -S ls"),
    ("echo pw2 | sudo -p '' -S ls", f"echo {MASK} | sudo -p '' -S ls"),
    ("echo pw3 | sudo --user root -S ls", f"echo {MASK} | sudo --user root -S ls"),
    ("echo pw4 | sudo -Su root ls", f"echo {MASK} | sudo -Su root ls"),
    ("sudo -E -S cmd <<< pw5", f"sudo -E -S cmd <<< {MASK}"),
])
def test_what_a_sudo_reads_from_stdin_is_masked_in_any_text(typed, shown):
    assert redact_text(typed) == shown
