"""SGLang ignores --speculative-token-map for an EAGLE3 draft.

sgl-project/sglang python/sglang/srt/speculative/eagle_worker.py (wheels 0.4.4.post2, the first
EAGLE3 release, and 0.4.6) and eagle_worker_v2.py `init_token_map` (0.5.23): for EAGLE3 it logs
"Speculative token map specified, but EAGLE3 models already have this. Ignoring the specified token
map." and sets hot_token_id None; the draft's own d2t maps its vocabulary. Only EAGLE/NEXTN drafts
load the FR-Spec map. Before: the audit said nothing, so a user tuning the draft vocabulary with an
FR-Spec map on an EAGLE-3 draft measured a flag that never ran."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

CMD = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm {algo} "
       "--speculative-draft-model-path org/draft --speculative-token-map thunlp/LLaMA3-Instruct-8B-FR-Spec/"
       "freq_32768.pt --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
IGNORED = ("--speculative-token-map is ignored with EAGLE3: SGLang uses the draft checkpoint's own hot-token map (d2t) "
           "and logs \"Speculative token map specified, but EAGLE3 models already have this. Ignoring the specified "
           "token map.\"; a smaller draft vocabulary needs a draft trained with it")


@pytest.mark.parametrize("version", ["0.5.23", "0.4.6", None])
def test_eagle3_is_told_the_map_is_ignored(version):
    eff = effective_spec(parse_launch_command(CMD.format(algo="EAGLE3")), engine_version=version)
    assert eff.overrides == [IGNORED]
    assert eff.problems == []


@pytest.mark.parametrize("algo", ["EAGLE", "NEXTN"])
def test_eagle_drafts_load_it(algo):
    eff = effective_spec(parse_launch_command(CMD.format(algo=algo)), engine_version="0.5.23")
    assert not any("token-map" in line for line in eff.overrides + eff.problems)


def test_no_map_no_line():
    cmd = CMD.format(algo="EAGLE3").replace(" --speculative-token-map thunlp/LLaMA3-Instruct-8B-FR-Spec/freq_32768.pt",
                                            "")
    assert effective_spec(parse_launch_command(cmd), engine_version="0.5.23").overrides == []
