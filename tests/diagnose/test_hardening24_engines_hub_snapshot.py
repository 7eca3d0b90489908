"""hostfiles: a Hub id resolves to the snapshot refs/main names, as the engines load it (round 24).

huggingface_hub finds a cached revision through refs/<revision> (file_download.py
try_to_load_from_cache), so `--speculative-draft-model-path org/draft` loads refs/main's commit.
The probe took the newest snapshot folder by mtime, which is an older revision whenever that
was fetched later (`huggingface-cli download org/draft --revision OLD`), and read another config:
a draft whose fixed config was re-uploaded was judged by its old one."""

from __future__ import annotations

import json
import os
import time

from spec_debug.probes.hostfiles import resolve_model_dir


def test_refs_main_wins_over_a_newer_snapshot_folder(tmp_path):
    repo = tmp_path / "hub" / "models--yuhuili--EAGLE3-LLaMA3.1-Instruct-8B"
    old, new = repo / "snapshots" / "0a1b2c", repo / "snapshots" / "9f8e7d"
    for snap, ids in ((old, [1, 15, 28]), (new, [2, 16, 29])):
        snap.mkdir(parents=True)
        (snap / "config.json").write_text(json.dumps({"eagle_config": {"eagle_aux_hidden_state_layer_ids": ids}}))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("9f8e7d")
    later = time.time() + 60
    os.utime(old, (later, later))  # the old revision fetched after main
    found = resolve_model_dir("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", extra_caches=[tmp_path / "hub"])
    assert found == new


def test_without_refs_the_newest_snapshot_is_kept(tmp_path):
    repo = tmp_path / "hub" / "models--org--draft"
    snap = repo / "snapshots" / "abc"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("gone")  # a ref to a snapshot pruned from the cache
    assert resolve_model_dir("org/draft", extra_caches=[tmp_path / "hub"]) == snap
