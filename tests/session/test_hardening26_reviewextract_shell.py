"""Review of the day's shell.py changes (heredocs, srun/mosh words quoted again, ssh options),
each reading checked against what the real program does: bash for heredocs and argv, ``ssh -G``
for the options ssh settles on."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from spec_debug.session.shell import last_program, parse_target

# bash prints the argv it would hand the named program, one NUL-ended word each
_ARGV_OF = "printf '%s\\0' \"$@\""


def _bash_argv(script: str, cwd) -> list[str]:
    out = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=10)
    return out.stdout.split("\0")[:-1]


def test_heredoc_word_is_not_cut_to_a_shorter_terminator():
    # `<<EOFX` waits for a line "EOFX": the "EOF" line is script, the input ends the heredoc
    target = parse_target("ssh gpu01 bash <<EOFX\nuptime\nEOF")
    assert (target.host, target.inner) == ("gpu01", "uptime\nEOF")


@pytest.mark.parametrize("command, host, container", [
    ("ssh gpu01 bash <<'EOF'\nnvidia-smi\ntail -n 5 /var/log/sglang.log", "gpu01", None),
    ("docker exec -i sglang bash <<EOF\nnvidia-smi\ntail -n 5 /var/log/sglang.log", None, "docker:sglang"),
])
def test_heredoc_the_input_ends_inside_is_read_to_the_end(command, host, container):
    # bash: "here-document delimited by end-of-file", and the script runs
    ran = subprocess.run(["bash", "-c", "cat <<EOF\nnvidia-smi\ntail -n 5 x"], capture_output=True, text=True)
    assert ran.stdout == "nvidia-smi\ntail -n 5 x\n"
    target = parse_target(command)
    assert (target.host, target.container) == (host, container)
    assert target.inner == "nvidia-smi\ntail -n 5 /var/log/sglang.log"


@pytest.mark.parametrize("line, program_words", [
    ("srun -w node1 find /data -name '*.log' -o -name 'core.[0-9]*' -o -name '#x#'", 2),
    ("mosh gpu01 -- ls -d '/models/*-eagle3' 'x?'", 2),
    ("docker exec sglang find / -name '*.safetensors'", 2),
])
def test_words_quoted_again_run_with_the_same_argv(line, program_words, tmp_path):
    # files the globs would match where the command is read back: unquoted, the argv would change
    for name in ("a.log", "core.1", "x1"):
        (tmp_path / name).write_text("")
    program = line.split()[0]
    original = _bash_argv(f"{program}() {{ {_ARGV_OF}; }}; {line}", tmp_path)[program_words:]
    inner = parse_target(line).inner
    assert _bash_argv(f"f() {{ {_ARGV_OF}; }}; f {inner}", tmp_path) == original


@pytest.mark.parametrize("options", [
    "-o Port=2222 -o Port=3333", "-p 2222 -p 3333", "-p 2222 -o Port=3333", "-o Port=3333 -p 2222",
    "-o User=a -o User=b", "-l alice bob@", "-o User=a ssh://bob@", "-o HostName=10.0.0.1 -o HostName=10.0.0.2",
    "-o ProxyJump=bastion -o ProxyJump=none", "-o ProxyJump=none -o ProxyJump=bastion",
    "-J bastion -o ProxyJump=none", "-p 2222 ssh://", "-o Port=2222 ssh://u@",
])
def test_a_setting_given_twice_keeps_the_first_as_ssh_does(options):
    ssh = shutil.which("ssh")
    if ssh is None:
        pytest.skip("no ssh client")
    flags, _, dest_prefix = options.rpartition(" ") if options.endswith(("@", "//")) else (options, "", "")
    dest = f"{dest_prefix}gpu01" + (":3333" if dest_prefix.startswith("ssh://") else "")
    argv = [ssh, "-F", "/dev/null", "-G", *flags.split(), dest]
    shown = subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout
    config = dict(line.split(" ", 1) for line in shown.splitlines() if " " in line)
    target = parse_target(" ".join(["ssh", *flags.split(), dest, "nvidia-smi"]))
    assert target.host == config["hostname"]
    assert str(target.port or 22) == config["port"]
    assert target.jump == config.get("proxyjump")
    if target.user is not None or "User" in options or "@" in options or "-l" in options:
        assert target.user == config["user"]


def test_ssm_shorthand_escaped_quotes_are_the_command_run():
    # aws-cli's shorthand parser (awscli/shorthand.py) reads command=["bash -c \"nvidia-smi -L\""]
    # as ['bash -c "nvidia-smi -L"']: the backslashes are its escapes, not the command's
    line = ("aws ssm start-session --target i-0abc --document-name AWS-StartInteractiveCommand "
            """--parameters 'command=["bash -c \\"nvidia-smi -L\\""]'""")
    target = parse_target(line)
    assert (target.host, target.inner) == ("i-0abc", 'bash -c "nvidia-smi -L"')


@pytest.mark.parametrize("command", ["ssh gpu01 'echo $((1<<20))'\nls -la", "ssh gpu01 'echo $(( 1 << n ))'\nls -la"])
def test_a_shift_with_no_terminator_is_no_heredoc(command):
    # no line ends it: read to the end, arithmetic's << would take the next lines as a script
    target = parse_target(command)
    assert target.host == "gpu01" and target.inner.startswith("echo $((") and "<<20\n" not in target.inner
    # the next line is a command of its own, run here (bash(1), Lists: a newline as a `;`),
    # neither a heredoc body nor more of what ssh runs
    assert "ls" not in target.inner and last_program(command) == "ls"


@pytest.mark.parametrize("options", ["-o Port=2222 -o Port=3333", "-P 3333 -o Port=2222", "-o Port=2222 -P 3333",
                                     "-P 2222 -P 3333", "-o HostName=10.0.0.1 -o HostName=10.0.0.2"])
def test_scp_lands_where_the_ssh_it_runs_lands(options, tmp_path):
    scp, ssh = shutil.which("scp"), shutil.which("ssh")
    if scp is None or ssh is None:
        pytest.skip("no OpenSSH client")
    # scp runs `-S PROGRAM` as its ssh: a program that writes down the argv it was given
    fake = tmp_path / "ssh"
    fake.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {tmp_path}/argv\nexit 1\n")
    fake.chmod(0o755)
    subprocess.run([scp, "-S", str(fake), *options.split(), "gpu01:/x", str(tmp_path / "x")],
                   capture_output=True, timeout=10)
    argv = (tmp_path / "argv").read_text().splitlines()
    ssh_options = argv[:argv.index("--")]
    shown = subprocess.run([ssh, "-F", "/dev/null", "-G", *[w for w in ssh_options if w != "-s"], "gpu01"],
                           capture_output=True, text=True, timeout=10).stdout
    config = dict(line.split(" ", 1) for line in shown.splitlines() if " " in line)
    target = parse_target(f"scp {options} gpu01:/x .")
    assert (target.host, str(target.port or 22)) == (config["hostname"], config["port"])


@pytest.mark.parametrize("line, container", [
    ("CONTAINER=im-db; docker exec -i $CONTAINER bash << 'EOF'\nnvidia-smi\nEOF", "docker:im-db"),
    ("export POD=vllm-0 && kubectl exec -it $POD -- nvidia-smi", "pod:vllm-0"),
    ("docker exec $C nvidia-smi", "docker:$C"),  # not set on the line: still a container
])
def test_a_container_named_by_a_variable_the_line_sets(line, container):
    # a host named so was already that host (ssh root@$GPU); scripts name containers the same way
    assert parse_target(line).container == container
