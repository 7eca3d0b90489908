"""An unknown key whose value is a mapping is reported where the key is written.

`env:` under a step (GitHub Actions' step env, Ansible's environment:) was reported at the
last line inside it: the loader recorded each inner key's position on the same entry as the
outer key's. A top-level `x-defaults:` or `.defaults:` kept only to hold an anchor (compose's
extension fields, GitLab CI's hidden jobs) gets the way to hold it here, which loads.
"""

from __future__ import annotations

from tests.conftest import run_cli

ENV_STEP = """\
name: gpu_env
steps:
  - id: visible_gpus
    run: nvidia-smi -L
    env:
      CUDA_VISIBLE_DEVICES: "0,1"
      NCCL_DEBUG: INFO
"""

ANCHOR_HOLDER = """\
name: shared_defaults
x-step-defaults: &step_defaults
  timeout: 60
  retries: 2
steps:
  - <<: *step_defaults
    id: health
    run: curl -sf http://127.0.0.1:30000/health
"""


def test_an_unknown_mapping_key_points_at_the_key(write_playbook):
    result = run_cli("playbooks", "validate", str(write_playbook(ENV_STEP)))
    assert result.code == 2, result.stderr
    said = " ".join(result.stderr.split())
    assert ":5:5: unknown key 'env'" in said, said
    assert "run: CUDA_VISIBLE_DEVICES=0 nvidia-smi" in said, said


def test_a_key_that_only_holds_an_anchor(write_playbook):
    for holder in ("x-step-defaults", ".step-defaults"):
        result = run_cli("playbooks", "validate", str(write_playbook(ANCHOR_HOLDER.replace("x-step-defaults", holder))))
        assert result.code == 2, result.stderr
        said = " ".join(result.stderr.split())
        assert f":2:1: unknown key '{holder}'" in said and "<<: &step_defaults" in said, said
    # The form the hint names.
    moved = ANCHOR_HOLDER.replace("x-step-defaults: &step_defaults\n  timeout: 60\n  retries: 2\n", "").replace(
        "<<: *step_defaults", "<<: &step_defaults {timeout: 60, retries: 2}")
    result = run_cli("explain", str(write_playbook(moved, "moved.yaml")))
    assert result.code == 0, result.stderr
    assert "stopped after 60 s" in result.stdout and "tried up to 3 times" in result.stdout
