"""A draft whose weight file cannot be read: a git-lfs pointer cloned without `git lfs pull`,
an empty file (a full disk, an interrupted copy), a copy cut inside its header. vLLM and
SGLang open every weight file they load with safetensors' safe_open (vLLM
model_loader/weight_utils.py safetensors_weights_iterator; safetensors 0.8.0 raises
"Error while deserializing header: header too large" / "header too small" for the pointer
and the empty file), so the server does not start.

Before: the configs step said only SD004 (info, "not checked"), the vocab and eval steps
failed as SD003 warnings, and `run perf_regression` said PASSED over a draft no engine
loads. The configs step now gives SD710, an error titled "A draft weight file the engines
load cannot be read". The draft is saved by speculators 0.9.0, then damaged."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

LFS_POINTER = (b"version https://git-lfs.github.com/spec/v1\n"
               b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
               b"size 1048576\n")


@pytest.fixture
def root(tmp_path, world):
    shutil.copytree(world / "target", tmp_path / "target")
    shutil.copytree(world / "draft", tmp_path / "draft")
    return tmp_path


def _damage(root, how: str) -> None:
    path = root / "draft" / "model.safetensors"
    body = path.read_bytes()
    path.write_bytes({"lfs_pointer": LFS_POINTER, "empty": b"", "cut_header": body[:100]}[how])


def test_the_draft_as_saved_has_no_sd710(root):
    assert [f.code for f in _configs(root, VLLM)] == []


@pytest.mark.parametrize("how", ["lfs_pointer", "empty", "cut_header"])
def test_an_unreadable_weight_file_is_an_sd710_error(root, how):
    _damage(root, how)
    found = _configs(root, VLLM)
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    [finding] = found
    assert finding.title == "A draft weight file the engines load cannot be read"
    assert finding.evidence == [
        "the header of model.safetensors cannot be read (a copy or download cut short, a "
        "git-lfs pointer, or not a safetensors file): vLLM and SGLang open every weight file "
        "with safetensors' safe_open and do not start (\"Error while deserializing header\"); "
        "the draft config's shape keys and norm flags were not compared with its weights"]
    assert finding.facts["unreadable_weight_files"] == ["model.safetensors"]
    assert finding.remediation.startswith("Copy or download the draft's weight files again")


def test_the_finding_needs_no_target_or_engine(root):
    _damage(root, "empty")
    found = [f for f in _configs(root, {}, target=False) if f.code == "SD710"]
    assert [f.severity for f in found] == ["error"]
