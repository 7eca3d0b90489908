"""A heredoc fed to ssh with something after its word on the first line: the local side's
redirect or filter (``ssh gpu01 bash <<'EOF' 2>&1 | tail -n 20``, ``> /tmp/out.txt``), or the
script piped to ssh (``cat <<'EOF' | ssh gpu01 'bash -s'``), as agents write them. Only a
heredoc whose line ended at its word was read (shell.ssh_heredoc): these were split into words,
"bash < < EOF 2 >", and a check of the GPUs was filed as "other" (no pivot, no category)."""

import pytest

from spec_debug.session.shell import categorize, parse_target, ssh_heredoc

_SCRIPT = "nvidia-smi --query-gpu=memory.used,memory.total --format=csv\nfree -g"


@pytest.mark.parametrize("first_line", [
    "ssh gpu01 bash <<'EOF' 2>&1 | tail -n 20",
    "ssh gpu01 'bash -s' <<'EOF' > /tmp/gpu01.txt",
    "ssh gpu01 <<'EOF' | grep MiB",
    "ssh gpu01 bash <<EOF 2>&1",
    "cat <<'EOF' | ssh gpu01 bash",
    "cat << 'EOF' | ssh gpu01 'bash -s'",
])
def test_the_script_runs_on_the_host(first_line):
    command = f"{first_line}\n{_SCRIPT}\nEOF"
    target = parse_target(command)
    # before: inner "bash < < EOF 2 >" (or "bash nvidia-smi ... EOF"), category "other"
    assert (target.host, target.inner) == ("gpu01", _SCRIPT)
    assert categorize(command) == "gpu_status"
    assert ssh_heredoc(command).inner == _SCRIPT  # what distill runs on the host


def test_a_program_on_the_far_side_of_the_pipe_reads_the_heredoc():
    target = parse_target("cat <<'PY' | ssh gpu01 python3 -\nimport torch\nPY")
    assert (target.host, target.inner) == ("gpu01", "python3 - <<'PY'\nimport torch\nPY")


@pytest.mark.parametrize("command", [
    "cat <<'EOF' > /tmp/check.sh\nssh gpu01 nvidia-smi\nEOF",
    "cat <<'EOF' | grep ssh\nssh gpu01 nvidia-smi\nEOF",
    "cat <<'EOF' | sudo tee /etc/hosts\n10.0.0.5 gpu01\nEOF",
])
def test_a_local_heredoc_reaches_no_host(command):
    assert parse_target(command).host is None
