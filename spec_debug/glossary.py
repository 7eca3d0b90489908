"""The concepts a newcomer meets in an EAGLE-3 incident, for `spec-debug explain TOPIC`.

`explain` took a playbook or a finding code, and a new engineer who read the incident and typed
`explain accept length`, `explain d2t` or `explain --speculative-num-steps` got "no playbook
file" and the list of playbooks. Each concept here says what the thing is, what each engine
calls it, what goes wrong with it, and which finding codes and steps check it. Every fact is
one of ../shared/reference/EAGLE3.md (speculators 0.9.0, SGLang llama_eagle3.py at 03d5a777,
vLLM llama_eagle3.py at 00bd1493 and the issues it cites), and the codes are the catalog's
(a test keeps both in step).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Concept:
    name: str
    aliases: tuple[str, ...]
    """What a newcomer types: flag spellings, config keys, short names (matched as normalised)."""
    summary: str
    engines: tuple[str, ...]
    """What SGLang, vLLM and the trainers call it and do with it."""
    goes_wrong: tuple[str, ...]
    codes: tuple[str, ...]
    """Catalog codes that check it (``spec-debug explain CODE``)."""
    check_with: tuple[str, ...]
    """spec-debug commands or playbook steps that measure or check it."""
    sources: tuple[str, ...] = ()


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        name="accept length",
        aliases=("acceptance length", "accept len", "accept_length", "mean acceptance length", "al",
                 "acceptance", "accept rate", "acceptance rate", "tau", "bonus token"),
        summary=("The tokens one verification round produces on average: the drafted tokens the target "
                 "accepted, plus the one token the target always adds itself (the bonus token). 1.0 means "
                 "speculation added nothing; a chain of K drafted tokens gives at most K + 1. It is what "
                 "speculation buys: a round costs about one target step plus K draft passes, so it pays "
                 "only while accept length > 1 + K·c, where c is a draft pass's cost in target steps."),
        engines=(
            "SGLang logs `accept len` (and `accept rate`) on its `Decode batch` lines.",
            "vLLM logs `Mean acceptance length` in its SpecDecoding metrics: 1 + accepted / drafts "
            "(vllm/v1/spec_decode/metrics.py), with a per-position acceptance rate.",
            "speculators and EAGLE count the same +1 bonus token.",
            # `explain accept rate` lands here: 0.54 read against "1.0 means speculation added
            # nothing" looked like speculation losing. Formats: diagnose/serverlog.py.
            "An accept rate is a fraction, not this length: SGLang's `accept rate` is accept length / "
            "(steps + 1) (accept len 2.17 with accept rate 0.54 at 3 steps, sglang issue 11948); "
            "vLLM's `Draft acceptance rate` is accepted / drafted tokens, and its per-position rates "
            "add up to accept length − 1.",
        ),
        goes_wrong=(
            "Capped by the launch flags: with SGLang `--speculative-num-steps 1` it can never exceed 2 "
            "(the incident's first bug).",
            "Low although the draft validated well: the served hidden states are not the ones it was "
            "trained on (aux layers, concat order), or its vocab map is wrong.",
            "Good but still slower than the baseline: the draft costs too much for this target (MoE or "
            "small targets).",
        ),
        codes=("SD101", "SD502", "SD503", "SD501"),
        check_with=("perf_regression's throughput step (the server log's accept length against the "
                    "standalone prediction)",
                    "spec-debug drafter eval --model DRAFT --data HIDDEN_STATES --steps 3"),
        sources=("https://github.com/SafeAILab/EAGLE/issues/195", "https://arxiv.org/abs/2211.17192"),
    ),
    Concept(
        name="num steps",
        aliases=("--speculative-num-steps", "speculative num steps", "speculative_num_steps", "num_steps",
                 "steps", "draft depth", "depth", "spec steps"),
        summary=("SGLang's draft depth: how many draft forward passes one round runs. With topk 1 each "
                 "pass drafts one token, and SGLang sets the verified draft tokens to steps + 1, so a "
                 "round accepts at most `steps` drafted tokens and the accept length is at most steps + 1. "
                 "Serve the depth the draft was trained for (speculators writes it as `speculative_tokens` "
                 "in its config, often 3)."),
        engines=(
            "SGLang: `--speculative-num-steps` with `--speculative-eagle-topk` and "
            "`--speculative-num-draft-tokens`; SGLang picks all three itself only when none is set.",
            "vLLM: `num_speculative_tokens` in `--speculative-config` is the same depth for a chain.",
        ),
        goes_wrong=(
            "`--speculative-num-steps 1` drafts one token per round: accept length at most 2, and the "
            "incident served 54.8 tok/s against a 90 tok/s baseline with it.",
        ),
        codes=("SD101", "SD102"),
        check_with=("perf_regression's launch_flags step",),
        sources=("https://github.com/sgl-project/sglang/issues/3762",),
    ),
    Concept(
        name="topk",
        aliases=("--speculative-eagle-topk", "speculative eagle topk", "speculative_eagle_topk", "eagle topk",
                 "top k", "branching"),
        summary=("SGLang's branching per draft step. 1 drafts a chain; more than 1 drafts a tree of "
                 "candidates, from which SGLang keeps the num-draft-tokens − 1 most likely nodes to verify "
                 "in one target pass (organize_draft_results)."),
        engines=(
            "SGLang: `--speculative-eagle-topk`. topk > 1 with a page size over 1 needs the flashinfer, "
            "fa3 or triton attention backend; trtllm_mha and the overlapped speculative decoding (SpecV2) "
            "need topk 1.",
            "vLLM drafts a chain (`num_speculative_tokens`); a tree is its `speculative_token_tree`, "
            "which spec-debug does not audit.",
        ),
        goes_wrong=(
            "A draft-token budget the tree cannot fill or that leaves nothing to verify: topk > 1 with "
            "`--speculative-num-draft-tokens` 1.",
        ),
        codes=("SD102",),
        check_with=("perf_regression's launch_flags step",),
    ),
    Concept(
        name="num draft tokens",
        aliases=("--speculative-num-draft-tokens", "speculative num draft tokens", "speculative_num_draft_tokens",
                 "draft tokens", "num_draft_tokens", "draft token budget"),
        summary=("SGLang's count of tokens the target verifies per round, the root included. With topk 1 "
                 "SGLang overwrites it to steps + 1 (with a warning); with topk > 1 it is the tree's size."),
        engines=("SGLang: `--speculative-num-draft-tokens`. vLLM verifies num_speculative_tokens + 1 "
                 "positions of its chain.",),
        goes_wrong=("Set alone, without steps and topk: SGLang's automatic choice asserts and the server "
                    "stops with a bare AssertionError.",),
        codes=("SD101", "SD102"),
        check_with=("perf_regression's launch_flags step",),
    ),
    Concept(
        name="num speculative tokens",
        aliases=("num_speculative_tokens", "--num-speculative-tokens", "speculative config", "--speculative-config",
                 "speculative_config", "speculative tokens", "speculative_tokens",
                 # vLLM's name for a speculators config's speculative_tokens (EAGLE3.md, vLLM
                 # transformers_utils/configs/speculators/algos.py update_eagle3)
                 "num_lookahead_tokens", "lookahead tokens"),
        summary=("vLLM's draft depth, set in `--speculative-config` (JSON): the draft proposes a chain of "
                 "K tokens and the target verifies K + 1 positions, so the accept length is at most K + 1. "
                 "It may be left out when the draft's config gives it (a speculators checkpoint's "
                 "`speculative_tokens`)."),
        engines=(
            "vLLM: `--speculative-config '{\"method\": \"eagle3\", \"model\": DRAFT, "
            "\"num_speculative_tokens\": 3}'`; `vllm serve DRAFT_DIR` of a speculators checkpoint takes "
            "the target and the depth from its config.",
            "SGLang's equivalent is `--speculative-num-steps` (with topk 1).",
        ),
        goes_wrong=("K = 1 caps the accept length at 2, as SGLang's one step does.",
                    # diagnose/launch.py _VLLM_V0_FLAGS_REMOVED / _VLLM_SPEC_CONFIG_SINCE: the audit
                    # refuses these flags on those releases; an alias above is no current flag
                    "`--num-speculative-tokens K` and `--speculative-model DRAFT` are vLLM V0's flags: "
                    "removed in 0.8.3 (`--speculative-config` since 0.8.2), so a later release exits with "
                    "'unrecognized arguments' and the server does not start; write them as "
                    "`--speculative-config '{\"model\": DRAFT, \"num_speculative_tokens\": K}'`."),
        codes=("SD101", "SD102"),
        check_with=("perf_regression's launch_flags step",),
    ),
    Concept(
        name="aux hidden state layers",
        aliases=("aux layers", "aux hidden states", "eagle_aux_hidden_state_layer_ids", "aux layer ids",
                 "layer ids", "layers to capture", "layers_to_capture", "hidden state layers", "capture layers",
                 "aux_hidden_state_layer_ids",
                 # the incident's own words (8 times in its write-up): they got "did you mean
                 # 'hidden_state_format'?", a playbook, before the newcomer knew what one is
                 "hidden states", "target hidden states", "aux hidden state"),
        summary=("A hidden state is the vector a transformer layer outputs for each token, the target's "
                 "hidden_size wide (7168 for the incident's Kimi-K2.5). "
                 "EAGLE-3 drafts from the target's own hidden states at three layers (low, middle, high), "
                 "concatenated and projected by fc. Which layers is the draft config's "
                 "`eagle_aux_hidden_state_layer_ids`; without it every engine uses inputs to layers "
                 "[2, N//2, N−3] of an N-layer target (for 61 layers: 2, 30, 58). Ids are written in two "
                 "conventions, input-to-layer (first id 2) and output-of-layer (first id 1, SpecForge's), "
                 "and reading one as the other is off by one."),
        engines=(
            # eagle3/engines.py CONVENTIONS, the table the checks read: PR 25454 changed the
            # DeepSeek-family files only; llama.py and the rest still add 1 in the newest release.
            "SGLang reads `eagle_config.eagle_aux_hidden_state_layer_ids` and captures the input of layer "
            "id + 1 for each; since sglang PR 25454 its DeepSeek-family model files (deepseek_v2.py, "
            "glm4_moe_lite.py; sglang 0.5.13) add the 1 only when the first id is 1, while the other "
            "model files (Llama, Qwen, ...) still add 1 to every id.",
            "vLLM reads the top-level key (some versions the nested one too) and uses the ids raw.",
            "speculators defaults to [2, N//2, N−3]; SpecForge to output-of ids [1, N//2−1, N−4].",
        ),
        goes_wrong=(
            "Served layers differ from the trained ones: the draft sees other states and acceptance "
            "collapses (a 70B head without ids served with the default: accept length 1.04).",
            "The same ids shifted by one between trainer and engine.",
        ),
        codes=("SD201", "SD202", "SD203", "SD204", "SD707"),
        check_with=("perf_regression's configs and hidden_layout steps",
                    "the hidden_state_format playbook: which states the draft expects and which the server "
                    "feeds it (`spec-debug explain hidden_state_format` walks through it)",
                    "spec-debug drafter layout --model DRAFT --data HIDDEN_STATES --target TARGET"),
        sources=("https://github.com/sgl-project/sglang/pull/25454", "https://github.com/vllm-project/vllm/pull/50170",
                 "https://github.com/vllm-project/vllm/pull/43671"),
    ),
    Concept(
        name="concat order",
        aliases=("hidden state layout", "layout", "concatenation order", "cat order", "concat", "hidden states order"),
        summary=("The order of the aux states in the concatenation fed to fc. fc's weights are tied to its "
                 "slots, so states in another order, or another layer in a slot, are another input: the "
                 "draft still runs, and accepts less. In the incident training fed "
                 "cat([embed, layer3, layer31]) while the engine passed cat([layer3, layer31, layer59])."),
        engines=("No engine feeds the embedding output as an aux state by default (no default id list "
                 "names it). As id 0 it is captured by vllm from 0.18.0 (EagleModelMixin; not its DeepSeek "
                 "model files, but its DeepSeek-V3.2 / GLM-5 one from 0.29.0), by sglang's llama.py from "
                 "0.5.22 and by its gpt_oss.py from 0.5.17.",),
        goes_wrong=("A dumper or a trainer that captures other tensors than the engine serves: validation "
                    "accuracy looks fine and serving is slow.",),
        codes=("SD402", "SD201"),
        check_with=("perf_regression's hidden_layout step (scores candidate layouts with the draft itself)",
                    "spec-debug drafter layout --model DRAFT --data HIDDEN_STATES --target TARGET"),
    ),
    Concept(
        name="fc",
        aliases=("fc layer", "fc.weight", "norm_before_fc", "fc_norm", "input_norm"),
        summary=("The draft's first linear layer, without bias: [H, A·H], from the A concatenated aux "
                 "states (3 × the target's hidden size) to the draft's hidden size H. The RMSNorms of the "
                 "first layer come after it (hidden_norm on fc's output, input_layernorm on the token "
                 "embedding), unless the checkpoint sets speculators' `norm_before_fc` (one RMSNorm over "
                 "the whole concatenation, `input_norm.weight`) or `fc_norm`."),
        # fc_fan_in and captures_embedding below: rows of eagle3/engines.py CONVENTIONS
        engines=("SGLang applies fc only when the incoming width differs from H, so later draft steps feed "
                 "the draft's own state. fc's input was 3 × target_hidden_size before sglang 0.5.12 and "
                 "vllm 0.22.0; newer releases size it from `num_aux_hidden_states` or the number of aux "
                 "layer ids.",
                 "Older vLLM and SGLang did not read norm_before_fc and ran such drafts without the norm."),
        goes_wrong=("A hand-written standalone test that normalised before fc and the concat measured "
                    "garbage (the incident's third bug): `spec-debug drafter eval` runs speculators' own "
                    "forward.",
                    "An fc whose input width is not aux layers × target hidden size."),
        codes=("SD204", "SD701", "SD601"),
        check_with=("perf_regression's configs and reference_forward steps",
                    "spec-debug drafter eval --model DRAFT --data HIDDEN_STATES"),
        sources=("https://github.com/vllm-project/vllm/pull/38111", "https://github.com/sgl-project/sglang/pull/32334"),
    ),
    Concept(
        name="norm before residual",
        aliases=("norm_before_residual", "residual norm", "hidden_norm"),
        summary=("A speculators flag for the draft's first layer: the residual is hidden_norm(h) instead "
                 "of the raw fc output h. speculators' config class defaults it to false, but its training "
                 "recipe writes true, so read it from the checkpoint's config.json, never assume it."),
        engines=("vLLM honours it, and reads true when a speculators-format config lacks the key.",
                 "SGLang's llama_eagle3.py (read at 03d5a777) has no such flag: it always keeps the raw "
                 "residual, so a draft trained with true runs another forward there."),
        goes_wrong=("A checkpoint trained with a norm flag the serving engine release ignores.",),
        codes=("SD701", "SD601"),
        check_with=("perf_regression's configs and reference_forward steps",),
    ),
    Concept(
        name="vocab map",
        aliases=("d2t", "t2d", "draft vocab", "draft_vocab_size", "draft vocabulary", "vocab mapping",
                 "hot token id", "hot_token_id", "draft_id_to_target_id"),
        summary=("A draft whose head predicts DV tokens, fewer than the target's V, maps its ids back with "
                 "`d2t`, an offset table: target id = i + d2t[i]. `t2d` is a bool mask over the target "
                 "vocab with DV entries set. The ids arange(DV) + d2t are strictly increasing, in [0, V), "
                 "and equal t2d's set positions; lm_head's rows follow that order."),
        engines=("vLLM loads d2t as draft_id_to_target_id, initialised to zeros: a checkpoint without d2t "
                 "maps draft id i to target id i, silently.",
                 "SGLang sets hot_token_id = d2t + arange(DV); both skip t2d."),
        goes_wrong=("No d2t with DV < V: acceptance collapses.",
                    "d2t written as absolute ids instead of offsets: ids out of range.",
                    "A d2t regenerated when fine-tuning from a checkpoint: lm_head rows no longer match."),
        codes=("SD301", "SD302", "SD303"),
        check_with=("perf_regression's vocab step",),
        sources=("https://github.com/NVIDIA-NeMo/Automodel/pull/2447", "https://github.com/sgl-project/SpecForge/pull/534"),
    ),
    Concept(
        name="eagle3",
        # The two SGLang flags of its engines line (EAGLE3.md, SGLang server_args.py) that name no
        # other concept: `explain --speculative-algorithm`, read off a launch line (the examples
        # of SD101 and SD103 in docs/findings.md), was "no such option".
        aliases=("eagle-3", "eagle 3", "eagle", "eagle3 draft", "draft model", "speculative decoding",
                 "speculation", "--speculative-algorithm", "speculative_algorithm", "speculative algorithm",
                 "--speculative-draft-model-path", "speculative_draft_model_path", "draft model path",
                 # "draft trained with 3 TTT steps" (SD101's example): the summary says what it is
                 "ttt", "training time test", "ttt steps"),
        summary=("Speculative decoding with a small draft head: one decoder layer that proposes the next "
                 "tokens from the target's own hidden states (three aux layers through fc) and the token "
                 "embedding; the target then verifies all proposals in one pass and keeps the prefix it "
                 "agrees with. It is trained with training-time test (its own outputs fed back for several "
                 "steps), so it can draft a chain."),
        engines=("SGLang: `--speculative-algorithm EAGLE3 --speculative-draft-model-path DRAFT`.",
                 "vLLM: `--speculative-config '{\"method\": \"eagle3\", \"model\": DRAFT, ...}'`.",
                 "Trainers: speculators (tensors `layers.0.*`), SpecForge and EAGLE (`midlayer.*`)."),
        goes_wrong=("Serving slower than without it: read the incident (`spec-debug demo`) and run "
                    "`spec-debug run perf_regression --host HOST`.",),
        codes=("SD103", "SD705", "SD709"),
        check_with=("spec-debug run perf_regression --host HOST", "spec-debug demo"),
    ),
    Concept(
        name="tree",
        aliases=("tree attention", "token tree", "speculative_token_tree", "draft tree", "tree decoding"),
        summary=("With topk > 1 SGLang drafts a tree: several candidates per step, of which the "
                 "num-draft-tokens − 1 most likely nodes are verified together with tree attention. More "
                 "chances per round, more tokens to verify."),
        engines=("SGLang: `--speculative-eagle-topk` > 1 and `--speculative-num-draft-tokens`.",
                 "vLLM: `speculative_token_tree` in `--speculative-config` (not audited by spec-debug)."),
        goes_wrong=("A tree on an attention backend that cannot run it: SGLang refuses to start.",),
        codes=("SD102",),
        check_with=("perf_regression's launch_flags step",),
    ),
    Concept(
        name="baseline",
        aliases=("no speculation baseline", "baseline throughput", "baseline_tok_s", "tok/s",
                 "decode throughput", "slowdown", "tok/s baseline"),
        summary=("The same server, model and concurrency without speculation. Speculation is only a fix "
                 "when it beats this number; compare decode throughput (tok/s) measured the same way."),
        engines=("SGLang logs `gen throughput (token/s)` on its Decode batch lines; vLLM "
                 "`Avg generation throughput`; both benchmarks print `Output token throughput (tok/s)`.",),
        goes_wrong=("Speculation slower than the baseline: the incident's 54.8 against 90 tok/s.",),
        codes=("SD501", "SD503"),
        check_with=("spec-debug run perf_regression --host HOST --var baseline_tok_s=90 --var server_log=PATH",),
    ),
    Concept(
        name="validation accuracy",
        aliases=("full_acc_0", "full_acc", "acc_0", "validation acc", "claimed accuracy", "claimed_accuracy",
                 "training accuracy", "standalone accuracy"),
        summary=("speculators logs `full_acc_k` per training-time-test step: how often the draft's top "
                 "token at step k matches the target's on validation data. Step 0's is the number people "
                 "quote (74.7% in the incident). It measures the draft on its training layout, not on "
                 "what the engine serves."),
        # eagle3/commands.py eval_command runs one --semantics per call; the probe of the
        # playbook step runs two (perf_regression.yaml drafter_eval, checks/drafter.py SD403)
        engines=("spec-debug drafter eval reports full_accuracy per step with speculators' forward "
                 "(`--semantics sglang` or `vllm`: the same weights run as that engine runs them, one "
                 "semantics a call); perf_regression's drafter_eval step runs the reference's and the "
                 "engine's side by side and reports the difference (SD403).",),
        goes_wrong=("High validation accuracy and slow serving: the serving path differs from training "
                    "(layers, order, norms, vocab map).",),
        codes=("SD401", "SD403"),
        check_with=("spec-debug drafter eval --model DRAFT --data HIDDEN_STATES",
                    "perf_regression's drafter_eval step with --var claimed_accuracy=0.747"),
    ),
    # What a new engineer types first (`explain sglang`, `explain rope`): the engines, the
    # trainers and two parts of the draft the codes name. Facts: ../shared/reference/EAGLE3.md
    # (section and line named beside each), codes: the steps of perf_regression that raise them.
    Concept(
        name="sglang",
        aliases=("sgl", "sglang server", "sglang.launch_server", "python -m sglang.launch_server"),
        summary=("One of the two serving engines spec-debug audits (vLLM is the other): the server that "
                 "runs the target and, with `--speculative-algorithm EAGLE3`, the draft inside it. How it "
                 "feeds the draft (which layers, which norm flags it reads, which tensor names it loads) "
                 "depends on its release, so spec-debug reads the release from the host and its rules from "
                 "a table by version (spec_debug/eagle3/engines.py)."),
        engines=(
            # EAGLE3.md section 4, lines 136-149
            "Launch flags: `--speculative-algorithm EAGLE3 --speculative-draft-model-path DRAFT` with "
            "`--speculative-num-steps`, `--speculative-eagle-topk` and `--speculative-num-draft-tokens` "
            "(`spec-debug explain num steps`).",
            # EAGLE3.md lines 109, 92-97
            "Captures the inputs of layers [2, N//2, N−3] by default; with ids in the draft config "
            "(`eagle_config.eagle_aux_hidden_state_layer_ids`, read from sglang 0.4.9) it adds 1 to them (its DeepSeek-family "
            "model files since PR 25454 only when the first id is 1; `spec-debug explain aux layers`).",
            "Holds the draft's first layer as `midlayer.*` and skips, without a word, every tensor name it "
            "does not know; sets hot_token_id = d2t + arange(DV); replaces the draft's embedding with the "
            "target's.",
            # eagle3/engines.py CONVENTIONS honoured_flags_* rows (test_hardening71 keeps them in step)
            "Reads none of speculators' norm flags before sglang 0.5.12; fc_norm and norm_output from "
            "0.5.12, norm_before_fc from 0.5.17 (PR 32334); norm_before_residual never.",
            "Logs `accept len` and `accept rate` on its `Decode batch` lines.",
        ),
        goes_wrong=(
            "`--speculative-num-steps 1`: one drafted token per round (the incident's first bug).",
            "A speculators checkpoint (`layers.0.*`) served as is: the decoder layer loads nothing and "
            "nearly nothing is accepted.",
            "A draft trained with a norm flag this release ignores runs another forward.",
            "An fp16 draft next to a bf16 target with no `--dtype`.",
        ),
        codes=("SD101", "SD102", "SD104", "SD202", "SD701", "SD709"),
        check_with=("perf_regression's launch_flags, engine and configs steps (`--var engine=sglang` where the "
                    "host cannot tell)",
                    "spec-debug run perf_regression --host HOST --var engine=sglang"),
        sources=("https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/models/llama_eagle3.py",
                 "https://github.com/sgl-project/sglang/pull/25454"),
    ),
    Concept(
        name="vllm",
        aliases=("vllm serve", "vllm.entrypoints.openai.api_server"),
        summary=("One of the two serving engines spec-debug audits (SGLang is the other). vLLM serves an "
                 "EAGLE-3 draft given in `--speculative-config`, or a speculators checkpoint directly "
                 "(`vllm serve DRAFT_DIR` takes the target from its config). How it reads the draft's "
                 "config depends on its release, so spec-debug reads the release from the host and its "
                 "rules from a table by version (spec_debug/eagle3/engines.py)."),
        engines=(
            # EAGLE3.md lines 151-154
            "Launch: `--speculative-config '{\"method\": \"eagle3\", \"model\": DRAFT, "
            "\"num_speculative_tokens\": K}'`; it drafts a chain of K tokens and verifies K + 1 positions.",
            # EAGLE3.md lines 110-111, 85, 89, 79-80
            "Captures the inputs of layers (2, N//2, N−3) by default; reads the draft config's "
            "`eagle_aux_hidden_state_layer_ids` from vllm 0.11.1 (some releases the nested `eagle_config` "
            "key too) and uses the ids raw (no + 1).",
            # eagle3/engines.py CONVENTIONS honoured_flags_speculators rows
            "Of a speculators config it reads `norm_before_residual` from vllm 0.10.1 (true when the key is "
            "missing), `norm_before_fc` from 0.19.0 (PR 38111), `fc_norm` and `norm_output` from 0.25.0 "
            "(PR 46488).",
            "Loads d2t as draft_id_to_target_id, initialised to zeros, and skips t2d.",
            "Logs `Mean acceptance length` in its SpecDecoding metrics.",
        ),
        goes_wrong=(
            "A draft with a smaller vocabulary and no d2t: draft ids are read as target ids 0..DV−1 and "
            "acceptance collapses.",
            "A head whose config names no aux layers falls back to the default ones (accept length 1.04 "
            "in vllm PR 50170).",
            "Positions past the draft's max_position_embeddings crash compiled vLLM.",
        ),
        codes=("SD101", "SD201", "SD203", "SD301", "SD701", "SD702"),
        check_with=("perf_regression's launch_flags, engine, configs and vocab steps (`--var engine=vllm` "
                    "where the host cannot tell)",
                    "spec-debug run perf_regression --host HOST --var engine=vllm"),
        sources=("https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/llama_eagle3.py",
                 "https://github.com/vllm-project/vllm/pull/50170", "https://github.com/vllm-project/vllm/pull/38111"),
    ),
    Concept(
        name="speculators",
        aliases=("speculators format", "speculators config", "speculators_config", "Eagle3SpeculatorConfig",
                 "Eagle3DraftModel"),
        summary=("vLLM's library for training speculative decoding drafts (vllm-project/speculators), "
                 "and spec-debug's reference: `spec-debug drafter eval` and the reference_forward step run "
                 "speculators' own EAGLE-3 forward, against which an engine's is compared. A speculators "
                 "checkpoint is config.json (`speculators_model_type` eagle3, `speculators_config`), config.py "
                 "and model.safetensors with tensors named `layers.0.*`."),
        engines=(
            # EAGLE3.md lines 22, 89, 32, 114
            "vLLM serves its checkpoints as written (`vllm serve DRAFT_DIR`); SGLang loads the EAGLE "
            "format (a flat LlamaForCausalLMEagle3 config, `midlayer.*`), not speculators' (SD711).",
            "Its config class defaults the norm flags to false, while its training recipe writes "
            "norm_before_residual true (and, for eagle3, norm_before_fc and norm_output true): read them "
            "from the checkpoint, never assume them.",
            "Defaults the aux layers to [2, N//2, N−3] (with a warning); its hidden-state dumps "
            "(`hs_{i}.safetensors`) hold the aux layers plus the final layer in the last slot.",
        ),
        goes_wrong=(
            "A multi-layer draft (speculators trains them) on an engine release that builds one layer.",
            "Norm flags the serving release does not read: the engine runs another forward than training.",
            "Its `layers.0.*` names served by SGLang, which loads none of them.",
            "Its config.json given to SGLang as it is: no SGLang release reads the format, and the server "
            "does not start; convert the draft (a flat LlamaForCausalLMEagle3 config, `midlayer.*`) or serve "
            "it with vLLM.",
        ),
        codes=("SD701", "SD601", "SD708", "SD709", "SD711", "SD401"),
        check_with=("perf_regression's configs, reference_forward and drafter_eval steps",
                    "spec-debug drafter eval --model DRAFT --data HIDDEN_STATES"),
        sources=("https://github.com/vllm-project/speculators", "https://github.com/vllm-project/speculators/pull/692"),
    ),
    Concept(
        name="specforge",
        aliases=("spec forge", "midlayer", "prepare_hidden_states"),
        summary=("SGLang's trainer for EAGLE-3 drafts (sgl-project/SpecForge). It writes drafts in the "
                 "EAGLE format (the first layer as `midlayer.*`, the aux layer ids nested under "
                 "`eagle_config`), its offline hidden states as `data_{i}.ckpt` files and its vocab map as "
                 "`vocab_mapping/vocab_mapping.pt`; `spec-debug drafter` reads all three."),
        engines=(
            # EAGLE3.md lines 115, 120, 110, 126
            "Captures the outputs of layers [1, N//2−1, N−4] by default (output-of ids), which SGLang turns "
            "into inputs of [2, N//2, N−3] by adding 1: the same tensors.",
            "vLLM reads the top-level `eagle_aux_hidden_state_layer_ids`; only some versions read "
            "SpecForge's nested key, and those use the ids raw: one layer too early.",
        ),
        goes_wrong=(
            "Output-of ids read as input-to ids: every aux layer shifted by one.",
            "A draft saved from the training wrapper's state dict (`draft_model.fc.weight`): the engines "
            "load none of its weights.",
            "A d2t regenerated when fine-tuning from a checkpoint: lm_head's rows no longer match it.",
        ),
        codes=("SD202", "SD201", "SD705", "SD303"),
        check_with=("perf_regression's configs, vocab and hidden_layout steps",
                    "spec-debug drafter vocab --model DRAFT --vocab-mapping vocab_mapping.pt"),
        sources=("https://github.com/sgl-project/SpecForge", "https://github.com/sgl-project/SpecForge/pull/534"),
    ),
    Concept(
        name="lm_head",
        aliases=("lm head", "lm_head.weight", "draft lm_head", "output head", "verifier_lm_head"),
        summary=("The draft's output layer: `lm_head.weight` [DV, H] turns the draft's state into logits over "
                 "its DV-token vocabulary. Its rows are the target's lm_head rows of the tokens t2d selects, in "
                 "ascending target-id order, so row i is target token i + d2t[i] (`spec-debug explain d2t`)."),
        engines=(
            # EAGLE3.md lines 25, 40, 79-80, 96
            "vLLM scatters the DV logits into the V-wide vocabulary at arange(DV) + d2t.",
            "SGLang loads lm_head from the target when the draft config has no `draft_vocab_size`.",
            "speculators initialises the draft's lm_head as the target's lm_head[t2d] and does not save "
            "`verifier_lm_head`.",
        ),
        goes_wrong=(
            "The config's draft_vocab_size differs from lm_head's rows.",
            "lm_head's rows and d2t built from different vocab maps (a d2t regenerated when fine-tuning): "
            "every drafted id names another token, and training accuracy hides it.",
        ),
        codes=("SD303", "SD302", "SD301"),
        check_with=("perf_regression's vocab step",
                    "spec-debug drafter vocab --model DRAFT --target TARGET"),
        sources=("https://github.com/sgl-project/SpecForge/pull/534",),
    ),
    Concept(
        name="rope",
        aliases=("rotary", "rotary embedding", "rope_theta", "rope_scaling", "rope_parameters", "yarn",
                 "max_position_embeddings", "context length", "--context-length", "--max-model-len",
                 "cos_sin_cache"),
        summary=("Rotary position embedding: how attention encodes each token's position, set by the "
                 "config's `rope_theta` and `rope_scaling` (YaRN and others stretch it to long context) "
                 "up to `max_position_embeddings`. The draft attends over the same positions as the "
                 "target, so its RoPE must be the target's, and its positions must reach the served "
                 "context length."),
        engines=(
            # EAGLE3.md line 184
            "vLLM sizes the draft's rotary cache (cos_sin_cache) from the draft's own config.",
            "The served context length is SGLang's `--context-length` or vLLM's `--max-model-len`.",
        ),
        goes_wrong=(
            # EAGLE3.md line 185
            "A converter that dropped `rope_scaling`: default RoPE at long context (speculators PR 574).",
            "The draft's rope_theta alone moved accept length between 2.39 and 2.50 (sfllm PR 32).",
            # EAGLE3.md line 184
            "A draft with max_position_embeddings 2048 served at a longer context: slower than the "
            "baseline past 2k tokens in SGLang, a crash in compiled vLLM.",
        ),
        codes=("SD703", "SD702"),
        # diagnose/steps/configs_step.py: the served context is the launch line's flag, else the
        # target's max_position_embeddings
        check_with=("perf_regression's configs step (the served context from `--context-length` or "
                    "`--max-model-len` on the launch line, else the target's max_position_embeddings)",),
        sources=("https://github.com/vllm-project/speculators/pull/574", "https://github.com/wejoncy/sfllm/pull/32",
                 "https://github.com/sgl-project/sglang/issues/6783", "https://github.com/vllm-project/vllm/issues/48894"),
    ),
    Concept(
        name="dtype",
        # `explain --dtype`, the flag SD104's fix names, was "no such option: --dtype"
        aliases=("--dtype", "torch_dtype", "fp16", "bf16", "float16", "bfloat16",
                 "mat1 and mat2 must have the same dtype"),
        summary=("The number format the weights are loaded and computed in (`torch_dtype` in a config.json: "
                 "bfloat16, float16). The draft and the target compute together every round, so they must "
                 "run in one dtype; drafts are often saved in float16 next to a bfloat16 target."),
        engines=(
            # diagnose/checks/launch_flags.py check_dtype; EAGLE3.md line 149
            "SGLang loads each model in its own config's dtype unless `--dtype` is given.",
            "vLLM builds the draft's model config with the target's dtype, whatever the draft's config says "
            "(vllm/config/speculative.py).",
        ),
        goes_wrong=(
            # EAGLE3.md line 187
            "An fp16 draft with a bf16 target on SGLang without `--dtype`: \"mat1 and mat2 must have the same "
            "dtype\" during CUDA-graph capture, or silent casts.",
        ),
        codes=("SD104",),
        check_with=("perf_regression's launch_flags step (the launch line's --dtype against both configs' "
                    "torch_dtype)",),
        sources=("https://github.com/sgl-project/sglang/pull/3431", "https://github.com/sgl-project/SpecForge/issues/348"),
    ),
)

LIST_WORDS = frozenset({"concepts", "concept", "glossary", "topics", "list", "index"})
"""`explain concepts` lists them all (`explain list`, `explain --list`, as a newcomer asks for the topics)."""


def normalise(text: str) -> str:
    """How a topic is matched: `--speculative-num-steps`, `speculative_num_steps` and `Speculative
    num steps` are one. EAGLE-3 is one word however it is written ("EAGLE-3 draft", the demo's
    and the papers' spelling, was no concept where "eagle3 draft" was)."""
    spaced = re.sub(r"\s+", " ", re.sub(r"[-_]+", " ", text.strip().lower())).strip()
    return _EAGLE_3.sub("eagle3", spaced) if "eagle" in spaced else spaced


_EAGLE_3 = re.compile(r"\beagle 3\b")


def _index() -> dict[str, Concept]:
    index: dict[str, Concept] = {}
    for concept in CONCEPTS:
        for word in (concept.name, *concept.aliases):
            index.setdefault(normalise(word), concept)
    return index


_INDEX = _index()


def find_concept(text: str) -> Concept | None:
    return _INDEX.get(normalise(text))


def close_concepts(text: str, n: int = 3) -> list[str]:
    """Concept names near ``text`` (a typo, a longer phrase), for a hint."""
    key = normalise(text)
    if not key:
        return []
    names: list[str] = []
    for match in difflib.get_close_matches(key, list(_INDEX), n=n * 2, cutoff=0.75):
        name = _INDEX[match].name
        if name not in names:
            names.append(name)
    # a question typed in words; two ("d2t extra") keep their hints, my_tree_check is a file name
    if not names and " " in text.strip() and key.count(" ") >= 2:
        names = _concepts_inside(key)
    return names[:n]


def _concepts_inside(key: str) -> list[str]:
    """The concepts whose name or alias stands whole among the words of a phrase: `explain
    'EAGLE-3 drafter'`, `'the d2t map'`, `'what is d2t'` were too long for any spelling to be near,
    and got the list of playbooks alone. Longest alias first (`vocab map` over `d2t`)."""
    words = key.split(" ")
    found: list[tuple[int, str]] = []
    for alias, concept in _INDEX.items():
        size = alias.count(" ") + 1
        if size < len(words) and any(words[i:i + size] == alias.split(" ") for i in range(len(words) - size + 1)):
            found.append((len(alias), concept.name))
    names: list[str] = []
    for _, name in sorted(found, key=lambda item: -item[0]):
        if name not in names:
            names.append(name)
    return names


def closest_spelling(key: str) -> float:
    """How close (difflib's ratio, 0..1) the nearest concept name or alias is to the normalised KEY."""
    return max((difflib.SequenceMatcher(None, key, word).ratio() for word in _INDEX), default=0.0)


def concept_as_dict(concept: Concept) -> dict:
    return asdict(concept)


def render_concept_markdown(concept: Concept, code_titles: dict[str, str]) -> str:
    """The concept as Markdown; ``code_titles`` the catalog's title of each code."""
    def bullets(items: tuple[str, ...]) -> str:
        return "\n".join(f"- {item}" for item in items)

    codes = "\n".join(f"- {code}: {code_titles.get(code, '')} (`spec-debug explain {code}`)" for code in concept.codes)
    # every spelling `explain` takes for it: the first six alone left out the ones a newcomer
    # meets in the other engine (vLLM's num_lookahead_tokens, layers_to_capture, --max-model-len)
    also = ", ".join(concept.aliases)
    return (
        f"# {concept.name}\n\n"
        f"Also written: {also}\n\n"
        f"{concept.summary}\n\n"
        f"## In the engines\n{bullets(concept.engines)}\n\n"
        f"## What goes wrong\n{bullets(concept.goes_wrong)}\n\n"
        f"## Finding codes\n{codes}\n\n"
        f"## Check it with\n{bullets(tuple(f'`{c}`' if c.startswith('spec-debug') else c for c in concept.check_with))}\n"
        + (f"\n## Sources\n{bullets(tuple(f'<{url}>' for url in concept.sources))}\n" if concept.sources else "")
    )


def render_concept_list() -> str:
    # All the spellings, as the index a newcomer searches (`explain concepts | grep lookahead`):
    # the first four alone hid the rest (eagle3's --speculative-algorithm among 12 not shown)
    # under a column that read as the whole list.
    rows = "\n".join(f"| {c.name} | {', '.join(c.aliases)} |" for c in CONCEPTS)
    return ("# Concepts `spec-debug explain` knows\n\n"
            "`spec-debug explain TOPIC` for one (a finding code or a playbook works too).\n\n"
            f"| concept | also written |\n|---|---|\n{rows}\n\n"
            # what else `explain` takes, by a command to copy: the list was the whole index a
            # newcomer got and named neither the playbooks, their steps nor the codes
            "Also: a shipped playbook (`spec-debug playbooks list` names them; `spec-debug explain perf_regression` "
            "walks through one), one of its steps (`spec-debug explain hidden_layout`), a finding code "
            "(`spec-debug explain SD101`; `spec-debug findings` lists them all).\n")
