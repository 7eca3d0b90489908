"""Real launch commands and server logs from public issues, run through the launch audit and the
server-log reader; each test holds the excerpt and the issue it comes from."""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

# https://github.com/sgl-project/sglang/issues/14077 (2025-11-28, "Results in tensor dimension error")
SPEC_V2_TREE_14077 = """export SGLANG_ENABLE_SPEC_V2=1
python -m sglang.launch_server --port=7080 --model=/tmp/openai/gpt-oss-120b --trust-remote-code \
--speculative-algorithm=EAGLE3 --speculative-draft-model-path=/tmp/lmsys/EAGLE3-gpt-oss-120b-bf16 \
--speculative-num-steps=5 --speculative-eagle-topk=4 --speculative-num-draft-tokens=8 --tp=8 \
--reasoning-parser=gpt-oss --tool-call-parser=gpt-oss --attention-backend triton"""

# https://github.com/sgl-project/sglang/issues/13352 (2025-11-15): the first decode raises
# "RuntimeError: Sizes of tensors must match except in dimension 1" in llama_eagle3.py
SPEC_V2_TREE_13352 = ("SGLANG_ENABLE_SPEC_V2=1 SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python -m sglang.launch_server "
                      "--model-path /dataset/model/llama3.1/Llama-3.1-8B-Instruct --host 0.0.0.0 --port 30000 "
                      "--trust-remote-code --speculative-algorithm EAGLE3 --speculative-draft-model-path "
                      "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
                      "--speculative-num-draft-tokens 8 --speculative-eagle-topk 4 --disable-cuda-graph")


def _problems(command: str, version: str | None) -> list[str]:
    return effective_spec(parse_launch_command(command), engine_version=version).problems


def test_spec_v2_tree_on_the_releases_that_crash_at_the_first_decode_is_an_error():
    # SGLang 0.5.5 (which added SGLANG_ENABLE_SPEC_V2) and 0.5.6 keep the overlap scheduler on for
    # EAGLE3 with the variable set, so the chain-only spec v2 worker runs a topk-4 tree
    for command in (SPEC_V2_TREE_14077, SPEC_V2_TREE_13352):
        for version in ("0.5.5", "0.5.6"):
            problems = _problems(command, version)
            assert any("first decode" in p and "#14077" in p for p in problems), (version, problems)
            cfg = parse_launch_command(command)
            finding = check_draft_budget(cfg, effective_spec(cfg, engine_version=version))
            assert finding and finding[0].code == "SD102"


def test_spec_v2_tree_is_judged_by_the_release():
    assert not any("SGLANG_ENABLE_SPEC_V2" in p for p in _problems(SPEC_V2_TREE_14077, "0.5.4"))  # no variable yet
    assert any("refuses to start" in p for p in _problems(SPEC_V2_TREE_14077, "0.5.7"))
    unknown = effective_spec(parse_launch_command(SPEC_V2_TREE_14077)).overrides
    assert any("0.5.5-0.5.6 fail at the first decode" in o for o in unknown)


def test_spec_v2_tree_without_the_overlap_scheduler_runs_spec_v1():
    # --disable-overlap-schedule (or pipeline parallelism) keeps 0.5.5's EAGLEWorker (v1) for EAGLE3;
    # for EAGLE server_args.py turns the overlap scheduler back on with the variable set
    for extra in (" --disable-overlap-schedule", " --pp-size 2"):
        assert not any("first decode" in p for p in _problems(SPEC_V2_TREE_13352 + extra, "0.5.5")), extra
        eagle = SPEC_V2_TREE_13352.replace("EAGLE3", "EAGLE") + extra
        assert any("first decode" in p for p in _problems(eagle, "0.5.5")), extra


# https://github.com/SafeAILab/EAGLE/pull/173 (2025-01-02): SGLang's EAGLE launch, abbreviated flags
EAGLE2_173 = ("python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf  --speculative-algo EAGLE "
              "--speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 5 "
              "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64 --mem-fraction 0.7")


def test_old_sglang_only_takes_topk_1_2_4_8():
    # server_args.py declared `choices=[1, 2, 4, 8]` up to 0.4.3.post4 (`--help` in
    # sgl-project/sglang#3883); PR #4329 removed them for 0.4.4
    assert not any("topk" in p for p in _problems(EAGLE2_173, "0.4.1.post7"))
    wider = EAGLE2_173.replace("topk 8", "topk 16").replace("draft-tokens 64", "draft-tokens 128")
    refused = [p for p in _problems(wider, "0.4.3.post2") if "invalid choice" in p]
    assert refused and "--speculative-eagle-topk 16" in refused[0]
    assert not any("invalid choice" in p for p in _problems(wider, "0.4.4"))
    assert not any("invalid choice" in p for p in _problems(wider, None))


# https://github.com/sgl-project/sglang/issues/5491 (2025-04-20, SGLang 0.4.5 era): a topk-2 tree
TREE_5491 = ("python -m sglang.launch_server --model /mnt/data/open_source/QwQ-32B/Qwen__QwQ-32B/   --served-model-name "
             "Qwen-32B --speculative-algorithm EAGLE --speculative-draft-model-path /mnt/train/eagle/EAGLE-1/ckpt_2/state_1/ "
             "--speculative-num-steps 3 --speculative-eagle-topk 2 --speculative-num-draft-tokens 8 --cuda-graph-max-bs 8 "
             "--port 9123 --tensor-parallel-size 2 --mem-fraction-static 0.8 --attention-backend fa3 "
             "--enable-torch-compile --max-running-requests 100")
# https://github.com/sgl-project/sglang/issues/8228 (2025-07-21): a chain with draft tokens == steps
CHAIN_8228 = ("python3 -m sglang.launch_server --model-path Qwen2-72B --tensor-parallel-size 8 --dtype bfloat16 "
              "--served-model-name Qwen2  --speculative-algorithm EAGLE --speculative-draft-model-path EAGLE-Qwen2-72B "
              "--speculative-num-steps 2 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --mem-fraction 0.7")


def _effective(command: str, version: str | None):
    return effective_spec(parse_launch_command(command), engine_version=version)


def test_paged_kv_serves_a_chain_on_sglang_0_4_5_to_0_4_8():
    # server_args.py set topk to 1 when page_size > 1 (sglang#4908) until #7643 (0.4.9)
    paged = TREE_5491 + " --page-size 16"
    for version in ("0.4.5", "0.4.8"):
        eff = _effective(paged, version)
        assert eff.topk == 1 and any("overwritten to 1" in o for o in eff.overrides), version
    assert _effective(paged, "0.4.8").num_draft_tokens == 4  # then topk 1 forces steps + 1
    assert _effective(paged, "0.4.9").topk == 2
    assert _effective(TREE_5491, "0.4.5").topk == 2  # page size 1 keeps the tree


def test_draft_tokens_follow_the_chain_only_from_sglang_0_4_6():
    # the topk-1 rewrite to steps + 1 arrived in 0.4.6 (PyPI wheels' server_args.py)
    old = _effective(CHAIN_8228, "0.4.5")
    assert old.num_draft_tokens == 2 and not any("overwritten" in o for o in old.overrides)
    new = _effective(CHAIN_8228, "0.4.9")
    assert new.num_draft_tokens == 3 and any("overwritten to 3" in o for o in new.overrides)
