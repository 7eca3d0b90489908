"""A draft weight file the probe's user may not open (permission denied): the probe runs as the
playbook's ssh user, the server often as another (a service account, root in a container) that
may read the file and load it.

Before: the listing put the file with the unreadable ones, and the configs step said "the header
of model.safetensors cannot be read (a copy or download cut short, a git-lfs pointer, or not a
safetensors file)", an SD710 error, for weights that are whole. Now it says which user the probe
ran as and the file's mode, owner and group (as `ls -l` shows them), that a server running as
that user cannot load it and one that may read it does: a warning, since the server's user is
not known to the step. The world is a speculators 0.9.0 draft; the probe runs as `nobody`
(setpriv) where the tests run as root, whom no permission stops."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, world  # noqa: E402,F401

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534


def _probe_as_other_user(args: dict) -> dict:
    """model_configs.run as a user the file's mode shuts out: `nobody` when root runs the
    tests, else this user itself (the file is made unreadable to its owner)."""
    if os.geteuid() != 0:
        return model_configs.run(args)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("needs setpriv to run the probe as another user than root")
    script = ("import json, sys; from spec_debug.probes import model_configs; "
              "print(json.dumps(model_configs.run(json.loads(sys.argv[1]))))")
    out = subprocess.run([setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                          sys.executable, "-c", script, json.dumps(args)],
                         capture_output=True, text=True, cwd=REPO, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO), "HOME": "/tmp"})
    return json.loads(out.stdout.splitlines()[-1])


@pytest.fixture
def shut(world):
    """The world copied where `nobody` can reach it, its draft weights mode 0600 (0000 for a
    non-root owner)."""
    root = Path(tempfile.mkdtemp(prefix="sd-denied-"))
    try:
        os.chmod(root, 0o755)
        shutil.copytree(world, root / "w")
        for path in [root / "w", *(root / "w").rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        weights = root / "w" / "draft" / "model.safetensors"
        os.chmod(weights, 0o600 if os.geteuid() == 0 else 0)
        yield root / "w"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_file_the_probes_user_may_not_open_names_the_user_and_owner(shut):
    raw = _probe_as_other_user({"draft_model": str(shut / "draft"), "target_model": str(shut / "target")})
    draft = raw["draft"]
    assert "unreadable_weight_files" not in draft
    [(name, access)] = draft["denied_weight_files"].items()
    status = (shut / "draft" / "model.safetensors").stat()
    expected_uid = NOBODY if os.geteuid() == 0 else os.geteuid()
    assert name == "model.safetensors"
    assert access["uid"] == expected_uid and access["mode"] == stat.filemode(status.st_mode)
    found = configs_step.check(context(configs_step.parse(raw), VLLM))
    assert [(f.code, f.severity) for f in found] == [("SD710", "warning")]
    [finding] = found
    assert finding.title == "A draft weight file the probe's user may not read"
    user, owner, group = access["user"], access["owner"], access["group"]
    assert finding.evidence == [
        f"the probe ran as {user} (uid {expected_uid}) and may not open model.safetensors "
        f"({stat.filemode(status.st_mode)} {owner} {group}) in {shut / 'draft'} (permission "
        f"denied): a server running as {user} cannot load the draft either (vLLM and SGLang "
        "open every weight file), one running as a user that may read it does; the draft "
        "config's shape keys, norm flags and vocabulary tensors were not compared with its "
        "weights"]
    assert "cannot be read (a copy or download cut short" not in finding.evidence[0]
    assert finding.remediation.startswith(f"If the server runs as {user}, make the file(s) readable")


def test_the_same_folder_readable_to_the_probe_has_no_finding(shut):
    os.chmod(shut / "draft" / "model.safetensors", 0o644)
    raw = _probe_as_other_user({"draft_model": str(shut / "draft"), "target_model": str(shut / "target")})
    assert "denied_weight_files" not in raw["draft"]
    assert configs_step.check(context(configs_step.parse(raw), VLLM)) == []
