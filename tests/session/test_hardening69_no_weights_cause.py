"""analyze: vLLM 0.34.0 and SGLang 0.5.23 raise "Cannot find any model weights with `<dir>`"
(model_loader default_loader.py / loader.py _prepare_weights) for every draft folder they find no
weight file in, not only for the stale model.safetensors.index.json of SD710: a folder with only
model.pth or *.ckpt (names they never load), only a trainer's state, a training_args.bin matched
as *.bin and skipped before *.pt is looked for, or an empty folder. The analysis called each of
those SD710 ("The draft's weight index names no file that is there") and told the user to delete
an index the folder does not have. It is SD710 only where the session showed the stale index
(a listing with the index beside a single model.safetensors and no shard), before or after the
error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.spec_facts import STALE_INDEX_LISTING, text_observations

DRAFT = "/ckpt/run7/checkpoint-3"
LAUNCH = ("python -m sglang.launch_server --model-path /models/t --speculative-algorithm EAGLE3 "
          f"--speculative-draft-model-path {DRAFT} --port 30000 > /tmp/sglang.log 2>&1 &")
LOG = ("[2026-12-06 10:00:05] Scheduler hit an exception: Traceback (most recent call last):\n"
       '  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker_v2.py", line 140, in __init__\n'
       "    self._draft_worker = EagleDraftWorker(\n"
       '  File "/opt/sglang/python/sglang/srt/model_loader/loader.py", line 581, in _prepare_weights\n'
       "    raise RuntimeError(\n"
       f"RuntimeError: Cannot find any model weights with `{DRAFT}`\n")
STALE = ("total 1.9G\n-rw-r--r-- 1 ml ml  1.2K Dec  6 09:58 config.json\n"
         "-rw-r--r-- 1 ml ml  1.9G Dec  6 09:58 model.safetensors\n"
         "-rw-r--r-- 1 ml ml   23K Dec  6 09:41 model.safetensors.index.json\n")


def _session(path: Path, calls: list[tuple[str, str]]) -> None:
    lines: list[dict] = [{"type": "user", "message": {"role": "user", "content": "The server does not start."}}]
    for n, (command, output) in enumerate(calls):
        lines += [{"type": "assistant", "message": {"role": "assistant", "content": [
                      {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}]}},
                  {"type": "user", "message": {"role": "user", "content": [
                      {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}]}}]
    for n, line in enumerate(lines):
        line.update(uuid=f"u{n}", parentUuid=f"u{n - 1}" if n else None, sessionId="s",
                    timestamp=f"2026-12-06T10:{n:02d}:00.000Z")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _sd710(tmp_path: Path, calls: list[tuple[str, str]]):
    session = tmp_path / "s.jsonl"
    _session(session, calls)
    return [f for f in analyze_path(session).findings if f.code == "SD710"]


@pytest.mark.parametrize("listing", [
    "config.json\nmodel.pth\n",                                    # a name no engine loads
    "config.json\nepoch_3.ckpt\n",
    "config.json\noptimizer_state_dict.pt\nscheduler_state_dict.pt\n",
    "config.json\nmodel.pt\ntraining_args.bin\n",                  # *.bin matched first, then skipped
    "",                                                            # an empty folder
])
def test_no_weights_in_a_folder_without_an_index_is_not_sd710(tmp_path, listing):
    calls = [(LAUNCH, ""), ("tail -n 7 /tmp/sglang.log", LOG), (f"ls {DRAFT}", listing)]
    assert _sd710(tmp_path, calls) == []
    assert _sd710(tmp_path, [(LAUNCH, ""), ("tail -n 7 /tmp/sglang.log", LOG)]) == []  # no listing at all


def test_the_stale_index_shown_after_the_error_is_sd710_at_the_error(tmp_path):
    (f,) = _sd710(tmp_path, [(LAUNCH, ""), ("tail -n 7 /tmp/sglang.log", LOG), (f"ls -la {DRAFT}", STALE)])
    assert f.seq == 4
    assert f.evidence_seqs == [4, 6]
    assert f.evidence[0].startswith("[msg 4] ") and f"Cannot find any model weights with `{DRAFT}`" in f.evidence[0]
    assert f.evidence[1].startswith("[msg 6] ") and "model.safetensors.index.json" in f.evidence[1]


def test_the_stale_index_shown_before_the_error_is_sd710(tmp_path):
    (f,) = _sd710(tmp_path, [(f"ls -la {DRAFT}", STALE), (LAUNCH, ""), ("tail -n 7 /tmp/sglang.log", LOG)])
    assert (f.seq, f.evidence_seqs) == (6, [6, 2])
    assert "model.safetensors.index.json" in f.evidence[1]


def test_a_sharded_folders_index_is_no_stale_index():
    sharded = ("config.json\nmodel-00001-of-00002.safetensors\nmodel-00002-of-00002.safetensors\n"
               "model.safetensors.index.json\n")
    assert text_observations(sharded) == []
    assert text_observations("config.json\nmodel.safetensors.index.json\npytorch_model.bin\n") == []
    assert [o.code for o in text_observations(STALE)] == [STALE_INDEX_LISTING]
    assert [o.code for o in text_observations(f"{DRAFT}/model.safetensors\n{DRAFT}/model.safetensors.index.json\n")] \
        == [STALE_INDEX_LISTING]


def test_a_sharded_target_listing_does_not_make_the_draft_error_sd710(tmp_path):
    target = ("model-00001-of-00004.safetensors\nmodel-00002-of-00004.safetensors\n"
              "model-00003-of-00004.safetensors\nmodel-00004-of-00004.safetensors\nmodel.safetensors.index.json\n")
    calls = [("ls /models/t", target), (LAUNCH, ""), ("tail -n 7 /tmp/sglang.log", LOG), (f"ls {DRAFT}", "model.pth\n")]
    assert _sd710(tmp_path, calls) == []
