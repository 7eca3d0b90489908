"""distill: `kubectl exec POD -it -- CMD` runs without a terminal, like `kubectl exec -it POD -- CMD`.

kubectl reads its own options up to `--`, after the pod too (the kubectl exec reference's example:
`kubectl exec mypod -c ruby-container -i -t -- bash -il`). The step kept `-ti` when it stood after
the pod, and with no terminal on a playbook's stdin kubectl says "Unable to use a TTY - input is not
a terminal or the right kind of file" into the step's output. docker's options still end at the
container: after it they belong to the command (`docker exec sglang ls -t`).
"""

from __future__ import annotations

import pytest

from spec_debug.session.unattended import without_tty
from tests.session.test_hardening38_distill import HEALTH, _session


@pytest.mark.parametrize("command, unattended", [
    ("kubectl exec sglang-0 -ti -c server -- cat /x", "kubectl exec sglang-0 -i -c server -- cat /x"),
    ("kubectl -n infer exec sglang-0 -it -- nvidia-smi", "kubectl -n infer exec sglang-0 -i -- nvidia-smi"),
    ("oc exec pod-1 -t -- ps", "oc exec pod-1 -- ps"),
    ("kubectl exec sglang-0 -c server -i -t -- nvidia-smi", "kubectl exec sglang-0 -c server -i -- nvidia-smi"),
])
def test_a_tty_option_after_the_pod_is_dropped(command, unattended):
    assert without_tty(command) == unattended


@pytest.mark.parametrize("command", ["kubectl exec sglang-0 -- ls -t /tmp", "kubectl exec sglang-0 ls -t",
                                     "docker exec sglang ls -t /tmp", "kubectl exec sglang-0 -c server -- top -b -n1"])
def test_the_commands_own_t_stays(command):
    assert without_tty(command) == command


def test_the_distilled_step_asks_for_no_terminal(tmp_path):
    doc, _ = _session(tmp_path, HEALTH, ("ssh root@gpu01 'kubectl exec -n infer sglang-0 -ti -- nvidia-smi -L'",
                                         "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)", 0))
    assert doc["steps"][1]["run"] == "kubectl exec -n infer sglang-0 -i -- nvidia-smi -L", doc["steps"]
