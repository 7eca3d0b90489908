"""Where a command ran, for two wrappers GPU serving setups use every day: Compose with its own
options before ``exec`` (``docker compose -f FILE exec -T SERVICE …``) or as the v1 program
``docker-compose``, and Teleport's ``tsh ssh``/``tsh scp``. Each read as a local command: the
container or the host was lost. The command lines are copied from public READMEs and scripts
(found with the code index; cited per case)."""

from __future__ import annotations

import pytest

from spec_debug.session.shell import categorize, parse_target

CASES = [
    # an SGLang install script's health wait
    ("docker compose exec -T sglang curl -sf http://localhost:30000/health", None, "docker:sglang",
     "curl -sf http://localhost:30000/health"),
    # a deploy README's health check through the Compose file
    ("docker compose -f docker-compose.yml exec -T nginx wget -q -O /dev/null http://api:4000/health", None,
     "docker:nginx", "wget -q -O /dev/null http://api:4000/health"),
    # a vLLM LoRA troubleshooting guide
    ('docker-compose exec vllm python -c "import vllm; print(vllm.__version__)"', None, "docker:vllm",
     "python -c 'import vllm; print(vllm.__version__)'"),
    # a vLLM multi-server README
    ("docker-compose exec vllm-server-1 nvidia-smi", None, "docker:vllm-server-1", "nvidia-smi"),
    # Gravity's docs: a command on a node through Teleport
    ("tsh ssh root@192.168.122.176 gravity ls --namespace=kube-system", "192.168.122.176", None,
     "gravity ls --namespace=kube-system"),
    ('tsh ssh root@asl-prd-prod-crawler-proxy-1 "bash /tmp/ufw.sh"', "asl-prd-prod-crawler-proxy-1", None,
     "bash /tmp/ufw.sh"),
    ("tsh scp pool/deploy/ufw.sh root@asl-prd-prod-crawler-proxy-1:/tmp/ufw.sh", "asl-prd-prod-crawler-proxy-1",
     None, None),
]


@pytest.mark.parametrize("command,host,container,inner", CASES)
def test_the_wrapper_names_where_the_command_ran(command, host, container, inner) -> None:
    t = parse_target(command)
    assert (t.host, t.container) == (host, container)
    if inner is not None:
        assert t.inner == inner


def test_compose_commands_that_run_nothing_in_a_container_stay_local() -> None:
    for command in ("docker compose up -d sglang", "docker-compose logs -f vllm-server", "docker compose -f x.yml ps"):
        t = parse_target(command)
        assert (t.host, t.container) == (None, None)


def test_tsh_flags_before_the_host_are_skipped() -> None:
    t = parse_target("tsh ssh --cluster tp-internal.constant.com root@gpu07 nvidia-smi")
    assert (t.host, t.user, t.inner) == ("gpu07", "root", "nvidia-smi")
    assert categorize("tsh ssh --cluster tp-internal.constant.com root@gpu07 nvidia-smi") == "gpu_status"
