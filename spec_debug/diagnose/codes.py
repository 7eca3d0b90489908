"""The finding catalog as data: one documented entry per code (the codes are a contract).

Each entry follows ruff's rule docs (astral-sh/ruff,
crates/ruff_linter/src/rules/pyflakes/rules/unused_import.rs): what it detects, why it hurts,
how to fix, an example, and the public issues/PRs the failure mode was seen in
(collected in ../shared/reference/EAGLE3.md sections 3, 4, 6, 7).
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_debug.record import Severity


@dataclass(frozen=True)
class FindingDoc:
    code: str
    severity: Severity
    """Default severity; a check may lower it (e.g. to info when the evidence is indirect)."""
    title: str
    detects: str
    why: str
    fix: str
    example: str
    sources: tuple[str, ...]
    area: str


SGLANG_SPEC_DOC = "https://github.com/sgl-project/sglang/blob/main/docs/advanced_features/speculative_decoding.md"
SGLANG_SERVER_ARGS = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/server_args.py"
SGLANG_EAGLE3_MODEL = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/models/llama_eagle3.py"
VLLM_EAGLE3_MODEL = "https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/llama_eagle3.py"
SPECULATORS_CORE = "https://github.com/vllm-project/speculators/blob/main/src/speculators/models/eagle3/core.py"
SPECULATORS_VOCAB = "https://github.com/vllm-project/speculators/blob/main/src/speculators/train/vocab_mapping.py"
LEVIATHAN = "https://arxiv.org/abs/2211.17192"

ENTRIES: tuple[FindingDoc, ...] = (
    # --- 0xx: the run itself (raised by the runner, not by a diagnostic) -----------------------
    FindingDoc(
        code="SD001",
        severity="error",
        area="runner",
        title="A step's expectation failed",
        detects="A playbook step whose `expect:` did not hold (or, with no expectations, a non-zero exit code), and that names no finding code of its own.",
        why="The playbook author said what healthy looks like and the host disagrees; the step's evidence holds the observed value and the last lines of output.",
        fix="Read the step's `why` (`spec-debug explain PLAYBOOK`) and its evidence; give the expectation a `finding:` with a specific code so the next report says what it means.",
        example="expect: [{that: facts.free_kb > 20000000}]   # observed 1048576",
        sources=(),
    ),
    FindingDoc(
        code="SD002",
        severity="warning",
        area="runner",
        title="A step timed out",
        detects="A step that ran past its `timeout:`; spec-debug killed the whole process tree on the host (locally or over SSH), or, when the remote shell never said its pid, says the command may still be running there and how to check. A fetch step whose listings and copies ran past its `timeout:` is given up the same way, keeping the files copied before.",
        why="The check the step stands for did not complete, so its absence of findings means nothing. Hangs on GPU hosts are themselves a symptom: a busy GPU, a stuck NFS mount, a server holding a lock.",
        fix="Raise the step's timeout if the work is legitimately long (a large layout probe), or find what hangs on the host; `--retry-failed RUN_DIR` re-runs the hosts where a step timed out.",
        example="- id: layout\n  probe: hidden_layout\n  timeout: 60    # 200 wide samples on CPU need longer",
        sources=(),
    ),
    FindingDoc(
        code="SD003",
        severity="warning",
        area="runner",
        title="A step could not run or its output could not be read",
        detects="A probe that failed on the host (an exception, no JSON), a capture that did not convert, a template that failed at run time, a fetch of a missing file, or a fetch whose files were over its size limit.",
        why="The diagnostic behind the step did not run, so the report is silent about what it checks.",
        fix="Fix the cause named in the evidence (a wrong path, a Python without torch for a drafter probe, a typo in a fact name) and run again; `--retry-failed RUN_DIR` re-runs only the hosts that failed or had a step that could not run.",
        example="probe drafter_eval failed on the host: ModuleNotFoundError: No module named 'torch'  ->  --var python=~/ml-env/bin/python",
        sources=(),
    ),
    FindingDoc(
        code="SD004",
        severity="info",
        area="runner",
        title="Steps were skipped because an input was not provided",
        detects="Steps whose `requires:` names a var that is empty, or a diagnostic that lacked an input it needs (a server log, hidden states, the engine's Python).",
        why="Nothing is wrong, but these checks did not run: a clean report with SD004 is a partial diagnosis.",
        fix="Provide what the title names after \"Not checked:\" (most often a `--var NAME=VALUE` on the `spec-debug run` line) and run again.",
        example="Not checked: provide --var server_log=... to run 1 more step(s)",
        sources=(),
    ),
    FindingDoc(
        code="SD005",
        severity="error",
        area="runner",
        title="The host could not be reached or the connection dropped",
        detects="A host that refused the connection, did not resolve, rejected every key, presented an unknown or changed host key, stalled in the handshake, or dropped the connection mid-run; also a login the ssh config refuses before any connect (as ssh(1) refuses it: ConnectionAttempts 0, no login name for a uid without a passwd entry).",
        why="Nothing on that host was checked; the other hosts of a fleet run finish regardless. The run exits with code 3.",
        fix="Check that `ssh HOST` works with the same ssh_config (`-F`); for an unknown host key, verify its fingerprint and pass `--accept-new`; re-run only this host with `--retry-failed RUN_DIR`.",
        example="gpu07: host key for gpu07 has CHANGED (SHA256:...): refusing to connect",
        sources=(),
    ),
    # --- 1xx: launch flags -------------------------------------------------------------
    FindingDoc(
        code="SD101",
        severity="error",
        area="launch flags",
        title="Speculation capped at one drafted token per round",
        detects=(
            "`--speculative-num-steps 1` on SGLang (or `num_speculative_tokens: 1` in vLLM's "
            "`--speculative-config`) while the draft was trained for more steps (its "
            "`speculators_config.proposal_methods[0].speculative_tokens`, or the TTT steps). For "
            "drafters with no trained depth (SGLang NGRAM/STANDALONE, vLLM ngram/suffix/draft_model) it "
            "is a warning: one step still caps the accept length at 2."
        ),
        why=(
            "With one step and topk 1 SGLang forces `--speculative-num-draft-tokens` to 2: each "
            "round can gain at most one token, so the accept length is capped at 2 whatever the "
            "drafter's quality, while every round still pays a draft pass and a wider verify. "
            "A good drafter then barely beats, or loses to, plain decoding."
        ),
        fix=(
            "Serve with the number of steps the draft was trained for, e.g. "
            "`--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4` "
            "(SGLang) or `\"num_speculative_tokens\": 3` (vLLM), then re-measure."
        ),
        example=(
            "python -m sglang.launch_server --model-path moonshotai/Kimi-K2.5 "
            "--speculative-algorithm EAGLE3 --speculative-draft-model-path ./k25-eagle3 "
            "--speculative-num-steps 1 --speculative-eagle-topk 1   # draft trained with 3 TTT steps"
        ),
        sources=(SGLANG_SPEC_DOC, "https://github.com/sgl-project/sglang/issues/3762"),
    ),
    FindingDoc(
        code="SD102",
        severity="warning",
        area="launch flags",
        title="Draft-token budget inconsistent with steps and topk",
        detects=(
            "`--speculative-num-draft-tokens` that SGLang will override (topk 1 and draft tokens "
            "!= steps + 1), that the draft tree cannot hold (draft tokens - 1 > topk + "
            "(steps - 1) * topk^2), that verifies fewer tree nodes than the steps drafted (with "
            "topk > 1, 1 draft token verifies the root alone: nothing drafted is ever accepted), "
            "or a partial setting that breaks auto-choose. Also, titled \"The engine refuses this "
            "launch command at startup\", a speculative setting the engine rejects when it starts "
            "(a tree on an attention backend that cannot draw it, a vLLM --speculative-config "
            "left without a draft because a later one replaced it), or a command its argument "
            "parser refuses (an option it does not have, an ambiguous abbreviation, a value that "
            "is not of the option's type, a --speculative-config that is not JSON). A refusal is reported as an "
            "error (a server that does not start), unless it hangs on what the audit cannot see "
            "(a plugin, the draft's config) or only the newer releases make it and the running "
            "one is not known. Titled \"The server runs this launch command without speculative "
            "decoding\" (a warning): a server that starts but drops the speculative settings, as "
            "KServe's huggingfaceserver drops `--speculative_config` (its parse_known_args keeps "
            "vLLM's dashed names only) or serves with `--backend huggingface` instead of vLLM, "
            "or as SGLang ignores `--speculative-*` settings given without `--speculative-algorithm`. "
            "Titled \"The server runs vLLM's default model, not the one written\" (an error): "
            "`vllm serve --served-model-name NAME MODEL ...` on a vLLM release before 0.17.0, whose "
            "--served-model-name takes every word up to the next flag, MODEL too, so the server starts "
            "with ModelConfig's default model under the name NAME."
        ),
        why=(
            "The server silently runs a different configuration from the one written in the "
            "launch command (SGLang rewrites draft tokens with only a log warning), so "
            "benchmarks and tuning are done against numbers that are not in effect; a tree "
            "budget larger than the candidate set wastes verify width or fails."
        ),
        fix=(
            "For chains (topk 1) set draft tokens = steps + 1. For trees keep "
            "steps + 1 <= draft tokens and draft tokens - 1 <= topk + (steps - 1) * topk^2. "
            "Either set all three of steps, topk and draft tokens, or none (auto-choose). For a "
            "refused command, make the change the evidence names."
        ),
        example="--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8   # runs as 4",
        sources=(SGLANG_SERVER_ARGS, SGLANG_SPEC_DOC),
    ),
    FindingDoc(
        code="SD103",
        severity="error",
        area="launch flags",
        title="Speculative algorithm does not match the draft checkpoint",
        detects=(
            "An EAGLE-3 checkpoint (speculators `eagle3`, `LlamaForCausalLMEagle3`, "
            "`Eagle3DraftModel`) launched with `--speculative-algorithm EAGLE` / vLLM "
            "`method: eagle` (or the reverse), or an EAGLE-3 launch whose draft is the target model "
            "itself (`\"model\"` of vLLM's speculative config, SGLang's `--speculative-draft-model-path`)."
        ),
        why=(
            "EAGLE and EAGLE-3 drafts take different inputs (one final hidden state vs the "
            "concatenation of three aux layers through `fc`). The wrong algorithm loads the "
            "wrong module: weights go missing silently or the shapes only fail at runtime."
        ),
        fix="Use `--speculative-algorithm EAGLE3` (SGLang) or `\"method\": \"eagle3\"` (vLLM) for EAGLE-3 drafts.",
        example="--speculative-algorithm EAGLE --speculative-draft-model-path ./llama3-eagle3-draft",
        sources=(SGLANG_SPEC_DOC, "https://docs.vllm.ai/en/latest/features/spec_decode.html"),
    ),
    FindingDoc(
        code="SD104",
        severity="warning",
        area="launch flags",
        title="Draft and target dtypes differ and no --dtype is set",
        detects="The draft's `torch_dtype` differs from the target's and the SGLang launch command sets no `--dtype` "
                "(vLLM always loads the draft in the target's dtype, so it is not flagged there).",
        why=(
            "Without an explicit dtype each model loads in its own. An fp16 draft next to a bf16 "
            "target fails with `mat1 and mat2 must have the same dtype` during CUDA-graph capture, "
            "or runs with silent casts."
        ),
        fix="Pass `--dtype bfloat16` (or the target's dtype) explicitly.",
        example="draft config torch_dtype=float16, target torch_dtype=bfloat16, no --dtype on the command line",
        sources=(
            "https://github.com/sgl-project/sglang/pull/3431",
            "https://github.com/sgl-project/SpecForge/issues/348",
        ),
    ),
    # --- 2xx: hidden-state layout ------------------------------------------------------
    FindingDoc(
        code="SD201",
        severity="error",
        area="hidden-state layout",
        title="Served aux layers differ from the trained ones",
        detects=(
            "The target layers the engine feeds the draft (from the draft config and the engine "
            "version's capture convention, or measured by the layout probe) differ in set or "
            "order from the layers the draft was trained on (a training dump whose slot the draft "
            "fits is exactly the embedding output, which the engine does not serve, counts). From "
            "the launch command alone: vLLM "
            "with EAGLE-3 and `--pipeline-parallel-size` / `-pp` above 1 before 0.30.0 (or with "
            "`VLLM_USE_V2_MODEL_RUNNER=0` after), where the aux states of the layers on the stages "
            "before the last never reach the drafter, which runs on the last."
        ),
        why=(
            "The draft's `fc` was trained on a specific concatenation of target hidden states. "
            "Different layers give it inputs from another distribution: acceptance collapses "
            "(public cases: AL 1.04 and 0.7x of plain decoding) without any error message. Fewer "
            "states than `fc` takes (the pipeline-parallel case) fail at startup or on the first "
            "request instead."
        ),
        fix=(
            "Write the trained ids into the draft config (`eagle_aux_hidden_state_layer_ids`, in "
            "the convention the engine version reads) or upgrade the engine; confirm with the "
            "layout probe on a serving-path dump. For vLLM pipeline parallelism: 0.30.0 or later "
            "on its default V2 model runner, or `-pp 1` with the GPUs as tensor parallelism."
        ),
        # Not the SpecForge [1, 29, 57] read raw by vLLM (outputs of 0, 28, 56): every layer one
        # off is SD202. A set that differs is the incident's (../shared/reference/INCIDENT.md).
        example="trained on cat([embed, layer3, layer31]); served cat([layer3, layer31, layer59])",
        sources=(
            "https://github.com/vllm-project/vllm/pull/50170",
            "https://github.com/vllm-project/vllm/pull/43671",
            "https://github.com/sgl-project/sglang/pull/25454",
            "https://github.com/lightseekorg/tokenspeed/pull/526",
            "https://github.com/vllm-project/vllm/issues/36151",
            "https://github.com/vllm-project/vllm/pull/50514",
        ),
    ),
    FindingDoc(
        code="SD202",
        severity="error",
        area="hidden-state layout",
        title="Served aux layers are the trained ones shifted by one (+1 convention)",
        detects=(
            "Every served layer is the trained layer shifted by exactly one: the engine and the "
            "trainer disagree on whether an id means the output of layer X or the input to "
            "layer X (SGLang's `[v+1 for v in ids]`, still in most of its model files)."
        ),
        why=(
            "Neighbouring layers are similar enough that drafts still look plausible, so this "
            "costs acceptance quietly (MiniMax-M2.5: position-0 acceptance 10% instead of 45%; "
            "Kimi-K2.5: -0.10 accept length) instead of failing loudly."
        ),
        fix=(
            "Rewrite the ids in the convention of the serving engine version and target (SGLang "
            "adds 1 to them; since PR #25454 its DeepSeek-family model files add 1 only when the "
            "first id is 1) or upgrade/downgrade the engine; never shift the ids by hand without "
            "checking which convention the trainer used."
        ),
        # Nested eagle_config ids: SGLang reads no other key, so a speculators config (top-level
        # ids) gets SGLang's default, not a shift (spec_debug.eagle3.engines, config_keys rows).
        example="eagle_config ids [2, 30, 58] (input-to) served by SGLang 0.5.12 on Kimi-K2.5 as [3, 31, 59]",
        sources=(
            "https://github.com/sgl-project/sglang/pull/25454",
            "https://github.com/vllm-project/vllm/pull/43671",
            "https://github.com/sgl-project/sglang/pull/32334",
        ),
    ),
    FindingDoc(
        code="SD203",
        severity="error",
        area="hidden-state layout",
        title="Draft config names no aux layers; the engine default differs from training",
        detects=(
            "The draft config has no `eagle_aux_hidden_state_layer_ids` (top level or in "
            "`eagle_config`), so the engine falls back to its default capture layers, and the "
            "trained layers (known from the training run, or from a misspelled key such as "
            "`eagle_aux_hidden_state_layer_id` that no engine reads) are different."
        ),
        why=(
            "The fallback is silent: the engine serves `[2, N//2, N-3]` and the draft sees "
            "layers it never saw in training (nvidia Llama-3.3-70B Eagle3: AL 1.04, 0.7x of "
            "baseline)."
        ),
        fix="Write the trained ids into the draft's config.json (`eagle_aux_hidden_state_layer_ids`).",
        # The ids say their convention: SpecForge's default [1, 39, 76] (output-of) for 80 layers
        # IS vLLM's (2, 40, 77) (input-to) (../shared/reference/EAGLE3.md section 3).
        example=("config.json without eagle_aux_hidden_state_layer_ids; trained on the inputs to layers "
                 "[10, 40, 70] (training dump layer_ids); vLLM serves its default, inputs to (2, 40, 77)"),
        sources=("https://github.com/vllm-project/vllm/pull/50170",),
    ),
    FindingDoc(
        code="SD204",
        severity="error",
        area="hidden-state layout",
        title="fc input width is not (number of aux layers) x (target hidden size)",
        detects=(
            "`fc.weight.shape[1]` differs from len(aux layer ids) * target hidden size; or the "
            "draft config sets `eagle_config.use_aux_hidden_state: false` while fc takes k x the "
            "target hidden size (k >= 2) inputs; or the draft config's hidden_size is not the "
            "width its weights were saved at (the engines build fc and every layer from it)."
        ),
        why=(
            "The engine concatenates one hidden state per aux layer; a width mismatch either "
            "crashes (GPT-OSS: 8640 vs 5760) or means the checkpoint was trained for another "
            "number of layers or another target. With `use_aux_hidden_state` false (an MTP or "
            "EAGLE-1 template's leftover) SGLang captures no aux layers and vLLM builds no fc: "
            "the draft gets the last hidden state unprojected, and acceptance collapses with no error."
        ),
        fix=(
            "Check the aux layer count and the target model. SGLang before 0.5.12 and vLLM before "
            "0.22.0 build fc for exactly 3 aux layers; later releases read `num_aux_hidden_states`, "
            "else the length of `eagle_config.eagle_aux_hidden_state_layer_ids`, else 3 "
            "(spec_debug.eagle3.engines). For a draft whose fc takes several hidden states, delete "
            "`use_aux_hidden_state` from `eagle_config` (both engines default to true)."
        ),
        example="fc.weight [2880, 8640] with 2 aux layers of a 2880-wide target",
        sources=(
            "https://github.com/sgl-project/sglang/pull/32334",
            "https://github.com/vllm-project/vllm/pull/46788",
        ),
    ),
    # --- 3xx: vocab maps ---------------------------------------------------------------
    FindingDoc(
        code="SD301",
        severity="error",
        area="vocab maps",
        title="Draft vocabulary smaller than the target's and no d2t in the checkpoint",
        detects="draft_vocab_size < target vocab size and the checkpoint carries no `d2t` tensor.",
        why=(
            "vLLM initialises `draft_id_to_target_id` to zeros, so draft id i is served as target "
            "id i: every proposal is a wrong token and acceptance collapses, silently."
        ),
        fix="Save `d2t` (offsets: target_id = i + d2t[i]) from the training vocab mapping into model.safetensors.",
        example="lm_head [32000, 7168], target vocab 129280, tensors: no d2t",
        sources=(
            "https://github.com/NVIDIA-NeMo/Automodel/pull/2447",
            "https://github.com/SafeAILab/EAGLE/issues/222",
            VLLM_EAGLE3_MODEL,
        ),
    ),
    FindingDoc(
        code="SD302",
        severity="error",
        area="vocab maps",
        title="d2t is not an offset table",
        detects=(
            "`d2t` fails the offset invariants: `arange(DV) + d2t` must be strictly increasing, "
            "lie in [0, V) and equal `t2d.nonzero()` (e.g. d2t holds absolute ids)."
        ),
        why=(
            "Engines compute target_id = i + d2t[i]. Absolute ids map draft id i to about 2i, "
            "out of range or onto the wrong token; a regenerated map misaligns lm_head rows."
        ),
        fix="Rebuild d2t as `sorted_selected_ids - arange(DV)` from the vocab mapping the lm_head was trained with.",
        example="d2t = [5, 9, 17, ...] (absolute) instead of [5, 8, 15, ...] (offsets)",
        sources=(
            "https://github.com/verl-project/verl-SpeCo/pull/67",
            "https://github.com/sgl-project/SpecForge/pull/534",
            SPECULATORS_VOCAB,
        ),
    ),
    FindingDoc(
        code="SD303",
        severity="error",
        area="vocab maps",
        title="Vocab maps, embedding or head rows do not match the vocabularies",
        detects="`t2d.shape[0]` or `embed_tokens.weight.shape[0]` differs from the target's vocab size, "
                "or the config's `draft_vocab_size` differs from the rows of `lm_head`.",
        why=(
            "The maps and embeddings were built for another tokenizer; token ids index the wrong "
            "rows (or out of range) on the serving path."
        ),
        fix="Rebuild the vocab maps for the served target's tokenizer and retrain or re-export the draft.",
        example="t2d [128256] with a target vocab of 129280",
        sources=(SPECULATORS_VOCAB,),
    ),
    # --- 4xx: standalone drafter ---------------------------------------------------------
    FindingDoc(
        code="SD401",
        severity="error",
        area="standalone drafter",
        title="Standalone accuracy far below the claimed validation accuracy",
        detects=(
            "The exact reference forward on the training hidden states scores far below the "
            "accuracy claimed at training time (position 0, full accuracy)."
        ),
        why=(
            "This happens outside the serving engine, so the problem is in the weights, the "
            "export/loader or the data, not in SGLang/vLLM: tuning the server cannot fix it."
        ),
        fix=(
            "Check the export (tensor names, `midlayer` vs `layers.0`, d2t), that the evaluated "
            "data is the training data, and the training metrics; retrain if the weights are bad."
        ),
        example="claimed full_acc_0 = 0.747, standalone full_accuracy[0] = 0.12",
        sources=(
            "https://github.com/sgl-project/SpecForge/issues/128",
            "https://github.com/vllm-project/speculators/issues/751",
            "https://github.com/sgl-project/SpecForge/pull/534",
        ),
    ),
    FindingDoc(
        code="SD402",
        severity="error",
        area="standalone drafter",
        title="Another hidden-state layout fits the drafter clearly better than the served one",
        detects=(
            "The layout probe (every order / choice of captured slots) ranks a layout clearly "
            "above the one the engine serves, e.g. the training data put the embedding output "
            "first while the engine feeds three decoder layers."
        ),
        why=(
            "The drafter is measured, not assumed: if it predicts much better from another "
            "concatenation, the serving path feeds it the wrong inputs."
        ),
        fix="Serve the layout the drafter was trained on (fix the aux ids or the capture code), or retrain on the served layout.",
        example="trained on cat([embed, layer3, layer31]); served cat([layer3, layer31, layer59])",
        sources=(
            "https://github.com/sgl-project/sglang/pull/25454",
            "https://github.com/vllm-project/vllm/pull/43671",
        ),
    ),
    FindingDoc(
        code="SD403",
        severity="warning",
        area="standalone drafter",
        title="The engine's semantics cost measurable acceptance",
        detects=(
            "Running the same weights the way the engine version does (e.g. ignoring "
            "`norm_before_residual` or `norm_before_fc`) lowers the standalone acceptance by a "
            "measurable margin compared with the reference forward."
        ),
        why="This is the price of an engine divergence in accept length, measured instead of guessed.",
        fix="Upgrade to an engine version that honours the flag, or retrain without the flag.",
        example="reference full_accuracy[0] 0.71, sglang semantics 0.52",
        sources=(
            "https://github.com/vllm-project/vllm/pull/38111",
            "https://github.com/vllm-project/vllm/pull/46488",
            "https://github.com/sgl-project/sglang/pull/32334",
        ),
    ),
    # --- 5xx: throughput ---------------------------------------------------------------
    FindingDoc(
        code="SD501",
        severity="error",
        area="throughput",
        title="Decode throughput below the no-speculation baseline",
        detects="Measured decode tok/s with speculation is below the baseline without it.",
        why="Speculation is supposed to be a free speedup; below baseline it costs GPU time for nothing.",
        fix="Read the other findings for the cause (flags, layers, vocab, draft cost); until fixed, serve without speculation.",
        example="54.8 tok/s with EAGLE-3 vs 90 tok/s baseline",
        sources=(
            "https://github.com/vllm-project/vllm/pull/50170",
            "https://github.com/sgl-project/SpecForge/issues/339",
        ),
    ),
    FindingDoc(
        code="SD502",
        severity="error",
        area="throughput",
        title="Observed accept length far below what standalone acceptance predicts",
        detects=(
            "The accept length in the server log is far below the chain/tree expectation "
            "computed from the drafter's standalone per-position acceptance."
        ),
        why=(
            "The weights are fine on the training data, so the loss is on the serving path: "
            "inputs (layers, layout), flags, vocab maps or the engine's forward."
        ),
        fix="Compare the serving path with the training path: aux layers, layout probe on a serving dump, engine semantics.",
        example="standalone predicts AL 2.9 at 3 steps; server logs accept len 1.3",
        sources=(
            "https://github.com/vllm-project/vllm/issues/26191",
            "https://github.com/vllm-project/vllm/pull/43671",
        ),
    ),
    FindingDoc(
        code="SD503",
        severity="warning",
        area="throughput",
        title="Speculation cannot pay off here even at the measured acceptance",
        detects=(
            "The throughput model (Leviathan et al. Theorem 3.8: speedup = "
            "(1 - a^(K+1)) / ((1 - a)(Kc + 1))) predicts no speedup at the measured acceptance "
            "because the draft pass costs too much relative to a target step (c). Info, explained "
            "by them, where an error reported before lowers the acceptance it is judged at: SD704, "
            "SD402, SD302 or SD303 for the standalone evaluation's, any serving-path error for the "
            "server's."
        ),
        why=(
            "Break-even needs AL > 1 + K*c: with a small or sparse (MoE) target or large batches "
            "the draft is too expensive, and no amount of debugging will make it pay."
        ),
        fix="Use fewer steps, a cheaper draft, or no speculation for this target/batch size.",
        example="Qwen3-30B-A3B: AL 1.86 at (3,1,4) gives 159.8 tok/s vs 222.5 baseline",
        sources=(
            LEVIATHAN,
            "https://github.com/sgl-project/SpecForge/issues/339",
            "https://github.com/sgl-project/sglang/issues/14824",
        ),
    ),
    # --- 6xx: forward pass -------------------------------------------------------------
    FindingDoc(
        code="SD601",
        severity="error",
        area="forward pass",
        title="Reference and engine draft forward differ in a step this checkpoint uses",
        detects=(
            "The eagle3 forward of the reference installed on the host (speculators, read from "
            "its source with `ast`) and the engine's draft forward (read from its source) differ "
            "in an operation this checkpoint enables (a norm flag, the concat order, the fc "
            "input norm)."
        ),
        why=(
            "The weights only predict well under the forward they were trained with; any "
            "divergence in a used step changes every drafted token."
        ),
        fix="Serve with an engine version whose forward implements the step, or retrain without the flag.",
        example="speculators: `if norm_before_residual: residual = hidden_norm(h)`; SGLang midlayer: residual = h always",
        sources=(SPECULATORS_CORE, SGLANG_EAGLE3_MODEL, VLLM_EAGLE3_MODEL),
    ),
    # --- 7xx: draft config -------------------------------------------------------------
    FindingDoc(
        code="SD701",
        severity="error",
        area="draft config",
        title="The checkpoint sets a norm flag the engine version ignores",
        detects=(
            "`norm_before_residual`, `norm_before_fc`, `fc_norm` or `norm_output` is true in "
            "the draft config and the serving engine version does not implement it; or a flag is "
            "written under a misspelled key (`norm_before_residul`), which speculators and every "
            "engine ignore (info when the engine's default happens to be the value written)."
        ),
        why=(
            "The engine silently runs a different network (no pre-fc RMSNorm, norm after the "
            "residual...): acceptance drops with no error (vLLM before PR #38111 with "
            "norm_before_fc; SGLang before PR #32334)."
        ),
        fix="Upgrade the engine to a version that reads the flag, or retrain with the flag off.",
        example="draft config norm_before_fc: true, SGLang llama_eagle3.py without input_norm",
        sources=(
            "https://github.com/vllm-project/vllm/pull/38111",
            "https://github.com/vllm-project/vllm/pull/46488",
            "https://github.com/sgl-project/sglang/pull/32334",
        ),
    ),
    FindingDoc(
        code="SD702",
        severity="warning",
        area="draft config",
        title="Draft max_position_embeddings below the serving context length",
        detects="The draft's `max_position_embeddings` is smaller than the served context length.",
        why=(
            "Beyond the draft's positions acceptance falls (slower than baseline above 2k "
            "tokens) or compiled vLLM crashes (cos_sin_cache sized from the draft config)."
        ),
        fix=("Train/export the draft with the serving context length, or cap the served context at "
             "the draft's `max_position_embeddings`: `--context-length N` (SGLang) or "
             "`--max-model-len N` (vLLM)."),
        example="draft max_position_embeddings 2048, --context-length 32768",
        sources=(
            "https://github.com/sgl-project/sglang/issues/6783",
            "https://github.com/vllm-project/vllm/issues/48894",
            "https://github.com/SafeAILab/EAGLE/issues/311",
        ),
    ),
    FindingDoc(
        code="SD703",
        severity="warning",
        area="draft config",
        title="Draft RoPE differs from the target's",
        detects="The draft's `rope_theta` or `rope_scaling` differs from the target's.",
        why=(
            "The draft attends over the same positions as the target; other rotary frequencies "
            "(or dropped YaRN scaling) degrade acceptance, most at long context."
        ),
        fix="Copy rope_theta and rope_scaling from the target into the draft config (and train with them).",
        example="target rope_scaling {type: yarn, factor: 32}, draft rope_scaling null",
        sources=(
            "https://github.com/vllm-project/speculators/pull/574",
            "https://github.com/wejoncy/sfllm/pull/32",
            "https://github.com/NVIDIA-NeMo/Automodel/pull/2399",
        ),
    ),
    FindingDoc(
        code="SD704",
        severity="error",
        area="draft config",
        title="Draft config does not match its weights",
        detects=(
            "A shape key of the draft's config.json (num_attention_heads, num_key_value_heads, "
            "head_dim, intermediate_size, num_hidden_layers, attention_bias, mlp_bias, and "
            "model_type where it decides Qwen3's q_norm/k_norm; in `transformer_layer_config` "
            "for a speculators draft) that the shapes in the draft's safetensors headers "
            "contradict (q/k/v/o_proj, gate/up/down_proj, their biases, the decoder layers "
            "stored; from the shards an index names). Only tensor headers are read; packed "
            "4-bit weights are compared by layer count alone. Also norm_before_fc and fc_norm "
            "against the norms speculators builds only under them (input_norm.weight, "
            "fc_norm.N.weight): a flag dropped from a config whose weights hold the norm, or "
            "set over weights without it. And norm_before_residual, which no tensor shows: "
            "the layout probe scores the training dump with it both ways, and the other value "
            "fits the weights clearly better. A key absent from a speculators draft's "
            "`transformer_layer_config` counts as the transformers class default speculators "
            "builds (num_hidden_layers: 32). A hidden_size that is not the weights' width is SD204. "
            "Also, titled \"The draft config has no speculators_config: vLLM does not load it\", "
            "a speculators config (speculators_model_type, transformer_layer_config) whose "
            "`speculators_config` was taken out or set to null (a hand edit removing the training "
            "host's verifier path): vLLM reads a config without model_type as speculators' only by "
            "that key, and transformers' AutoConfig stops with \"Unrecognized model in <dir>\"; "
            "speculators' from_pretrained stops on the missing verifier (not said for SGLang). "
            "And, as a warning titled \"The draft config names a decoder type speculators does "
            "not build\", a speculators `transformer_layer_config.model_type` other than llama or "
            "qwen3 (the target's `mistral` or `qwen2` copied in) over weights holding a Llama layer "
            "(no projection bias, no q_norm/k_norm): speculators stops loading it (KeyError) and so "
            "do the drafter steps, while vLLM builds its Llama EAGLE-3 layer whatever the key says."
        ),
        why=(
            "vLLM and SGLang build the draft's layers from the config and then load the weights "
            "into them: a config edited by hand or copied from another draft fails the load on a "
            "shape, or serves another network (a stored layer or bias the config leaves out is "
            "skipped). The drafter evaluation refuses such a draft too, so without this code the "
            "run showed only steps that could not run."
        ),
        fix=(
            "Set each named key to the value the weights imply (or put the config.json saved "
            "with these weights beside them), restart the server, and check the acceptance rate "
            "again."
        ),
        example=(
            "transformer_layer_config.num_attention_heads is 8, the weights imply 4 "
            "(layers.0.self_attn.q_proj.weight is [32, 64], the config implies [64, 64])"
        ),
        sources=(SPECULATORS_CORE, VLLM_EAGLE3_MODEL, SGLANG_EAGLE3_MODEL),
    ),
    FindingDoc(
        code="SD705",
        severity="error",
        area="draft config",
        title="Draft tensors are named as a training wrapper held them",
        detects=(
            "Draft tensors stored under a training wrapper's prefix (`draft_model.fc.weight` "
            "from SpecForge's OnlineEagle3Model, `module.` from DDP, `_orig_mod.` from "
            "torch.compile), as a training loop that saves the wrapper's state_dict leaves "
            "them; read from the draft's safetensors headers. SGLang's own `model.` names "
            "(`model.fc.weight`) are this code only when vLLM serves the draft: SGLang loads "
            "them, vLLM adds `model.` itself and fails on `model.model.*`; so are `model.` "
            "names beside a bare `fc.weight`."
        ),
        why=(
            "vLLM and SGLang look the draft's weights up by their bare names (`fc.weight`, "
            "`midlayer.*`, and in vLLM also `layers.0.*`: SD709): vLLM fails to load the draft, and SGLang skips "
            "every name it does not know without a word and serves a draft none of whose "
            "weights were loaded, so nearly nothing is accepted. The drafter evaluation reads "
            "the weights from under the prefix and measures a draft the server never runs."
        ),
        fix=(
            "Rename the tensors without the prefix (in the draft directory: `python -c \"import "
            "glob; from safetensors.torch import load_file, save_file; [save_file({k.removeprefix("
            "'draft_model.'): v for k, v in load_file(f).items()}, f, metadata={'format': 'pt'}) "
            "for f in glob.glob('*.safetensors')]\"`, and the same in a "
            "model.safetensors.index.json), restart the server, and check the acceptance rate "
            "again."
        ),
        example=(
            "the draft's tensors are stored under 'draft_model.' (draft_model.fc.weight, ... 13 "
            "tensors: a training wrapper's state dict): vLLM fails to load them, SGLang skips "
            "every name it does not know and serves the draft without its weights"
        ),
        sources=(VLLM_EAGLE3_MODEL, SGLANG_EAGLE3_MODEL,
                 "https://github.com/sgl-project/SpecForge/blob/main/specforge/core/eagle3.py"),
    ),
    FindingDoc(
        code="SD706",
        severity="error",
        area="draft config",
        title="Draft config names an MLP activation the engines cannot build",
        detects=(
            "The draft decoder's `hidden_act` (speculators: `transformer_layer_config.hidden_act`; "
            "EAGLE/SpecForge: the top-level key) is not `silu`, as a config copied from a target "
            "with another activation (`gelu_pytorch_tanh`) leaves it. speculators and SpecForge "
            "train such a draft with that activation (transformers ACT2FN)."
        ),
        why=(
            "vLLM and SGLang build the EAGLE-3 draft's layers from their Llama decoder layer, "
            "whose LlamaMLP raises `Unsupported activation: ... Only silu is supported for now.` "
            "for any other value: the server does not start with this draft."
        ),
        fix=(
            "A draft trained with SiLU: set `hidden_act` to \"silu\" in its config.json. A draft "
            "trained with another activation cannot be served by these engines: train it again "
            "with `hidden_act: silu`."
        ),
        example=(
            "transformer_layer_config.hidden_act is 'gelu_pytorch_tanh': vLLM's and SGLang's "
            "LlamaMLP build only silu and refuse to load the draft"
        ),
        sources=(VLLM_EAGLE3_MODEL, SGLANG_EAGLE3_MODEL,
                 "https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/models/llama.py"),
    ),    FindingDoc(
        code="SD707",
        severity="error",
        area="draft config",
        title="Draft config writes its aux layer ids as strings",
        detects=(
            "The draft's `eagle_aux_hidden_state_layer_ids` (top level, or SpecForge's nested "
            "`eagle_config`) holds strings (`[\"2\", \"16\", \"29\"]`) or is one string "
            "(`\"2,16,29\"`), as a config written by a template or a shell script leaves them."
        ),
        why=(
            "SGLang adds 1 to each id (`set_eagle3_layers_to_capture`) and fails to start with a "
            "TypeError. vLLM takes them as they are and captures a target layer when its integer "
            "index is among them: never, so the draft runs without the aux hidden states it was "
            "trained on. speculators reads a list of digit strings as integers but refuses "
            "one comma-joined string (\"Input should be a valid list\")."
        ),
        fix=(
            "Write the ids as JSON integers (`\"eagle_aux_hidden_state_layer_ids\": [2, 16, 29]`) "
            "in the draft's config.json and restart the server."
        ),
        example=(
            "eagle_aux_hidden_state_layer_ids is [\"2\", \"16\", \"29\"], strings: SGLang adds 1 "
            "to each and does not start (TypeError), vLLM compares each target layer's index "
            "with them and captures none, so the draft gets no aux hidden states"
        ),
        sources=("https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/models/llama.py",
                 "https://github.com/vllm-project/vllm/blob/main/vllm/v1/worker/gpu/spec_decode/eagle/eagle3_utils.py"),
    ),
    FindingDoc(
        code="SD708",
        severity="error",
        area="draft config",
        title="Draft has more decoder layers than the engine release builds",
        detects=(
            "The draft config's `num_hidden_layers` (speculators: `transformer_layer_config."
            "num_hidden_layers`) is above 1, as speculators trains a multi-layer EAGLE-3 draft, "
            "and the serving release's llama_eagle3.py builds a single decoder layer: SGLang "
            "before 0.5.12, vLLM before 0.11.1."
        ),
        why=(
            "SGLang before 0.5.12 refuses the draft at startup (\"EAGLE3 currently only supports "
            "1 layer\"); vLLM before 0.11.1 builds one layer and fails loading the checkpoint's "
            "`layers.1.*` (KeyError). The server does not start with this draft."
        ),
        fix=(
            "Serve it with SGLang >= 0.5.12 or vLLM >= 0.11.1, which build every layer the config "
            "names, or train a one-layer draft. Setting num_hidden_layers to 1 is no fix: the "
            "layers after the first, which the draft was trained with, would be dropped."
        ),
        example=(
            "transformer_layer_config.num_hidden_layers is 2: sglang 0.5.11 builds one EAGLE-3 "
            "decoder layer and does not start with this draft"
        ),
        sources=(SGLANG_EAGLE3_MODEL, VLLM_EAGLE3_MODEL),
    ),
    FindingDoc(
        code="SD709",
        severity="error",
        area="draft config",
        title="SGLang serves a draft whose layers it does not load",
        detects=(
            "SGLang serves a draft whose config names `LlamaForCausalLMEagle3` (the EAGLE "
            "format, e.g. a speculators draft's config flattened by hand) and whose decoder "
            "layers are stored under speculators' names, `layers.0.*` (and `layers.1.*`, ... "
            "for a multi-layer draft), bare or under `model.`, with no `midlayer.*` beside "
            "them; read from the draft's safetensors headers. vLLM loads these names (its load_weights maps `midlayer.` to "
            "`layers.0.`); SGLang holds the layers as `midlayer.*` and `additional_layers.*`."
        ),
        why=(
            "SGLang's LlamaForCausalLMEagle3.load_weights loads a name only when it, or `model.` "
            "+ it, is a parameter, and skips the rest without a word: fc, norm, lm_head and "
            "embed_tokens load, the decoder layers keep their initial weights, the server starts "
            "and nearly nothing is accepted. The drafter evaluation reads the layers and "
            "measures a draft the server never runs."
        ),
        fix=(
            "Rename `layers.0.` to `midlayer.` in the draft's safetensors files (and its "
            "model.safetensors.index.json); for later layers, `layers.{i}.` to "
            "`additional_layers.{i-1}.` with `input_layernorm` as `hidden_norm`. vLLM loads the "
            "renamed draft too. Restart the server and check the acceptance rate again."
        ),
        example=(
            "the draft's decoder layers are stored as layers.N.* (layers.0.hidden_norm.weight, "
            "... 10 tensors: speculators' names); SGLang's LlamaForCausalLMEagle3 holds them as "
            "midlayer.* (and additional_layers.*) and skips every name it does not know"
        ),
        sources=(SGLANG_EAGLE3_MODEL, VLLM_EAGLE3_MODEL),
    ),
    FindingDoc(
        code="SD710",
        severity="error",
        area="draft config",
        title="The draft's weight index names no file that is there",
        detects=(
            "The draft directory holds a `model.safetensors.index.json` none of whose shards "
            "is there, beside the single `model.safetensors` that holds the weights: what "
            "save_pretrained leaves when a draft saved sharded is saved again whole into the "
            "same folder (it removes the old shards, not the index). transformers, so "
            "speculators and the drafter evaluation, read the single file. `analyze` also "
            "gives it for a transcript whose engine stopped with \"Cannot find any model "
            "weights with <draft dir>\" for the draft where the session also listed that "
            "folder's stale index beside the single file: the same refusal comes from a draft "
            "folder that holds no weight file at all (no *.safetensors, *.bin or *.pt: a save "
            "that failed, the wrong folder), so the refusal alone is no finding. The configs "
            "step of `diagnose` gives it for that folder too, read from its listing: no "
            "*.safetensors, and no *.bin or *.pt but the trainer files the engines skip (an "
            "empty save, only a `.pth` or Lightning `.ckpt`, FSDP's torch.distributed.checkpoint "
            "shards `__0_0.distcp`), titled \"The draft folder holds no weight file the engines "
            "load\" (the eval, vocab and hidden_layout steps say it from their probes where no configs step "
            "ran, as in `drafter_accuracy`), and for a weight file the engines load whose safetensors header cannot be "
            "read (a git-lfs pointer never pulled, an empty file, a copy cut short), titled \"A "
            "draft weight file the engines load cannot be read\": both engines open each file "
            "with safetensors' safe_open, which stops with \"Error while deserializing header\" "
            "(from the eval, vocab and hidden_layout probes too, a pointer's fix `git lfs pull` first). "
            "The configs step (from its listing, saying it compared no shapes) or else the eval, "
            "vocab and hidden_layout steps give it, titled \"A shard the draft's weight "
            "index names is not there\", for a sharded draft copied or downloaded without one of "
            "the shards its index names (the first step that sees it): vLLM loads the shards "
            "that are there and stops with \"Following weights "
            "were not initialized from checkpoint\" (model_loader/default_loader.py)."
        ),
        why=(
            "vLLM and SGLang keep only the weight files the index names "
            "(model_loader/weight_utils.py filter_duplicate_safetensors_files): none is left, "
            "and the server stops with \"Cannot find any model weights with <draft dir>\". "
            "The evaluation measured weights the engine cannot load."
        ),
        fix=(
            "Delete the stale index beside the single weight file (or save the draft again "
            "into an empty folder), then start the server again. A folder with no "
            "model.safetensors either (`ls <draft dir>`) holds no weights: point the server "
            "at the folder the draft was saved to. A folder that holds the weights in another "
            "form: save them as model.safetensors beside config.json (FSDP shards: `accelerate "
            "merge-weights <shard dir> <draft dir>`)."
        ),
        example=(
            "draft/model.safetensors.index.json names model-00001-of-00002.safetensors, which "
            "is not there; draft/model.safetensors holds the weights"
        ),
        sources=("https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/model_loader/default_loader.py",
                 "https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/model_loader/weight_utils.py",
                 "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/model_loader/loader.py"),
    ),
    FindingDoc(
        code="SD711",
        severity="error",
        area="draft config",
        title="SGLang cannot load a speculators-format draft",
        detects=(
            "A launch command that runs SGLang with a draft whose config.json is in speculators' "
            "format (`speculators_model_type` \"eagle3\", the decoder's config under "
            "`transformer_layer_config`, `architectures` [\"Eagle3DraftModel\"] or "
            "[\"Eagle3Speculator\"]) with no top-level `model_type`, as speculators' "
            "save_pretrained writes it; read from the draft's config.json. Not given where the "
            "server's log shows it drafting (accept lengths): a release that reads the format "
            "serves it. vLLM reads the format (from 0.10.1; an older vLLM is SD102)."
        ),
        why=(
            "No SGLang release reads speculators' format: SGLang builds the draft's config with "
            "transformers' AutoConfig, which stops on a config.json without `model_type` "
            "(\"ValueError: Unrecognized model in <draft dir>. Should have a `model_type` key in "
            "its config.json\"; transformers 4 first tries the model types named in the path), "
            "and picks the draft's class by `architectures`, where it has "
            "LlamaForCausalLMEagle3 and not speculators' classes (\"Model architectures "
            "['Eagle3DraftModel'] are not supported for now\"). The server does not start "
            "(sgl-project/sglang#18216)."
        ),
        fix=(
            "Serve the draft with vLLM (`--speculative-config '{\"method\": \"eagle3\", "
            "\"model\": \"<draft dir>\", ...}'`), which reads the format, or convert it for "
            "SGLang: a flat llama config.json (`\"architectures\": [\"LlamaForCausalLMEagle3\"]`, "
            "`\"model_type\": \"llama\"`, the keys of `transformer_layer_config` at the top level, "
            "`draft_vocab_size`, and the trained aux ids as `eagle_config."
            "eagle_aux_hidden_state_layer_ids`, the key SGLang reads: SD201) and the decoder "
            "layer's tensors renamed from `layers.0.` to `midlayer.` (SD709)."
        ),
        example=(
            "the draft (/models/llama-eagle3) is in speculators' format (speculators_model_type "
            "eagle3, no model_type): SGLang builds its config with transformers' AutoConfig "
            "(\"Unrecognized model in /models/llama-eagle3. Should have a `model_type` key in its "
            "config.json\") and has no class Eagle3DraftModel: the server does not start"
        ),
        sources=("https://github.com/sgl-project/sglang/issues/18216",
                 "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/utils/hf_transformers_utils.py",
                 "https://github.com/huggingface/transformers/blob/main/src/transformers/models/auto/configuration_auto.py",
                 SGLANG_EAGLE3_MODEL,
                 "https://github.com/vllm-project/vllm/tree/main/vllm/transformers_utils/configs/speculators"),
    ),
)
