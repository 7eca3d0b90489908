"""distill: the server found on another host than the playbook's was reached through a jump host
(`ssh -J admin@bastion gpu02 python -m sglang.launch_server ...`). Round 29's description said
"add --host gpu02 to audit it" and gave the ProxyJump only for the playbook's host: --host gpu02
does not reach gpu02 from where the session ran. Now it names gpu02's jump host as well."""

from __future__ import annotations

from tests.session.test_hardening29_extract_launch_host import REFUSED, _playbook

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --speculative-num-steps 1"
CHECKS = (("ssh root@gpu01 'curl -sf http://localhost:30000/health'", REFUSED, 7),
          ("ssh root@gpu01 'tail -n 20 /var/log/sglang.log'", "Decode batch. accept len: 1.02", 0))


def test_the_launch_host_s_jump_host_is_named(tmp_path):
    description = _playbook(tmp_path, (f"ssh -J admin@bastion gpu02 {LAUNCH}", "started", 0), *CHECKS)["description"]
    assert description.endswith("add --host gpu02 to audit it. The session reached gpu02 through the jump "
                                "host admin@bastion: give gpu02 `ProxyJump admin@bastion` in ~/.ssh/config."), description


def test_a_launch_host_reached_directly_names_no_jump(tmp_path):
    description = _playbook(tmp_path, (f"ssh ubuntu@gpu02 {LAUNCH}", "started", 0), *CHECKS)["description"]
    assert description.endswith("add --host ubuntu@gpu02 to audit it."), description
