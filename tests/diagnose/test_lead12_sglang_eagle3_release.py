"""SGLang before 0.4.4.post2 has no EAGLE3 algorithm: the server never starts with it.

sgl-project/sglang#4247 ("Support EAGLE 3") was shipped by #4669 ("bump v0.4.4.post2 ... for
EAGLE 3"); the command below is the EAGLE-3 example of SGLang's speculative decoding docs.
"""

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

DOCS_EAGLE3 = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct "
               "--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
               "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 "
               "--mem-fraction 0.6 --cuda-graph-max-bs 2 --dtype float16")


def test_eagle3_is_refused_by_releases_before_0_4_4_post2():
    cfg = parse_launch_command(DOCS_EAGLE3)
    for old in ("0.4.4.post1", "0.4.4", "0.4.3.post4", "0.4.0"):
        problems = effective_spec(cfg, engine_version=old).problems
        assert [p for p in problems if "has no EAGLE-3" in p], (old, problems)
        assert f"SGLang {old} has no EAGLE-3 (added in 0.4.4.post2)" in problems[0]
    for new in ("0.4.4.post2", "0.4.4.post3", "0.4.5", "0.5.2rc1", "0.5.9"):
        assert not [p for p in effective_spec(cfg, engine_version=new).problems if "EAGLE-3" in p], new
    # an unknown version is judged as the newest: nothing refused on a guess
    assert not [p for p in effective_spec(cfg).problems if "EAGLE-3" in p]


def test_the_refusal_reaches_the_launch_finding_once():
    cfg = parse_launch_command(DOCS_EAGLE3.replace("EAGLE3", "eagle3", 1))
    eff = effective_spec(cfg, engine_version="0.4.4.post1")
    # the lower-case spelling is refused too at that release, but one reason is enough
    assert len([p for p in eff.problems if "speculative-algorithm" in p]) == 1
    [finding] = check_draft_budget(cfg, eff)
    assert finding.code == "SD102"
    assert any("has no EAGLE-3" in line for line in finding.evidence)


def test_eagle_is_not_refused_by_old_releases():
    cfg = parse_launch_command(DOCS_EAGLE3.replace("EAGLE3", "EAGLE", 1))
    assert not [p for p in effective_spec(cfg, engine_version="0.4.1").problems if "EAGLE-3" in p]
