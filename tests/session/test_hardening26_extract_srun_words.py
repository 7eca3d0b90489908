"""srun execs the words after its options as argv (no shell in between, as docker exec does).
The analyzer joined them with spaces, so ``srun -w node4 python3 -c 'import torch; print(...)'``
became the command line "python3 -c import torch; print(...)": the timeline showed it, and
distill, which runs the inner command on the host (distill.py: ``cmd.inner if
runs_on_primary``), wrote a step that is a shell syntax error. And an srun with no node named
(``srun -p gpu -N1 bash -c 'ssh gpu01 ...'``) lost the ssh inside it."""

import shlex

import pytest

from spec_debug.session.shell import categorize, parse_target


@pytest.mark.parametrize("words", [
    ["python3", "-c", "import torch; print(torch.cuda.device_count())"],
    ["python3", "-m", "sglang.launch_server", "--model-path", "/models/Llama 3.1 8B"],
])
def test_the_words_stay_one_argv(words):
    target = parse_target("srun -w node4 --gres=gpu:1 " + shlex.join(words))
    assert target.host == "node4"
    # before: "python3 -c import torch; print(torch.cuda.device_count())"
    assert shlex.split(target.inner) == words


def test_a_shell_script_is_the_command():
    target = parse_target("srun -w node4 bash -c 'nvidia-smi && tail -n 50 /var/log/sglang.log'")
    assert (target.host, target.inner) == ("node4", "nvidia-smi && tail -n 50 /var/log/sglang.log")


def test_an_ssh_inside_an_srun_without_a_node_names_the_host():
    target = parse_target("srun -p gpu -N1 --pty bash -c 'ssh gpu01 nvidia-smi'")
    assert (target.host, target.inner) == ("gpu01", "nvidia-smi")  # before: no host
    assert categorize("srun -p gpu -N1 --pty bash -c 'ssh gpu01 nvidia-smi'") == "gpu_status"


def test_an_srun_without_a_node_reaches_no_host():
    assert parse_target("srun -p gpu -N1 nvidia-smi").host is None
