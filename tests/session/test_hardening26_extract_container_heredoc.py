"""A script fed to a container's shell in a heredoc (``docker exec -i sglang bash <<'EOF'``,
``kubectl exec -i vllm-0 -- bash <<'EOF'``, the same behind ``ssh gpu01``) runs there, as a
heredoc fed to ``ssh gpu01`` does (shell.ssh_heredoc). The analyzer split it into words
instead: the timeline showed "bash '<' '<' EOF nvidia-smi EOF" for the command."""

import pytest

from spec_debug.session.shell import categorize, parse_target

_SCRIPT = "nvidia-smi --query-gpu=memory.used --format=csv\ntail -n 50 /var/log/sglang.log"


@pytest.mark.parametrize("head, host, container", [
    ("docker exec -i sglang bash", None, "docker:sglang"),
    ("kubectl exec -i -n serving vllm-0 -- bash -s", None, "pod:vllm-0"),
    ("docker compose exec -T sglang sh", None, "docker:sglang"),
    ("ssh gpu01 docker exec -i sglang bash", "gpu01", "docker:sglang"),
])
def test_the_script_is_what_runs_in_the_container(head, host, container):
    target = parse_target(f"{head} <<'EOF'\n{_SCRIPT}\nEOF")
    # before: "bash '<' '<' EOF nvidia-smi --query-gpu=... EOF"
    assert (target.host, target.container, target.inner) == (host, container, _SCRIPT)


def test_a_program_reading_the_heredoc_keeps_it():
    script = "import torch\nprint(torch.cuda.is_available())"
    target = parse_target(f"docker exec -i sglang python3 - <<'PY'\n{script}\nPY")
    assert (target.container, target.inner) == ("docker:sglang", f"python3 - <<'PY'\n{script}\nPY")
    assert categorize(f"docker exec -i sglang python3 - <<'PY'\n{script}\nPY") == "python"


def test_a_local_heredoc_after_a_container_command_stays_local():
    target = parse_target("docker exec sglang nvidia-smi; cat <<'EOF' > notes.txt\nmemory full\nEOF")
    assert target.inner == "nvidia-smi"
