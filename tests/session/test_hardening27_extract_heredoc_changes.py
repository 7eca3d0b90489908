"""A script a shell reads from a heredoc runs its commands on the host: `ssh gpu01 sudo bash
<<'EOF'` + `systemctl restart nvidia-persistenced` restarts a service there. The heredoc body was
left out of the command's words (shell_words strips it, rightly, for every other reader), so
the restart was a read-only command, and distill kept it as a playbook step."""

import pytest

from spec_debug.session.host_changes import changes_host
from spec_debug.session.shell import parse_target
from spec_debug.session.shell_words import shell_scripts


@pytest.mark.parametrize("command, why", [
    ("ssh gpu01 sudo bash <<'EOF'\nsystemctl restart nvidia-persistenced\nEOF", "systemctl restart"),
    ("ssh gpu01 'sudo bash -s' <<'EOF'\nnvidia-smi -r -i 0\nEOF", "nvidia-smi -r"),
    ("ssh gpu01 env CUDA_VISIBLE_DEVICES=0 bash <<'EOF'\npkill -f sglang.launch_server\nEOF", "pkill"),
    ("cat <<'EOF' | sudo sh\nrm -rf /opt/eagle3/cache\nEOF", "rm"),
    # <<- with the body indented by tabs, and a heredoc inside the script
    ("sudo bash <<-EOF\n\tcat > /etc/sglang.env <<X\n\tA=1\n\tX\n\tEOF", "writes /etc/sglang.env"),
])
def test_a_shell_s_heredoc_script_changes_the_host(command, why):
    assert changes_host(parse_target(command).inner) == why  # was None


@pytest.mark.parametrize("command", [
    "ssh gpu01 sudo bash <<'EOF'\nnvidia-smi\nsystemctl status sglang\nEOF",
    "python3 - <<'EOF'\nimport os\nos.system('true')\nEOF",  # not a shell: its body is Python
    "cat <<'EOF' > /tmp/notes.txt\nrm -rf /opt/x\nEOF",  # a file's text, not run
    "cat <<'EOF' | grep -c rm\nrm -rf /opt/x\nEOF",
    "bash -c 'nvidia-smi' <<'EOF'\nrm -rf /opt/x\nEOF",  # -c runs its argument; stdin is unread
])
def test_a_body_no_shell_runs_changes_nothing(command):
    assert changes_host(parse_target(command).inner) is None


def test_the_scripts_of_two_heredocs_on_a_line():
    assert shell_scripts("bash <<A; cat <<B\nkill 1\nA\nrm x\nB\n") == ["kill 1\n"]


@pytest.mark.parametrize("command, why", [
    ("ssh gpu01 sudo bash <<'EOF'\nvim /etc/sglang.env\nEOF", "an editor (vim)"),
    ("ssh gpu01 sudo bash <<'EOF'\nnvtop\nEOF", "a full-screen monitor (nvtop)"),
    ("ssh gpu01 sudo bash <<'EOF'\nnvidia-smi\nEOF", None),
])
def test_a_shell_s_heredoc_script_that_needs_a_terminal(command, why):
    from spec_debug.session.unattended import interactive

    target = parse_target(command)
    assert interactive(target.inner, host=target.host) == why  # was None: distill kept the step


def test_many_heredoc_operators_on_one_line_are_judged_in_linear_time():
    import time

    line = "echo " + " ".join(["a << b"] * 1000) + "\nls\n"
    started = time.thread_time()
    assert changes_host(line) is None
    assert time.thread_time() - started < 1.0  # the reader of each operator was found anew: 1.6 s
