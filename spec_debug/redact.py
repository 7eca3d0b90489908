"""Redact secrets before anything reaches run.json or a report.

Engineers paste launch commands with `--api-key`, environments with `HF_TOKEN=...`, and the
odd private key; incident reports get pasted into channels. Redaction is on by default.
"""

from __future__ import annotations

import base64
import functools
import re
import uuid
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from collections.abc import Iterator, Mapping
from typing import Any, Callable

MASK = "***REDACTED***"

# A tokenizer's special tokens are named like secrets and are evidence, not secrets:
# tokenizer_config.json and special_tokens_map.json hold "eos_token": "<|eot_id|>" (transformers
# src/transformers/tokenization_utils_base.py, SPECIAL_TOKENS_ATTRIBUTES).
_TOKENIZER_TOKENS = (r"(?:(?:bos|eos|unk|sep|pad|cls|mask|additional[_-]?special|im[_-]?start|im[_-]?end|eot|eom)[_-]?tokens?"
                     r"|(?:max|min|num|total)[_-]?(?:(?:new|input|output|prompt|draft|gen)[_-]?)?tokens?"
                     r"|(?:next|prev|previous|first|last|current|cur|draft|target|input|output|accepted|rejected"
                     r"|generated|sampled|predicted|bonus)[_-]?tokens?|(?:next[_-]?)?page[_-]?tokens?)(?:[_-]?\d{1,3})?")
"""Names with "token" that hold no secret: a tokenizer's special tokens, a count of tokens
(`--max-token 512`, `MAX_NEW_TOKEN="512"`: a launch command's limit, masked, read ***REDACTED***),
and a token of the sequence a speculative-decoding session prints and compares (`next_token =
logits.argmax(-1)`, a dump's {"draft_token": "▁the", "target_token": "▁a"}); numbered as a
secret's name may be (`pad_token_2`), as the patterns read a name. Not `new_token`: a rotated
credential is named so as often as a generated token. Spelt in camelCase too, as a JS client or a
JSON dump writes them (`maxNewTokens`, `nextToken`, `draftToken`, `eosToken`: is_secret_name reads
`next_Token`, the text patterns the name as written). And a list call's page cursor (`page_token`,
`next_page_token`: google.aip.dev/158, "Pagination"; AWS's `NextToken`): an opaque offset, no credential.
Spelt with hyphens too, as a command line's flags are (`--next-token 42`, `--eos-token "</s>"`,
`--im-start-token`): is_secret_name and the flag patterns read `next-token` as a secret's name."""

# Every run of name characters is bounded and anchored at its start: output is full of long
# runs of them (a line of 100,000 dashes, base64url blobs), and an unbounded `[A-Z0-9_-]*`
# tried at every position of such a run backtracks quadratically (16 kB of "a-a-a-" took 12 s).

# Each pattern names the secret itself `secret`; what is around it (the variable name, the
# flag, the URL) stays, so a reader still sees what was there.
_SUDO_S = (r"sudo\b(?:\s+(?:-[A-Za-z]*[CDgpRrTtUu]\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s;|&]+)"
           r"|--(?:user|group|prompt|chdir|chroot|close-from|host|role|type|command-timeout|other-user)[= ]\S+"
           r"|-[A-Za-z]+|--[a-z-]+(?:=\S+)?))*?\s+(?:-[A-Za-z]*S[A-Za-z]*\b|--stdin\b)")
"""A sudo that reads its password from standard input (sudo(8): -S, --stdin), the -S among
sudo's own options: those before the command, with the arguments of the ones that take one
(-u USER, -p PROMPT, ...). An -S of the command (`sudo ls -lS`) is the command's: what is piped
into that sudo is the command's input, no password."""

_SHELL_REFERENCE = r"(?!\"?(?-i:\$[({]|\$[A-Z_][A-Z0-9_]{0,64}(?![A-Za-z0-9_])|`))"
"""Not a value the shell fills in: `$(cat ~/.cache/huggingface/token)`, `${HF_TOKEN}`, `$HF_TOKEN`
(an environment name, upper case as POSIX names them: XBD 8.1; case-sensitive inside the patterns'
(?i)), a backquoted command, bare or in double quotes. It is how a session keeps a secret off its
command line (vLLM's docs send `-H "Authorization: Bearer $VLLM_API_KEY"`), and what a postmortem
of "the token was not set" is about: masked, `export HF_TOKEN=$(cat FILE)` read
`HF_TOKEN=***REDACTED*** FILE)` (the mask ended at the first space) and `HF_TOKEN=$HF_TOKEN` hid
that it was a reference. `$ecret` and `'$X'` (single quotes keep it literal) are still masked."""

_TEMPLATE_REFERENCE = (r"(?!(?:\"\{\{\{?(?:(?!default)[^{}\"\n]){1,200}\}\}\}?\"|'\{\{\{?(?:(?!default)[^{}'\n]){1,200}\}\}\}?'"
                       r"|\{\{\{?(?:(?!default)[^{}\n]){1,200}\}\}\}?)(?:[\s\"',;)}\]]|\Z))")
"""Not a template's reference, the whole value: Jinja's and Ansible's `{{ hf_token }}` (a
playbook's command, a group_vars file, spec-debug's own `--var` templating: `-H "X-Auth: {{ api_key
}}"`), Helm's `{{ .Values.apiKey }}`, bare or in its quotes. The template fills the secret in
when it renders; the text holds its name only. Masked, `token: {{ hf_token }}` read `token:
***REDACTED*** hf_token }}`, the mask stopped at the space inside the braces. A default typed in
the reference (`{{ api_key | default('sk-local') }}`) is a literal: still masked. Mustache's and
Handlebars' triple braces too (`password: {{{ db_password }}}`, the unescaped form: mustache(5),
"Variables"): masked from the first brace, `***REDACTED***}}}` was left. GitHub's `${{
secrets.HF_TOKEN }}` is _SHELL_REFERENCE's."""

_TEMPLATE_WITH_DEFAULT = r"\{\{\{?[^{}\n]{1,200}?\}\}\}?(?=[\s\"',;)}\]]|\Z)"
"""A template's reference that _TEMPLATE_REFERENCE leaves to be masked, bare: one with a default
typed in (`--api-key {{ api_key | default('sk-local') }}`, a playbook's command; `token: {{ x |
default('hf_...') }}`), masked whole, to its closing braces. Read as a bare word, the value ended at
the first space inside the braces: `--api-key ***REDACTED*** api_key | default('sk-local') }}`, the
default, the secret, in clear."""

_NO_SECRET_IN_CODE = r"(?!(?-i:True|False|null|true|false)(?![\w.-])|(?:os\.)?(?-i:environ(?=[.\[])|getenv\())"
"""Not a value typed in, in code or a config: True, False, null (`use_auth_token=True`,
`token=False`, YAML's `hf_token: null`: whether a token was passed at all, what a 401 postmortem
asks), nor a read of the environment (`token=os.environ["HF_TOKEN"]`, `api_key=os.getenv(
"VLLM_API_KEY")`, Python's `$HF_TOKEN`), which the bare value cut in half:
`token=***REDACTED***"HF_TOKEN"])`. Bare only: a quoted "true" is a string typed in. (Python's
None is still masked: tests/core/test_hardening69_redact_comparison.py pins `hf_token = None`.)"""

_ENV_STYLE_NAME_BEFORE = "".join(rf"(?<![A-Z]{digits}{sep})" for sep in ("=", ":", ": ") for digits in ("", r"\d", r"_\d", r"\d\d"))
"""Behind a value: the name before it was upper case (`DB_PASSWORD=`, `HF_TOKEN_2=`, `DB_PASSWORD: `,
its last letter read case-sensitively), and its "=" tight, or its ":". For _COMPUTED_VALUE."""

_CODE_NAME = r"[A-Z_][A-Z0-9_]{0,64}(?:\.[A-Z_][A-Z0-9_]{0,64}){0,8}"
"""A name in code, dotted or not (`f`, `self.config.get_key`)."""

_COMPUTED_VALUE = (r"(?!(?-i:" + _ENV_STYLE_NAME_BEFORE + r")(?:(?<=\s)|(?=[A-Z_][A-Z0-9_.]))"
                   r"(?:" + _CODE_NAME + r"\([^\n]{0,1000}?\)(?!\w)|" + _CODE_NAME + r"\[(?!\])[^\n\]]{0,200}\](?!\w)"
                   r"|[A-Z_][A-Z0-9_]{0,64}(?:\.[A-Z_][A-Z0-9_]{0,64}){0,7}\.[A-Z0-9_]{0,64}?"
                   r"(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|KEY|PAT|PWD)(?:_?\d{1,3})?(?![\w.])))")
"""Not a value computed by a call, bare: `token = f(x)`, `api_key = get_key()`, `rope_pass =
RotaryPass(cfg)`, `next_id = tokenizer.encode(x)[0]` (a name, dotted or not, then its arguments in
parentheses, closed on the line): Python's assignment of a call's result (Python reference 6.3.4,
"Calls"), as the code an agent writes or a traceback quotes it; no secret is typed there, and
masked the line lost what it called. In a shell, an unquoted `(` after `=` is a syntax error
(bash(1), "SHELL GRAMMAR": a word holds no unquoted parenthesis), so no shell value is left. A
literal stays masked (`token = "hf_..."`, `token = 'abc'`), and a token shape inside the call
(`login(hf_...)`) is the token patterns'. A name of one letter written tight to the "="
(`PASSWORD=a(b)`) is read as the value's own text, masked whole as
tests/core/test_hardening69_redact_comparison.py pins it; `token = f(x)`, spaced as Python code is
(PEP 8), is a call. For the NAME=value patterns only.
A call ends the value: text after its ")" (`password: pa(ss)word`, `Secr3t(x)9`) makes it a word
typed in, masked. So does an environment variable's name before it, upper case with a tight "="
or a ":" (`DB_PASSWORD=pa(ss)`, compose's `MYSQL_PASSWORD: Secr3t(x)`): a shell runs no call there
(unquoted, its "(" is a syntax error), an env file, `env`'s listing or a compose file hold text;
Python spaces its assignment (PEP 8) and names a keyword argument in lower case, so
`API_KEY = get_key()` stays a call. And a flag's value (`--db-pass=pa(ss)`, _PASS_NAME) is a
command line's word, never a call.
Nor a read of a name's item or of an attribute named for a secret: `HF_TOKEN = d[0]`, `token =
keys["hf"]` (a subscription, Python reference 6.3.2: masked bare, the value lost its "]" to the
mask), `api_key = self.api_key`, `token = cfg.token`, `token = tokenizer.eos_token` (an attribute
reference, 6.3.1, whose last name is a secret's or a token's: a literal typed in holds no such
name); under the same conditions as a call."""

_YAML_BLOCK = r"(?![|>][1-9+-]{0,2}[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z))"
"""Not a YAML block scalar's header (`|`, `>-`, `|2`; YAML 1.2.2 8.1.1): the value is on the lines
below it, the block pattern's secret."""

_VALUE_GAP = (r"[^\S\n]*(?:(?<=[ \t])#[ \t][^\n]*(?=\n|\Z))?(?:\n(?:[ \t]*#[^\n]*\n)*(?![ \t]*#)"
              r"(?!\s*(?:[\"']?[\w./-]{1,64}[\"']?[ \t]*:(?:\s|\Z)|-(?:\s|\Z)))\s*(?!#))?(?!#[ \t])")
"""The space between a name's "=" or ":" and its value, which may be on the next line (YAML's
plain scalar continued: `password:` then `  abc123`), but not a next line that is a mapping's key or
a sequence's item: `hf_token:` then `  value: hf_...` (terraform output read as YAML, `yq -P`) or
`api-key:` then `  - k1` (a vLLM --config file's list of keys), or an empty name then the next key
(`hf_token:` then `model: llama`). Read as the value, the key `value:` or the "-" was masked and the
secret after it stood in clear (`  ***REDACTED*** hf_...`), or the next key's name was lost. Those
values are _BlockUnderSecret's.
Nor a YAML comment (YAML 1.2.2 6.6: a "#" after a space, or a line of its own): `password:  # from
vault` then `  abc123` masked the "#" and kept the password below it in clear; `password: # unset`
alone has no value."""

_EXPANSION_DEFAULT = r":?[-=](?P<secret>\"(?!\$)[^\"}]+\"|'[^'}]+'|(?![$\"'])[^}\s\"'`]+)\}"
"""The default of a parameter expansion after its name, to the closing brace (``:-word``, ``:=word``,
``-word``, ``=word``; POSIX XCU 2.6.2): quoted, or bare up to the brace; not a reference
(``${X:-$OTHER}``), nor empty. The secret of the two expansion patterns below."""

_BARE_VALUE = (r"(?!\{(?:[\s\x00\"']|\Z))(?:[^\s\x00\"',;()\[\]]*(?:\[[^\s\x00\"',;()\[\]]*\])+(?=[)}\]]*(?:[\s\x00\"',;]|\Z))"
               r"|[^\s\x00\"',;()]+?(?=[)}\]]*(?:[\s\x00\"',;]|\Z))|[^\s\x00\"',;]+?(?=[}\]]*(?:[\s\x00\"',;]|\Z)))")
"""A value written bare, to the next space, quote, comma or semicolon; less the closing braces and
brackets at its end, which close the mapping or list it stands in: `{hf_token: abc}` was masked
`{hf_token: ***REDACTED***`, the mask eating the brace (one inside the value, `a}b`, is its own).
So a closing parenthesis, where the value opens none: `login(token=abc)` and the failed check's
`(..., facts.hf_token = None)` lost their ")" to the mask (`a(b)` is a value of its own).
A "]" that closes a "[" the value opened is the value's: `token=d[0]` read `token=***REDACTED***]`.
Not the "{" that opens a mapping under a secret's name (`'accessToken': {'displayName': 'ci', 'role':
'read'}`, what huggingface_hub's whoami() returns of the token a session logs in with, no secret in
it): masked, the brace alone was the value, `'accessToken': ***REDACTED***'displayName': ...`, the
dump no longer a mapping. Its keys are read on their own, as redact_value walks a dict under any
key."""

_FORM_BODY_START = r"(?-i:" + "|".join(rf"(?<={flag}{q})" for flag in (r"\s-d", r"\s-d\s", r"\s--data\s", r"\s--data-raw\s",
                                                                          r"\s--data-binary\s", r"\s--data-ascii\s", r"\bdata=")
                                         for q in ("'", '"')) + ")"
"""The opening quote of a form body, before its first field: curl's `-d 'token=abc&x=1'` (and
--data, --data-raw, --data-binary, --data-ascii: "curl does not encode or change the data you
tell it to send", its fields joined by "&" as a browser's form is; everything.curl.dev, "Simple
POST"), and a Python client's `data="client_secret=abc&grant_type=x"` (a string body is sent as
it is). Not --data-urlencode (curl URL-encodes its content: a "&" there is the value's own, sent
as %26) nor -F (a multipart field, its content literal; `;type=` ends it, as _BARE_VALUE reads)."""

_IN_QUERY = r"(?:(?<=[?&])(?P<query>)|(?<=['\"])" + _FORM_BODY_START + r"(?P<form>)|(?<![?&]))"
"""Where a name stands as a URL query's parameter, after its "?" or "&" (`/v1/models?token=abc&model=x`):
sets the group `query`, for _QUERY_OR_BARE_VALUE (an alternation: re leaves an optional empty group unset).
Or as a form body's first field (_FORM_BODY_START): the group `form`; its later fields stand after "&"."""

_QUERY_OR_BARE_VALUE = r"(?(query)[^\s\x00\"'&#<>()\[\]{},;]+|(?(form)[^\s\x00\"'&]+|" + _BARE_VALUE + "))"
"""A parameter's value in a URL query ends at its next "&" (the next parameter) or "#" (the fragment;
RFC 3986 3.4, 3.5; WHATWG URL's application/x-www-form-urlencoded parser splits on "&"): read to the
next space, `?token=abc&model=x&stream=true` was masked `?token=***REDACTED***`, the parameters
after it lost from the evidence. A "&" in a secret is percent-encoded in a URL (%26). A form
body's first field ends at its "&" only (a body has no fragment: `-d 'password=Pa#ss(1)&u=bob'`):
masked to the closing quote, `-d 'token=abc&x=1'` lost the fields after the token. Elsewhere
a value is _BARE_VALUE (an env file's `password: a&b` is one value)."""

_LIST_ITEM = r"(?:'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\"|[^\s,\[\]{}'\"]+)"
_LIST_VALUE = r"\[\s*" + _LIST_ITEM + r"(?:\s*,\s*" + _LIST_ITEM + r"){0,63}\s*,?\s*\]"
"""A list of secrets under a secret's name, whole: vLLM's `--api-key` takes several keys
(vllm/entrypoints/openai/cli_args.py, FrontendArgs: `api_key: list[str] | None`), and the server logs
its arguments at startup (vllm/entrypoints/utils.py, log_non_default_args: `non-default args:
{..., 'api_key': ['sk-...', ...]}`); JSON writes `"api_key": ["k1", "k2"]`, a YAML config
`api-key: [k1, k2]`. The value was read from its "[" to the first quote: the "[" masked, every key
in clear. Items quoted, or bare as YAML's flow sequence writes them; masked with the brackets and
the first item's quotes kept (_masked: the JSON stays parseable). An empty list holds no secret."""

_SPECIAL_TOKEN = r"<\|?/?[\w\u2581.:-]{1,64}\|?>"
_SPECIAL_TOKEN_VALUE = r"(?![\"']?" + _SPECIAL_TOKEN + r"[\"']?(?:[\s,;)}\]]|\Z))"
"""Not a special token of a tokenizer or a processor, whole: `"image_token": "<|image_pad|>"`,
`"video_token": "<|video_pad|>"` (Qwen2-VL's processor), Gemma 3's `"boi_token": "<start_of_image>"`,
a reasoning parser's `think_end_token = "</think>"`: a tokenizer_config.json or processor_config.json
a session prints to compare the drafter's vocabulary with the target's. Their names end in "token"
as a secret's do, and there are more of them than _TOKENIZER_TOKENS can list; the value says what
it is, an angle-bracketed name no token is typed as. Under a name that ends in "token" only (a
password may be typed so); for NAME=value, and redact_value reads it so too."""

_is_special_token = re.compile(_SPECIAL_TOKEN).fullmatch


def _special_token(key: str, value: str) -> bool:
    """A special token's literal under a name that ends in "token" (_SPECIAL_TOKEN_VALUE)."""
    return value[:1] == "<" and key.lower().rstrip("0123456789_-").endswith("token") and _is_special_token(value) is not None

_NOT_A_LOGPROB = r"(?!\s*,\s*[\"']?(?:logprob[\"']?\s*[:=]|bytes[\"']?\s*[:=]\s*(?:\[|null\b|None\b)))"
"""Not the token of a logprob entry, the next key its logprob or its bytes: an OpenAI-compatible
server's `"logprobs": {"content": [{"token": "Hello", "logprob": -0.31, "bytes": [72, ...],
"top_logprobs": [{"token": " Hi", ...}]}]}` (vLLM writes logprob then bytes, SGLang and the openai
client's ChatCompletionTokenLogprob bytes then logprob, the client's repr `token='Hello',
bytes=[72, ...]`): a token of the text generated, which a session that asks whether speculative
decoding changed the output compares with and without the drafter. Masked, every token of the
evidence read ***REDACTED***. After the value, so it costs a match only."""

_KEY_SECRETS = (r"(?:SIGNING|ENCRYPTION|MASTER|PRIVATE)[_-]?KEY|MYSQL[_-]PWD|(?:GITHUB|GITLAB|GH)[_-]?PAT|PASSPHRASE"
                r"|ACCOUNT[_-]?KEY|AZURE[_-]STORAGE[_-]KEY|SHARED[_-]?ACCESS[_-]?KEY|SECRET[_-]?ACCESS[_-]?KEY"
                r"|SECRET[_-]?(?:STRING|BINARY)")
"""A key named for signing or encrypting, a secret's name as the words below are (JWT_SIGNING_KEY,
RAILS_MASTER_KEY: _SECRET_KEY_NAME); SECRET_KEY and SECRET_KEY_BASE are spelt after SECRET in them.
And MYSQL_PWD, the password the MySQL client reads from the environment (_CLIENT_PATTERNS), as a
compose file's `MYSQL_PWD: ...`, an env list's {"name": "MYSQL_PWD", "value": ...} or code sets it.
A wallet's PRIVATE_KEY (`PRIVATE_KEY=0x` and 64 hex digits in a web3 `.env`; foundry's `cast send
--private-key 0x...`: book.getfoundry.sh, cast send, "--private-key <RAW_PRIVATE_KEY>"), and
GITHUB_PAT/GITLAB_PAT/GH_PAT (a personal access token, the name R's gh and usethis read): is_secret_name
named them, and the text kept `PRIVATE_KEY=0x...` and a classic 40-hex `GITHUB_PAT=...` whole (no
shape of the token patterns; a bare 0x and 64 hex digits is as often a transaction's hash).
And a PASSPHRASE (`SSH_KEY_PASSPHRASE=...`, `passphrase: ...`), a name is_secret_name masks.
And an Azure storage account's key, which reads and writes every blob of the account (learn.microsoft.com,
"Manage storage account access keys"): AZURE_STORAGE_KEY and AZURE_STORAGE_ACCOUNT_KEY (what the az
CLI and azcopy read), a connection string's `AccountKey=...;` (`DefaultEndpointsProtocol=https;
AccountName=x;AccountKey=...;EndpointSuffix=core.windows.net`, AZURE_STORAGE_CONNECTION_STRING),
and Service Bus's `SharedAccessKey=`: as a session sets them to pull a checkpoint from blob storage;
the key stood in clear, no token shape (88 characters of base64).
And AWS's secret key as its JSON names it, joined: `"SecretAccessKey": "..."` in what an EC2 GPU
host's instance metadata returns for its role (`curl 169.254.169.254/latest/meta-data/iam/
security-credentials/ROLE`: docs.aws.amazon.com, "Retrieve security credentials from instance
metadata"), in `aws sts assume-role`'s and `get-session-token`'s "Credentials", and in `aws configure
export-credentials`' output; `secretAccessKey` as the JS SDK spells it. ACCESS_KEY is read with a
separator only (an `accessKey` is as often a key's id), so the secret stood beside its masked token.
And AWS Secrets Manager's secret as its JSON names it: `aws secretsmanager get-secret-value --secret-id
hf-token` prints {"ARN": ..., "Name": "hf-token", "SecretString": "<the secret>", ...} (SecretBinary
for a binary one: docs.aws.amazon.com, secretsmanager get-secret-value, "Output"), the way a session
on an EC2 GPU host reads its HF token or API key; the value stood in clear, no token shape."""

_AUTH_SCHEMES = r"bearer|basic|token|dpop|negotiate|ntlm|apikey|api-key|key|privatetoken|gnap|ssws"
"""Authorization schemes whose credentials are one word (token68): RFC 6750 Bearer, RFC 7617
Basic, RFC 9449 DPoP, RFC 4559 Negotiate and the rest of IANA's registry of one word; NTLM,
Elasticsearch's ApiKey, Okta's SSWS, a plain Token or Key."""

_NAMED_PATTERNS: list[re.Pattern[str]] = [
    # PEM private keys (the whole body).
    re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<secret>.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S),
    # A secret-named key set in Python code (`os.environ["HF_TOKEN"] = "..."`, `env['API_KEY'] =
    # '...'`, `os.environ.setdefault("HF_TOKEN", "...")`, `os.putenv(...)`), as an agent's
    # `python3 -c` or heredoc sets it before loading a gated model: the value is a string literal
    # after the quoted name, which NAME=value below does not read (the quote and bracket between).
    # Numbered too (`os.environ["API_KEY_2"]`), as NAME=value and redact_value read the name.
    # And the default of a read with one (`os.environ.get("HF_TOKEN", "hf_...")`), as PHP's Laravel
    # reads its .env (`env('DB_PASSWORD', 'secret')`: laravel.com/docs/configuration, "env" helper's
    # second argument the default) and Ruby's ENV (`ENV.fetch("API_KEY", "dev-key")`): the default
    # is typed in clear, used where the variable is unset.
    re.compile(r"(?i)(?:\[\s*|(?:setdefault|putenv|getenv|get|pop|env|fetch)\(\s*)(?P<q>[\"'])(?!" + _TOKENIZER_TOKENS + r"(?P=q))"
               r"[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?(?P=q)"
               r"\s*(?:\]\s*=(?!=)|,)\s*(?![\"']\d{1,11}[\"'])(?P<secret>\"[^\"\n]*\"|'[^'\n]*')"),
    # Before NAME=value: a cookie's whole value is one secret, not its `csrftoken=` alone (secret_spans
    # keeps the first of overlapping spans, and distill made a var of that one).
    # Cookies are credentials (a session cookie logs in as its owner: RFC 6265 8.2, "Ambient
    # Authority"): a request's `Cookie:` header whole (`curl -H "Cookie: session=..."`), a
    # response's `Set-Cookie:` up to its attributes, and curl's -b/--cookie NAME=VALUE (one with no
    # "=" names a cookie file: curl.se/docs/manpage.html#-b).
    re.compile(r"(?i)(?<![\w-])cookie:[ \t]*(?P<secret>(?!\$)[^\s'\"][^\r\n'\"]*?)(?=[ \t]*(?:[\r\n'\"]|\Z))"),
    re.compile(r"(?i)(?<![\w-])set-cookie:[ \t]*(?P<secret>[^\s;'\"]+)"),
    re.compile(r"curl(?<=\bcurl)\b[^\n;|&]{0,2000}?\s(?:-b\s*|--cookie[= ]+)"
               r"(?P<secret>'[^'\n=]*=[^'\n]*'|\"[^\"\n$=]*=[^\"\n$]*\"|[^\s'\"$=]+=[^\s'\"]*)"),
    # NAME=value for secret-looking names (HF_TOKEN=..., OPENAI_API_KEY=..., password=...). The name
    # must END in the secret word: num_draft_tokens=4 or max_tokens: 512 are not secrets. A key
    # named for signing or encrypting is one (DJANGO_SECRET_KEY, SIGNING_KEY: _SECRET_KEY_NAME).
    # Also a JSON key ("hf_token": "...") and an HTTP header spelt with hyphens (x-api-key: ...,
    # GitLab's PRIVATE-TOKEN: ...).
    # A default typed into a parameter expansion (`HF_TOKEN=${HF_TOKEN:-hf_...}`,
    # `--api-key ${KEY:-sk-local}`, `export DB_PASSWORD="${DB_PASSWORD:=hunter2}"`, the numbered
    # `${HF_TOKEN_2:-hf_...}` as for NAME=value below): the shell
    # uses the default when the name is unset (POSIX XCU 2.6.2, `${parameter:-word}`, `:=`, and
    # the forms without the colon), so the default is the secret, typed in clear. Masked inside
    # the braces (`${HF_TOKEN:-***REDACTED***}`): the reference stays readable, as bare `${X}`
    # does. Before the NAME=value pattern, which no longer reads the NAME inside `${`: it used to
    # mask from the `:` on (`${HF_TOKEN:***REDACTED***`, also on an empty default), and left
    # `--api-key ${KEY:-sekrit}` whole.
    re.compile(r"(?i)(?:(?<![A-Z0-9_-])(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?\b[\"']?\s*[=:]\s*\"?"
               r"|(?<![\w-])--(?!" + _TOKENIZER_TOKENS + r"\b)(?:[a-z0-9_-]{0,64}[-_])?(?:api[-_]?key|(?:auth|access|refresh)?token|passw(?:or)?d|passphrase|secret(?:[-_]key)?|account[-_]key)(?:[-_]?\d{1,3})?[= ]+\"?)"
               r"\$\{[A-Z_][A-Z0-9_]{0,64}" + _EXPANSION_DEFAULT),
    re.compile(r"(?i)\$\{(?!" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_]{0,64}?(?:TOKEN|SECRET(?:_KEY(?:_BASE)?)?|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|" + _KEY_SECRETS.replace("[_-]", "_") + r")(?:_?\d{1,3})?"
               + _EXPANSION_DEFAULT),
    # A YAML block scalar under a secret's name (`hf_token: |` or `secret_key: >-`, then the value
    # on the lines below, indented; YAML 1.2.2 8.1, block scalar headers): its lines are the
    # secret. NAME=value below read the "|" for the value: masked, the token stood on the next line
    # under `hf_token: ***REDACTED***`. The indentation stays, as the name does.
    re.compile(r"(?i)(?<![A-Z0-9_-])(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?"
               r"|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?[\"']?[ \t]*:[ \t]*"
               r"[|>][1-9+-]{0,2}[ \t]*(?:#[^\n]*)?\r?\n(?P<ind>[ \t]+)(?P<secret>\S[^\r\n]*(?:\r?\n(?P=ind)[^\r\n]*)*)"),
    # A NAME=value that is one quoted shell word, its value holding a space (`docker run -e
    # 'DB_PASSWORD=my pass phrase'`, `--from-literal="password=a b"`): the shell passes the word
    # whole, so the value runs to the closing quote; NAME=value below stopped at the space and
    # kept the rest. Before it, which then sees the mask.
    re.compile(r"(?i)(?P<q>[\"'])(?!" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD"
               r"|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?="
               r"(?P<secret>(?![$%{])[^\s\"'][^\"'\n]*?[ \t][^\"'\n]*?)(?P=q)"),
    # Not a URL's user name (`https://x-access-token:TOKEN@github.com/o/r.git`, what actions/checkout
    # leaves in a clone's remote and `git remote -v` prints; `https://token:...@host`): read as
    # NAME:value, the host and the path after the password were masked with it; the URL pattern
    # masks the password alone.
    # A number may follow the secret word, as in a name redact_value masks (`HF_TOKEN_2=...`,
    # `--var mongo_password_2=...`, the second secret of one kind distill asks for).
    # The assignment may be Go's or a walrus's `:=` (`apiKey := "..."`), or Ruby's, PHP's and Perl's
    # `=>` (`'password' => 'secret'`, a Laravel config's array): read as "=", `token => 'abc'`
    # was masked from the ">" on (`token =***REDACTED*** 'abc'`), the secret kept.
    # An empty value ("" or '') is no secret, as redact_value keeps '' under a secret-named key:
    # masked, `export HF_TOKEN=""` (the cause of a 401 on a gated model) read as a token set.
    # Not an AWS ARN's resource type (`arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-AbCdEf`, the
    # 12 digits of the account before it: docs.aws.amazon.com, "Amazon Resource Names"), as an
    # AccessDeniedException or an IAM policy names the secret it is about: masked, the message lost
    # which secret (`...:123456789012:secret:***REDACTED***`); the ARN holds no secret's value.
    re.compile(r"(?i)(?<![A-Z0-9_-])(?<!\$\{)(?<!://)(?<!\d{12}:)" + _IN_QUERY + r"(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:(?P<token_name>TOKEN)|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?\b[\"']?\s*(?::=|=>|=(?!=(?:[\s\"']|\Z)|>)|:(?!=))" + _VALUE_GAP + r"(?!\d{1,11}\b)" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE + _NO_SECRET_IN_CODE + _COMPUTED_VALUE + _YAML_BLOCK
               + r"(?P<secret>(?!\[\s*\](?:[\s,;)}\]]|\Z))(?(token_name)" + _SPECIAL_TOKEN_VALUE + r")(?:" + _TEMPLATE_WITH_DEFAULT + "|" + _LIST_VALUE + r"|\"(?:[^\"\\]|\\.)+\"|'[^']+'|" + _QUERY_OR_BARE_VALUE + "))"
               + _NOT_A_LOGPROB),
    # A JSON body written inside a double-quoted shell word (`curl -d "{\"password\": \"...\"}"`,
    # `-d "{\"api_key\":\"...\"}"`): its quotes are escaped, and NAME=value above stops at the
    # backslash after the name (the body was kept in clear). The escaped quotes stay around the mask.
    re.compile(r"(?i)\\\"(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?"
               r"\\\"\s*:\s*\\\"(?P<secret>(?!\$)(?:[^\"\\\n]|\\[^\"\n])+)\\\""),
    # The value of a secret-named variable in a list of name/value pairs, the shape a container's
    # environment takes in Kubernetes (`kubectl get deploy -o yaml`: `- name: HF_TOKEN` then
    # `value: hf_...`; `-o json`: `{"name": "HF_TOKEN", "value": "..."}`; the API's EnvVar,
    # kubernetes/api core/v1/types.go), in an ECS task definition's `environment` (the same keys)
    # and in Helm's `--set env[0].name=HF_TOKEN,env[0].value=...`. NAME=value above does not read
    # it (the name and its value are two keys' values), so the token stood in the postmortem as
    # typed. `valueFrom:` (a secretKeyRef) holds no value. The name may be numbered (HF_TOKEN_2).
    re.compile(r"(?i)(?<![\w-])name[\"']?\s*[:=]\s*[\"']?(?!" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_.-]{0,64}?"
               r"(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]?KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?[\"']?\s*,?\s*[\"']?(?:[\w\[\]]{0,64}\.)?"
               r"value[\"']?\s*[:=]\s*(?!\d{1,11}\b)" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE + _NO_SECRET_IN_CODE + _YAML_BLOCK
               + r"(?P<secret>\"[^\"]+\"|'[^']+'|" + _BARE_VALUE + ")"),
    # --api-key VALUE, --token=VALUE, --password VALUE, --hf-token VALUE; spelt with underscores
    # too, as argparse takes them (--hf_token VALUE, --api_key VALUE, transformers' --hub_token),
    # but not a tokenizer's special token (--pad_token "<pad>"); numbered as a second one of a kind
    # is (--api-key-2 VALUE, --token2 VALUE), as NAME=value and redact_value read the name.
    # Spelt joined too: --apikey, --authtoken (the ngrok agent's, `ngrok http 8000 --authtoken
    # TOKEN`), --accesstoken, --refreshtoken.
    # --private-key before a raw key in hex (foundry's `cast send --private-key 0x...`); not
    # before a path (ansible's `--private-key ~/.ssh/id_ed25519` names the key's file).
    # A bare value is no next flag (`--api-key --port 8000`: the server errors on the missing
    # value), as the argv walk (_redact_list) reads it: masked, the evidence lost `--port`.
    # Nor is a redirection or another shell operator: `gh auth login --with-token < mytoken.txt`
    # (a flag that reads the token from standard input) read `--with-token ***REDACTED*** mytoken.txt`.
    re.compile(r"(?i)(?<![\w-])--(?!" + _TOKENIZER_TOKENS + r"\b)(?:[a-z0-9_-]{0,64}[-_])?(?:api[-_]?key|(?:auth|access|refresh)?token|passw(?:or)?d|passphrase|secret(?:[-_]key)?|account[-_]key|private[-_]key(?=(?:[-_]?\d{1,3})?[= ]+[\"']?(?:0x)?[0-9a-f]{32,}\b))"
               r"(?:[-_]?\d{1,3})?[= \x00]+" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE + _NO_SECRET_IN_CODE
               + r"(?P<secret>" + _TEMPLATE_WITH_DEFAULT + r"|\"[^\"]+\"|'[^']+'|(?!\"\"|''|--|[<>|&;])[^\s'\"\x00]+)"),
    # Authorization headers: as HTTP writes them (`-H "Authorization: Bearer ..."`), and as a key of a
    # dict or JSON object (`headers={"Authorization": "Bearer ..."}` in the script an agent writes to
    # call the server's OpenAI-compatible API, whose key `--api-key` set: any string, no token shape).
    # Any scheme whose credentials are one word (RFC 9110 11.4: `auth-scheme [ 1*SP token68 ]`):
    # Bearer, Basic, DPoP, Negotiate (IANA's HTTP Authentication Scheme Registry), NTLM,
    # Elasticsearch's `ApiKey`, `Token`; FCM's legacy `key=SERVER_KEY`; and a bare key with no
    # scheme, alone in its quotes (`-H 'Authorization: KEY'`, `{"Authorization": "KEY"}`), as some
    # APIs take it: masked, a dict's value is (_credential_masked), the text kept them.
    re.compile(r"(?i)authorization(?:[\"']\s*:\s*[\"']|:\s*)(?:(?:" + _AUTH_SCHEMES + r")\s+|key="
               r"|(?=[^\s'\"]+[\"'])(?!(?:" + _AUTH_SCHEMES + r")[\"']))" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE
               + r"(?P<secret>[^\s'\"]+)"),
    # The password in a URL's userinfo: HTTPS_PROXY=http://user:pass@proxy:3128,
    # postgresql://admin:pass@db/x, git clone https://oauth2:TOKEN@gitlab.example/x (RFC 3986 3.2.1).
    # Up to the authority's last "@", as URL parsers split it (WHATWG URL: the last "@" ends the
    # credentials; Python's urllib.parse: rpartition("@")): a password typed with an "@" in it,
    # not percent-encoded (`postgresql://admin:p@ss@db01/x`), kept what followed its first "@".
    re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,30}://[^\s:/@'\"]{0,256}:(?P<secret>[^\s/@'\"]+(?:@[^\s/@'\"]+)*)@"),
    # Ansible's login and become passwords, named without a full "password"
    # (ansible/ansible: lib/ansible/plugins/connection/ssh.py and plugins/become/sudo.py option
    # vars: ansible_ssh_pass, ansible_become_pass, ansible_sudo_pass), and sshpass -e's SSHPASS.
    re.compile(r"(?i)\b(?:ansible_(?:ssh_|become_|sudo_)?pass|sshpass)\b[\"']?\s*[=:](?!=(?:[\s\"']|\Z))\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s\x00\"',;]+)"),
    # sshpass -p PASSWORD ssh host (the password is on the command line by design).
    re.compile(r"sshpass(?<=\bsshpass)\s+-p\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s'\"]+)"),
    # Passwords a client takes on its command line, each only after its own command name (a
    # bare "-u A:B" is as often docker's uid:gid, "-a" and "-p" mean other things elsewhere):
    # curl -u/--user user:password (curl.se/docs/manpage.html#-u), docker login -p
    # (docs.docker.com/reference/cli/docker/login), redis-cli -a (redis.io/docs/latest/develop/
    # tools/cli), mysql -pPASSWORD (no space: dev.mysql.com/doc/refman/8.4/en/connection-options.html).
    # In quotes, the password runs to the closing quote (`--user 'admin:my pw'` kept " pw").
    re.compile(r"curl(?<=\bcurl)\b[^\n;|&]{0,2000}?\s(?:-u\s*|--user[= ]+)(?:(?P<sq>')|(?P<dq>\"))?[^\s:'\"]+:"
               r"(?P<secret>(?!\$)(?(sq)[^'\n]+(?=')|(?(dq)[^\"\n]+(?=\")|[^\s'\"]+)))"),
    re.compile(r"docker(?<=\bdocker)\s+login\b[^\n;|&]{0,500}?\s-p\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"-][^\s'\"]*)"),
    # redis-cli -a, and its --pass (redis-cli --help: "--pass <password> Alias of -a for consistency
    # with the new --user option").
    re.compile(r"redis-cli(?<=\bredis-cli)\b[^\n;|&]{0,500}?\s(?:-a|--pass)\s+(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"][^\s'\"]*)"),
    re.compile(r"mysql(?<=\bmysql)(?:dump|admin)?\b[^\n;|&]{0,500}?\s-p(?P<secret>'[^'\n]*'|\"(?!\$)[^\"\n]*\"|[^\s$'\"-][^\s'\"]*)"),
    # The password `sudo -S` reads from standard input, as sessions type it: `echo PASS | sudo -S
    # journalctl ...`, `printf '%s\n' PASS | sudo -S ...`, `sudo -S cmd <<< PASS` (sudo(8): -S,
    # --stdin "Write the prompt to the standard error and read the password from the standard
    # input"). What is echoed into a `sudo -S` is that password and nothing else.
    re.compile(r"(?:echo(?<=\becho)(?:\s+-[neE]+)?|printf(?<=\bprintf)(?:\s+(?:'[^'\n]*%s[^'\n]*'|\"[^\"\n]*%s[^\"\n]*\"))?)"
               r"\s+(?P<secret>\"(?!\$)[^\"]*\"|'[^']*'|(?![$\"'])[^\s|;&]+)\s*\|\s*" + _SUDO_S),
    re.compile(r"(?<![\w-])" + _SUDO_S + r"[^\n;|&]{0,500}?<<<\s*(?P<secret>\"(?!\$)[^\"]*\"|'[^']*'|(?![$\"'])[^\s;&|]+)"),
    # The password echoed into `docker login --password-stdin` (docs.docker.com/reference/cli/
    # docker/login: "--password-stdin  Take the password from stdin"): `echo PASS | docker login -u
    # bot --password-stdin registry.internal`, as a session types it when `-p` warns it is insecure.
    re.compile(r"(?:echo(?<=\becho)(?:\s+-[neE]+)?|printf(?<=\bprintf)(?:\s+(?:'[^'\n]*%s[^'\n]*'|\"[^\"\n]*%s[^\"\n]*\"))?)"
               r"\s+(?P<secret>\"(?!\$)[^\"]*\"|'[^']*'|(?![$\"'])[^\s|;&]+)\s*\|\s*docker\s+login\b[^\n;|&]{0,500}?"
               r"\s--password-stdin\b"),
    # curl --oauth2-bearer TOKEN (curl.se/docs/manpage.html#--oauth2-bearer).
    re.compile(r"curl(?<=\bcurl)\b[^\n;|&]{0,2000}?\s--oauth2-bearer[= ]+(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"][^\s'\"]*)"),
    # wandb login KEY: an optional prefix up to the last "-" (a W&B server of one's own: `local-...`),
    # then 40 or more letters, digits or underscores (wandb/sdk/lib/auth/validation.py,
    # check_api_key); after the command's flags, `--host URL` with its value (wandb/cli/cli.py, login).
    # The prefix stays: it says which server the key is for.
    re.compile(r"wandb(?<=\bwandb)\s+login(?:\s+(?:--host[= ]\S+|--?(?!host(?![\w-]))\w[\w-]*))*\s+(?:[\w-]*-)?(?P<secret>\w{40,})(?![\w.-])"),
    # And its Python call, `wandb.login(key="...")` (wandb/sdk/wandb_login.py, login: "key: The API
    # key to use"), as a notebook or a training script an agent writes calls it: `key` is no secret's
    # name to NAME=value (a sort key, a dict's key), so the key stood in clear. A string literal
    # only: `key=os.environ[...]` or `key=args.key` reads it from elsewhere.
    re.compile(r"wandb(?<=\bwandb)\.login\((?:[^()\n]|\([^()\n]*\)){0,500}?(?<![\w.])key\s*=\s*"
               r"(?P<secret>\"(?!\$)[^\"\n]+\"|'[^'\n]+')"),
    # A netrc entry's password, as `cat ~/.netrc` shows it: `wandb login` writes its API key there
    # (`machine api.wandb.ai login user password KEY`); the tokens are separated by spaces or new
    # lines, `login` and `account` may come between (netrc(5): GNU inetutils and curl read the same
    # form). No "=" or ":" before the value, so NAME=value above does not read it.
    re.compile(r"machine(?<=\bmachine)\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+(?P<secret>\S+)"),
    # And its `default` entry, which stands for any machine (netrc(5): "default  This is the same as
    # machine name except that default matches any name"; curl and Python's netrc module read it):
    # `default login anonymous password PASS`. After its login or account only: prose ("the default
    # password is ...", "default login page, password reset") has no `default login USER password`.
    re.compile(r"default(?<=\bdefault)(?:\s+(?:login|account)\s+[^\s,;]+)+\s+password\s+(?P<secret>\S+)"),
    # aws configure set aws_secret_access_key VALUE (docs.aws.amazon.com/cli/latest/reference/
    # configure/set.html), as a session types it to reach a bucket of checkpoints.
    re.compile(r"aws(?<=\baws)\s+configure\s+set\s+(?:[^\s;|&]+\s+){0,4}?(?:[\w-]+\.)?"
               r"aws_(?:secret_access_key|session_token)\s+(?P<secret>[^\s;|&]+)"),
]

_NOT_A_PASSWORD = (r"forward|backward|fwd|bwd|must|should|first|second|third|last|final|single|one|two|multi"
                   r"|full|fast|slow|draft|verify|target|prefill|decode|warmup|compile|test|tests|all|check"
                   r"|post|pre|custom|graph|fusion|lint|sanity|render|shadow|depth|eval|train")
"""The word before `_pass` where it names a pass of a computation or a check, not a password:
a model's forward_pass, a compiler's custom_post_pass and fusion_pass, a test's must_pass."""

_PASS_NAME = re.compile(r"(?i)(?<![\w-])(?<!\$\{)" + _IN_QUERY + r"(?P<flag>--?)?(?:[A-Z0-9][A-Z0-9_-]{0,63}?[_-])?"
                        r"(?!(?:" + _NOT_A_PASSWORD + r"|ask|no)(?:[_-]pass|(?-i:Pass))\b)"
                        r"[A-Z0-9]{1,32}(?:[_-]PASS|(?-i:(?<=[a-z0-9])Pass))(?:[_-]?\d{1,3})?\b[\"']?\s*(?::=|=>|=(?!=(?:[\s\"']|\Z)|>)|:(?!=))" + _VALUE_GAP + r"(?!\d{1,11}\b)"
                        + _SHELL_REFERENCE + _NO_SECRET_IN_CODE + r"(?(flag)|" + _COMPUTED_VALUE + ")" + _YAML_BLOCK
                        + r"(?P<secret>\"(?:[^\"\\]|\\.)+\"|'[^']+'|" + _QUERY_OR_BARE_VALUE + ")")
"""A password under a name that ends in the word PASS (`DB_PASS=...`, `db_pass: ...`,
`export REDIS_PASS=...`), short for password as in Ansible's own ansible_ssh_pass: is_secret_name
masks `--var db_pass=...` and a key so named, and the text kept the value. Only after a word and a
separator (Go's `--- PASS: TestX`, `bypass`, PASSED are no name), not a pass of _NOT_A_PASSWORD.
Run where "_pass" or "-pass" is in the text, in any case (_PASS_WORD, in _patterns_for).
A flag's name too (`--db-pass=...`: its dashes were read as nothing before the name, and the value
kept), and camelCase (`dbPass=...`, `redisPass: ...`, a JS client's or a JSON config's keys), which
is_secret_name reads as `db_Pass`; not a pass of _NOT_A_PASSWORD in either (`forwardPass`)."""

_PASS_WORD = re.compile(r"[_-][Pp][Aa][Ssſ][Ssſ]|Pass(?<=[a-z0-9]Pass)").search
"""The literal of _PASS_NAME as re.IGNORECASE reads it (U+017F, long s, folds to "s"), or its
camelCase spelling (`dbPass`), case-sensitive as the pattern reads it."""

_CAMEL_PASS = re.compile(r"Pass(?<=[a-z0-9]Pass)(?:\d{1,3})?[\"']?\s*[=:]").search
"""A camelCase name ending in Pass before "=" or ":" (`dbPass=`), for _may_need_named: only run
where "pass" and "Pass" are in the text, and only true where _PASS_NAME's name is; literal
first, so re finds it by a fast scan (a leading class is tried at every position)."""

_PASS_FLAG = re.compile(r"(?i)--(?<![\w-]--)(?!ask[-_])(?:[A-Z0-9][A-Z0-9_-]{0,63}?[-_])?"
                        r"(?!(?:" + _NOT_A_PASSWORD + r"|no)[-_]pass\b)[A-Z0-9]{1,32}[-_]pass(?:[-_]?\d{1,3})?[ \t]+"
                        + _SHELL_REFERENCE + _NO_SECRET_IN_CODE
                        + r"(?P<secret>\"[^\"]+\"|'[^']+'|(?!\"\"|''|--|[<>|&;])[^\s'\"]+)")
"""A password under a flag named PASS after a word, its value the next word (`--db-pass hunter2`,
`--redis-pass "s3 cret"`), as _PASS_NAME reads `--db-pass=...`: the flag patterns read
`--password VALUE` and left this one whole. Not a pass of _NOT_A_PASSWORD (`--forward-pass`), nor a
switch that takes no value: ansible's `--ask-pass`, `--ask-become-pass`, `--ask-vault-pass` (prompt
for it: docs.ansible.com, ansible-playbook) and a `--no-pass` (impacket's -no-pass: no password),
whose next word is the command's own argument. A number is masked, as after `--password`: it is
a password of digits as often. Run with _PASS_NAME, where _PASS_WORD finds "-pass"; literal first
(the "--", then what stands before it), so re finds it by a fast scan."""

_B64_PRIVATE_KEY = "|".join(base64.b64encode(f"-----BEGIN {kind}PRIVATE KEY-----".encode())[14:(len(kind) + 27) // 3 * 4].decode()
                            for kind in ("", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "))
"""A PEM private key encoded once more in base64, as a kubeconfig holds its client's key
(`client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0t...`: kubernetes.io, "Organizing Cluster
Access Using kubeconfig Files", the key's PEM "base64 encoded"; `kubectl config view --raw`, `cat
~/.kube/config`) and a TLS Secret its `tls.key` (`kubectl get secret -o yaml`), or `base64 -w0
key.pem` prints it: no PEM marker to read, the key whole in clear. Known by its first bytes, the
BEGIN marker of a private key of each kind the PEM pattern reads ("-----BEGIN " is 11 bytes: the
marker encodes the same at the start of every such text), after the "LS0tLS1CRUdJTi" of "-----BEGIN"
(the pattern's literal start); the rest of the encoded text, and its next lines when wrapped: after
a line of 76 (`base64`) or 64 (`openssl base64`) characters only, so that a word on the line after
a key on one line (`done`) stays. A certificate's (`client-certificate-data`, `tls.crt`: "-----BEGIN CERTIFICATE-----")
is public and stays."""

_TOKEN_PATTERNS: list[re.Pattern[str]] = [
    # Well-known token shapes anywhere in text: Hugging Face (hf_), OpenAI and Anthropic (sk-),
    # GitHub classic and fine-grained (github.blog 2021-04-05 "Behind GitHub's new authentication
    # token formats"), GitLab PATs (glpat-), Slack (xoxb-, xoxp-, ...), AWS access key ids (AKIA
    # long-term, ASIA temporary), Google API keys (AIza). Prefixes as in gitleaks/gitleaks
    # config/gitleaks.toml.
    # Each starts with its literal and checks the word boundary behind it (the same matches as
    # a leading \b, but re then finds the literal by a fast scan instead of trying every position:
    # 50x faster on a line of base64, which holds "AKIA" or "xox" somewhere in most 64 KB).
    re.compile(r"(?P<secret>hf_(?<=\bhf_)[A-Za-z0-9]{20,}\b)"),
    re.compile(r"(?P<secret>sk-(?<=\bsk-)[A-Za-z0-9_-]{20,}\b)"),
    re.compile(r"(?P<secret>gh(?<=\bgh)[pousr]_[A-Za-z0-9]{20,}\b)"),
    re.compile(r"(?P<secret>github_pat_(?<=\bgithub_pat_)[A-Za-z0-9_]{22,}\b)"),
    re.compile(r"(?P<secret>glpat-(?<=\bglpat-)[A-Za-z0-9_-]{20,})"),
    re.compile(r"(?P<secret>xox(?<=\bxox)[abposr]-[A-Za-z0-9-]{10,})"),
    re.compile(r"(?P<secret>(?:AKIA|ASIA)(?<=\b\w{4})[0-9A-Z]{16}\b)"),
    re.compile(r"(?P<secret>AIza(?<=\bAIza)[0-9A-Za-z_-]{35}\b)"),
    # NVIDIA API keys (NGC, build.nvidia.com; what `docker login nvcr.io` and a NIM container take
    # as NGC_API_KEY): `nvapi-` and 64 characters of letters, digits, `_` and `-`.
    re.compile(r"(?P<secret>nvapi-(?<=\bnvapi-)[A-Za-z0-9_-]{20,})"),
    # Tailscale's keys (tailscale.com/kb/1277/key-prefixes: "tskey-" and the key's type, auth,
    # api, client, scim, webhook, then its id and secret): the auth key `tailscale up --authkey
    # tskey-auth-...` (or TS_AUTHKEY) joins a machine to the tailnet, as a GPU box is joined to
    # reach it; the flag and the name say no "token" or "api_key". Whole, from "tskey-".
    re.compile(r"(?P<secret>tskey-(?<=\btskey-)(?:[a-z]{2,8}-)?[A-Za-z0-9]{4,}-[A-Za-z0-9]{10,})"),
    # A JSON Web Token: header, payload and signature in base64url, joined by dots (RFC 7519 3,
    # RFC 7515 7.1); the header and the payload are JSON objects, so their base64 starts with "ey"
    # ('{"' is "eyJ"). It is the bearer credential a Kubernetes service account gets (`kubectl
    # create token default` prints it alone on a line), `gcloud auth print-identity-token` prints,
    # and a gateway in front of the server checks; printed bare, no name or header says so. A token
    # with no signature (alg "none") grants nothing and is left.
    re.compile(r"(?P<secret>eyJ(?<=\beyJ)[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})"),
    # A PyPI API token: "pypi-" and a macaroon in base64url, whose first bytes name its location
    # ("AgEIcHlwaS5vcmc" is \x02\x01\x08"pypi.org", "AgENdGVzdC5weXBpLm9yZw" test.pypi.org; the
    # prefix gitleaks' pypi-upload-token rule reads), as `twine upload -u __token__ -p ...`, `poetry
    # config pypi-token.pypi ...` or a `cat ~/.pypirc` print it, no secret's name before it.
    re.compile(r"(?P<secret>pypi-(?<=\bpypi-)AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,})"),
    # A Google OAuth 2.0 access token: "ya29." and base64url (developers.google.com/identity/protocols/
    # oauth2: access tokens; what `gcloud auth print-access-token` and `gcloud auth application-default
    # print-access-token` print alone on a line, a session's way to reach a GCS bucket of checkpoints
    # with curl), valid for an hour; no name or header says so where it is printed bare.
    re.compile(r"(?P<secret>ya29\.(?<=\bya29\.)[A-Za-z0-9_-]{20,})"),
    # A registry pull secret's .dockerconfigjson, a docker config.json in base64 (`{"auths":` is
    # "eyJhdXRocyI6"): `kubectl get secret ngc-pull -o yaml` prints it as the Secret's data
    # (kubernetes.io, "Pull an Image from a Private Registry": `kubectl create secret docker-registry`),
    # and inside it each registry's password and `auth` (base64 of user:password), the NGC key a
    # vLLM or NIM image is pulled with. No dots, so the JWT shape does not read it; "eyJ" gates it.
    re.compile(r"(?P<secret>eyJhdXRocyI6(?<=\beyJhdXRocyI6)[A-Za-z0-9+/]+={0,2})"),
    # A PEM private key in base64 (_B64_PRIVATE_KEY).
    re.compile(r"(?P<secret>LS0tLS1CRUdJTi(?<=\bLS0tLS1CRUdJTi)(?:" + _B64_PRIVATE_KEY + r")[A-Za-z0-9+/]*"
               r"(?:(?:(?<=(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{76})|(?<=(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{64}))"
               r"\r?\n[A-Za-z0-9+/]{1,76}(?![^\r\n=]))*={0,2})"),
]

_CLIENT_PATTERNS: list[re.Pattern[str]] = [
    # podman and nerdctl take docker login's -p (docs.podman.io, podman-login(1): "--password,
    # -p=password"), and so does `helm registry login` (helm docs, helm_registry_login: "-p,
    # --password string").
    re.compile(r"podman(?<=\bpodman)\s+login\b[^\n;|&]{0,500}?\s-p\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"-][^\s'\"]*)"),
    re.compile(r"nerdctl(?<=\bnerdctl)\s+login\b[^\n;|&]{0,500}?\s-p\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"-][^\s'\"]*)"),
    re.compile(r"helm(?<=\bhelm)\s+registry\s+login\b[^\n;|&]{0,500}?\s-p\s*"
               r"(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"-][^\s'\"]*)"),
    # The Azure CLI's service principal login takes its client secret as -p (`az login
    # --service-principal -u APP_ID -p SECRET --tenant T`; "argument --password/-p" in its usage,
    # Azure/azure-cli#12105), as a session types it to reach a storage account of checkpoints.
    re.compile(r"az(?<=\baz)\s+login\b[^\n;|&]{0,500}?\s-p\s*(?P<secret>\"[^\"]*\"|'[^']*'|[^\s$'\"-][^\s'\"]*)"),
    # The password the clients read from the environment, under a name with no "password" in it:
    # MYSQL_PWD (dev.mysql.com WL#13449, "libmysql reads the password from ... MYSQL_PWD") and
    # REDISCLI_AUTH (redis-cli since 5.0.3): `MYSQL_PWD=... mysql -u root`, `export REDISCLI_AUTH=...`.
    re.compile(r"MYSQL_PWD(?<=\bMYSQL_PWD)=" + _SHELL_REFERENCE + r"(?P<secret>\"[^\"]*\"|'[^']*'|[^\s\x00\"';&|]+)"),
    re.compile(r"REDISCLI_AUTH(?<=\bREDISCLI_AUTH)=" + _SHELL_REFERENCE + r"(?P<secret>\"[^\"]*\"|'[^']*'|[^\s\"';&|]+)"),
    # The token `gh auth login --with-token` reads from standard input (gh-auth-login(1):
    # "--with-token Read token from standard input"), echoed into it or as a here-string; a
    # GitHub Enterprise token or a classic 40-hex OAuth token has no shape the token patterns know.
    re.compile(r"(?:echo(?<=\becho)(?:\s+-[neE]+)?|printf(?<=\bprintf)(?:\s+(?:'[^'\n]*%s[^'\n]*'|\"[^\"\n]*%s[^\"\n]*\"))?)"
               r"\s+(?P<secret>\"(?!\$)[^\"]*\"|'[^']*'|(?![$\"'])[^\s|;&]+)\s*\|\s*gh\s+auth\s+login\b[^\n;|&]{0,500}?"
               r"\s--with-token\b"),
    re.compile(r"gh(?<=\bgh)\s+auth\s+login\b[^\n;|&]{0,500}?\s--with-token\b[^\n;|&]{0,500}?<<<\s*"
               r"(?P<secret>\"(?!\$)[^\"]*\"|'[^']*'|(?![$\"'])[^\s;&|]+)"),
]
"""Applied behind their literals only ("login", "MYSQL_PWD", "REDISCLI_AUTH"): a text that passes
the named gate (a URL's "://" is enough) pays three substring scans for them, not five searches."""

_QUOTED_OR_BARE = r"(?P<secret>\"(?!\$)[^\"\n]+\"|'[^'\n]+'|(?![$\"'-])[^\s;|&<>\"']+)"
"""A password typed as one word: quoted, or bare to the next space, shell operator or quote (the
one that closes a command ssh runs: `ssh db01 "mongosh -u admin -p PASS"`); not a reference the
shell fills in (`$DB_PASS`), not the next option (`-p --host`: the client asks)."""

_SAMBA_USER = (r"\s(?:-U\s*|--user[= ])(?:(?P<sq>')|(?P<dq>\"))?[^\s%'\"]+%"
               r"(?P<secret>(?!\$)(?(sq)[^'\n]+(?=')|(?(dq)[^\"\n]+(?=\")|[^\s'\"]+)))")
"""Samba's USER%PASSWORD: in quotes, the password runs to the closing quote (`-U 'alice%my pw'`
was masked up to its first space); bare, to the next space; not a `$VAR`."""

_COMMAND_REST = r"[^\n;|&]{0,1000}"
"""A command's words after its name, to the shell operator that ends it."""


class _Scoped:
    """A flag's secret each time the flag comes in one command: ``scope`` finds the command
    (its name, then its words), ``inner`` each secret inside it. One pattern from the command's
    name masked the first only (`ssh-keygen -p -P OLD -N NEW` kept NEW). It has what the
    callers use of a compiled pattern: ``sub`` and ``finditer``, whose matches are the inner ones."""

    __slots__ = ("_scope", "_inner")

    def __init__(self, scope: str, inner: str) -> None:
        self._scope = re.compile(scope).finditer
        self._inner = re.compile(inner).finditer

    def finditer(self, text: str):
        for scope in self._scope(text):
            yield from self._inner(text, scope.start(), scope.end())

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        out, pos = [], 0
        for m in self.finditer(text):
            out.append(text[pos:m.start()])
            out.append(repl(m))
            pos = m.end()
        if not out:
            return text
        out.append(text[pos:])
        return "".join(out)

class _OnLines(_Scoped):
    """``inner`` on each line that holds one of ``literals`` (found by str.find, a fast scan), not
    over the whole text: for a pattern with no literal start of its own, whose literals are common
    words (" or "), so that it costs a scan of those lines only."""

    __slots__ = ("_literals",)

    def __init__(self, literals: tuple[str, ...], inner: re.Pattern[str]) -> None:
        self._literals = literals
        self._inner = inner.finditer

    def finditer(self, text: str):
        lines = set()
        for literal in self._literals:
            at = text.find(literal)
            while at >= 0:
                start = text.rfind("\n", 0, at) + 1
                end = text.find("\n", at)
                end = len(text) if end < 0 else end
                lines.add((start, end))
                at = text.find(literal, end)
        for start, end in sorted(lines):
            yield from self._inner(text, start, end)


_DOCKERFILE_LEGACY = re.compile(r"(?m)^[ \t]*(?:ENV|ARG)[ \t]+(?!(?i:" + _TOKENIZER_TOKENS + r")[ \t])(?i:[A-Z0-9_]{0,64}?"
                                r"(?:TOKEN|SECRET(?:_?KEY(?:_?BASE)?)?|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|"
                                + _KEY_SECRETS.replace("[_-]", "_") + r"))(?:_?\d{1,3})?[ \t]+" + _SHELL_REFERENCE
                                + r"(?P<secret>\"(?!\$)[^\"\n]+\"|'[^'\n]+'|(?![$\"'])[^\s][^\r\n]*?)(?=[ \t]*(?:\r?\n|\Z))")
"""A Dockerfile's ENV or ARG in the legacy form, a space between the name and the value (_TOOL_PATTERNS)."""

_SECRET_PAYLOAD = re.compile(
    r"""payload(?<=\bpayload)["']?[ \t]*(?::[ \t]*\{|\{|:[ \t]*\r?\n)\s{0,200}?["']?data["']?[ \t]*:[ \t]*"""
    r"""(?P<secret>"(?:[^"\\\n]|\\.)+"|'[^'\n]+'|[A-Za-z0-9+/_-]+={0,2})"""
    r"""(?=[ \t]*,?[ \t]*(?:\r?\n[ \t]*)?(?:["']?data_?[cC]rc32c|\}|\Z)|[ \t]*(?:\r?\n(?![ \t])|\Z))""")
"""A Google Secret Manager secret version's payload, its `data` (the secret, base64 in JSON and
YAML): `gcloud secrets versions access latest --secret=hf-token --format=json` prints {"name":
"projects/P/secrets/hf-token/versions/3", "payload": {"data": "<base64>", "dataCrc32c": "..."}}
(cloud.google.com/secret-manager/docs/reference/rest/v1/projects.secrets.versions/access:
SecretPayload, its fields data and dataCrc32c), `--format=yaml` `payload:` then `  data: ...`, and
the Python client's response printed (protobuf's text format) `payload {` then `  data: "..."`. No
secret's name is there; the base64 decodes to the HF token or API key. Only a payload that is a
SecretPayload: its `data` first, then its dataCrc32c or the mapping's end."""


_PAYLOAD_DATA = re.compile(r"payload[\"']?[ \t]*(?::[ \t]*\{|\{|:[ \t]*\r?\n)\s{0,200}?[\"']?data[\"']?[ \t]*:").search
"""_SECRET_PAYLOAD's head, for the gate (lowered text): a Codex rollout's every line holds "payload"."""


_ENV_FALLBACK = re.compile(r"(?i)(?<![A-Z0-9_-])(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?"
                           r"|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?\b[\"']?\s*(?::=|=(?![=>])|:)\s*"
                           r"(?=(?:os\.)?(?-i:environ|getenv)|(?-i:process\.env|ENV)[.\[]|(?-i:env)\s*\()"
                           r"(?:(?:os\.)?(?-i:environ\.get|getenv)\(\s*[\"'][^\"'\n]*[\"']\s*,\s*(?:default\s*=\s*)?"
                           r"|[^\n;]{0,300}?\s(?:or|\|\||\?\?)\s+)(?P<secret>\"[^\"\n]+\"|'[^'\n]+')")
"""A secret's name set from the environment with a literal to fall back on: `api_key =
os.environ.get("X") or "sk-local"`, `os.getenv("X", "sk-local")` (Python: the second argument is the
default), `process.env.API_KEY || "dev-key"` and `?? "dev-key"` (JS), `ENV["API_KEY"] || "dev-key"`
(Ruby). The read itself is no secret (_NO_SECRET_IN_CODE), but the literal is one typed in clear,
used whenever the variable is unset; NAME=value stopped at the read and kept it. Run where
"environ", "getenv", "process.env" or "ENV" is in the text (_TOOL_PATTERNS), once."""

_OR_FALLBACK = _OnLines(tuple(op + q for op in (" or ", " else ", "|| ", "?? ") for q in "\"'"), re.compile(r"(?i)(?<![A-Z0-9_-])(?!-{0,4}" + _TOKENIZER_TOKENS + r"\b)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?"
                          r"|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r")(?:[_-]?\d{1,3})?\b[\"']?\s*(?::=|=(?![=>])|:)\s*"
                          r"(?![\"'\s])[^\n;\"']{0,300}?(?:[\"'][^\n;\"']{0,300}?){0,8}?\s(?:or|else|\|\||\?\?)\s+"
                          r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+')"))
"""A secret's name set from code's value with a literal to fall back on, as _ENV_FALLBACK reads one
after the environment: `api_key = args.api_key or "sk-local"`, `token = cfg.token if cfg.token
else "hf_..."`, `apiKey: opts.apiKey ?? "dev-key"`. The read is no secret (_COMPUTED_VALUE), but
the literal is typed in clear, used whenever the read is empty (Python reference 6.11, "Boolean
operations": `x or y` is y when x is false; 6.12, conditional expressions); NAME=value read the
code before it and kept the literal, as `api_key = "sk-local"` is masked. Not a value that starts
quoted (NAME=value masks it). Run where " or ", " else ", "||" or "??" is in the text, once, and
then on the lines that hold one right before a quote only (_OnLines: ` or "`, `?? '`): it starts
with no literal, and over a whole text it cost as much as NAME=value."""

_URL_SIGNATURE = re.compile(r"(?:[?&](?:amp;)?|\\u0026|%(?:25)?(?:3[Ff]|26))(?:X-(?:Amz|Goog)-Signature|Signature|[Ss](?:ig|IG))(?:=|%(?:25)?3[Dd])"
                            r"(?P<secret>(?:(?!%(?:25)?26)[^\s\"'&#<>()\[\]{},;\\])+)")
"""A pre-signed URL's signature, a query parameter: S3's SigV4 X-Amz-Signature and SigV2 Signature
(docs.aws.amazon.com AmazonS3 "Authenticating Requests: Using Query Parameters"), GCS's
X-Goog-Signature, an Azure SAS's sig (learn.microsoft.com, "Create a service SAS": the signature
grants the access until se). The URL is a credential until it expires. Read to the next "&" as a
query's value is (_QUERY_OR_BARE_VALUE): a X-Amz-Security-Token before it used to be masked to the
next space, over the signature; now bounded, the signature is masked on its own.
The "&" before it may be escaped: `&amp;` in HTML or XML, and `\\u0026` in the JSON a Go tool prints
(pkg.go.dev/encoding/json, Marshal: "&" is escaped to "\\u0026" by HTMLEscape; `mc share download
--json`): the URL is the same credential, and the signature stood in clear. A backslash ends it (a
signature is hex, base64 or percent-encoded: the next `\\u0026` is no part of it).
And the URL percent-encoded as another URL's parameter (`/login?next=https%3A%2F%2Fb.s3...%3F...
%26X-Amz-Signature%3D...`, a download or redirect service's `?url=`; WHATWG URL's
application/x-www-form-urlencoded serializer encodes "?", "&" and "=" as %3F, %26, %3D), or twice
(%2526, %253D): its "?", "&" and "=" are encoded, which the pattern did not read, and the signature
stood in clear. It ends at the next encoded "&" (a signature holds none: hex, or base64 whose "+",
"/" and "=" are encoded otherwise)."""

_FORM_FIELDS = _Scoped(r"(?-i:\s-d\s?|\s--data(?:-raw|-binary|-ascii)?\s|\bdata=)(?P<q>['\"])[^'\"\n]{0,4000}",
                       r"(?i)(?<=&)(?!" + _TOKENIZER_TOKENS + r"=)[A-Z0-9_-]{0,64}?(?:TOKEN|SECRET(?:[_-]?KEY(?:[_-]?BASE)?)?|PASSWORD"
                       r"|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY|" + _KEY_SECRETS + r"|[A-Z0-9][_-]PASS)(?:[_-]?\d{1,3})?="
                       r"(?!\$)(?P<secret>[^&'\"\s]*#[^&'\"\s]*)")
"""A later field of a form body (_FORM_BODY_START: `curl -d 'user=bob&password=Pa#ss1'`) whose
value holds a "#": read as a URL query's (_QUERY_OR_BARE_VALUE), its value ended at the "#", a
fragment in a URL, and the rest of the password stood after the mask (`password=***REDACTED***#ss1`).
A body has no fragment (curl sends -d's bytes as given: everything.curl.dev, "Simple POST"), so
the field runs to its "&" or the body's closing quote; what NAME=value masked is masked again
with the rest. Run inside a form body only (the scope), where "#" and "-d" or "data=" are in the
text; first (_patterns_for), so that secret_spans keeps its whole field, not NAME=value's part."""

_VLLM_KEY_WORD = r"(?![-\\<>|&;$])(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s'\"\\;|&<>]+)"
_VLLM_API_KEYS = _Scoped(r"vllm(?<=\bvllm)(?:\s+serve\b|\.entrypoints\.openai\.api_server\b)(?:[^\n;|&\\]|\\\r?\n|\\.){0,4000}",
                         r"\s--api[-_]key(?:=|\s+)(?![<>|&;`-]|\$\(|\{\{)(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s'\"]+)(?:[ \t]|\\\r?\n)+"
                         r"(?P<secret>" + _VLLM_KEY_WORD + r"(?:(?:[ \t]|\\\r?\n)+" + _VLLM_KEY_WORD + r")*)")
"""The keys after the first of vLLM's `--api-key` (`vllm serve MODEL --api-key k1 k2 --port 8000`):
it takes several (vllm/entrypoints/openai/cli_args.py, FrontendArgs: `api_key: list[str] | None`,
an argparse nargs "+": every word up to the next option is a key), and the flag pattern masked the
first only, k2 in clear. In a vLLM command only (`vllm serve`, `python -m vllm.entrypoints.openai.
api_server`), across its `\\` line continuations: elsewhere a word after a flag's value is the
command's argument. The argv walk (_redact_list) reads a server's argv so. Not after a template's reference
(`--api-key {{ api_key }} --port 8000`, a playbook's command): its words are no keys, and the
reference's name and braces were masked (`{{ ***REDACTED*** --port`)."""

_DOCKER_AUTH = re.compile(r"\"auth\"\s*:\s*\"(?P<secret>[A-Za-z0-9+/]{4,}={0,2})\"")
"""A registry's `auth` in a docker config (~/.docker/config.json, what `docker login` writes: base64
of user:password; docs.docker.com, "docker login", credential stores: "the base64 encoding of
username:password" when no helper is set), as `cat ~/.docker/config.json` prints it after a session
logs in to nvcr.io with its NGC key. `auth` names no secret elsewhere (whoami's "auth": {...}), so
read where the text holds the config's "auths" (_TOOL_PATTERNS)."""

_OBJECT_VALUE = re.compile(r"[\"']?value[\"']?[ \t]*[:=][ \t]*(?!\d{1,11}\b)" + _SHELL_REFERENCE + _NO_SECRET_IN_CODE
                           + r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|" + _BARE_VALUE + ")")


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _name_before(text: str, at: int) -> str:
    """The key whose value starts at ``at``: `NAME: `, `"NAME": `, `NAME=`, read backwards by hand
    (a regex search over the text before each mapping cost a third more on a JSON of metrics)."""
    j = at
    while j > 0 and text[j - 1] in " \t\r\n":
        j -= 1
    if j == 0 or text[j - 1] not in ":=":
        return ""
    j -= 1
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    if j > 0 and text[j - 1] in "\"'":
        j -= 1
    k = j
    while k > 0 and j - k < 80 and text[k - 1] in _NAME_CHARS:
        k -= 1
    return text[k:j]


class _FoundValues(_Scoped):
    """A _Scoped whose ``_found`` yields (where the text that names the value a secret starts, the
    value's match): ``finditer`` gives the values, ``spans`` each from its name to its value, which
    a stream's cut must not part (the value would be read in the next block with no name before
    it, and left in clear: `terraform output -json`'s name, then `"sensitive": true` and `"type"`
    lines before its `"value"`; an SSM parameter's type before its value)."""

    __slots__ = ()

    def _found(self, text: str) -> Iterator[tuple[int, re.Match[str]]]:
        raise NotImplementedError

    def finditer(self, text: str):
        for _, m in self._found(text):
            yield m

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [(start, m.end()) for start, m in self._found(text)]


class _ValueInObject(_FoundValues):
    """The `value` of a flat mapping that holds a secret. Under a secret's name: `terraform output
    -json` prints each output as {"sensitive": true, "type": "string", "value": ...} (developer.
    hashicorp.com, "terraform output": "-json ... sensitive values are displayed in plain text"),
    so `"hf_token": {"sensitive": true, ..., "value": "hf_..."}`; YAML's flow `token: { value:
    abc }`. Or beside a "keyName": `az storage account keys list` prints [{"creationTime": ...,
    "keyName": "key1", "permissions": "FULL", "value": "<the account key>"}] (learn.microsoft.com,
    az storage account keys). NAME=value read the name and a "{" (no secret: _BARE_VALUE keeps a
    mapping), the value's own key names none, and the key stood in clear. Found from each
    "value" (a fast scan), in the mapping whose "{" is the last before it, no "}" between; the
    name before the "{" is read as redact_value reads a key (is_secret_name)."""

    __slots__ = ()

    def __init__(self) -> None:
        self._inner = _OBJECT_VALUE.match

    def _found(self, text: str):
        """(where what names it as a secret starts: the name before the "{", else the "{"; the
        match of the value) of each such value, in order."""
        at = text.find("value")
        while at >= 0:
            end = at + 5
            start = at - 1 if at and text[at - 1] in "\"'" else at
            if not (start and (text[start - 1].isalnum() or text[start - 1] in "_-")):
                lo = max(0, start - 2000)
                brace = text.rfind("{", lo, start)
                if brace >= 0 and text.rfind("}", brace, start) < 0:
                    close = text.find("}", end, end + 2000)
                    name = _name_before(text, brace)
                    if (name and is_secret_name(name)
                            or '"keyName"' in text[brace:close if close >= 0 else end]):
                        m = self._inner(text, start)
                        if m is not None:
                            named = text.rfind(name, max(0, brace - 200), brace) if name else -1
                            yield (named if named >= 0 else brace), m
                            end = m.end()
            at = text.find("value", end)



_PRIMARY_SECONDARY = _Scoped(r"(?i)\{[^{}]{0,4000}?[\"']secondaryKey[\"'][^{}]{0,4000}\}",
                             r"(?i)[\"'](?:primary|secondary)Key[\"'][ \t]*:[ \t]*[\"'](?P<secret>(?!\$)[A-Za-z0-9+/=_-]{16,})[\"']")
"""Azure's pair of access keys, named primaryKey and secondaryKey: a Service Bus or Event Hubs
namespace's `authorization-rule keys list` (learn.microsoft.com, az servicebus namespace
authorization-rule keys: {"keyName": ..., "primaryConnectionString": ..., "primaryKey": ...,
"secondaryKey": ...}), `az redis list-keys`, `az signalr key list`, `az search admin-key show`,
`az maps account keys list`, `az iot hub policy show`; PowerShell's Get-AzServiceBusKey as JSON
spells them PrimaryKey, SecondaryKey. The connection strings beside them were masked
(SharedAccessKey=), the keys themselves stood in clear. Only in a mapping that holds a
secondaryKey, each value a key's shape (16 or more characters of base64, base64url or hex), as
_KEY1_KEY2 reads key1 and key2: a table schema's "primaryKey": "id" stays."""

_CONNECTION_ACCESS_KEY = re.compile(r"(?i);accesskey=(?P<secret>(?!\$)[^;\s\"'\\]+)")
"""The key of a SignalR or Web PubSub connection string (`Endpoint=https://x.service.signalr.net;
AccessKey=...;Version=1.0;`: learn.microsoft.com, "Connection strings in Azure SignalR Service"),
and of Communication Services' (`endpoint=https://x.communication.azure.com/;accesskey=...`): a
field after a ";", as a connection string writes it; `AccessKey` alone names a key's id as often."""


_TABLE_DASHES = re.compile(r"-{3,}(?: {2,}-{3,})*[ \t]*\r?").fullmatch
_TABLE_KEY_CELL = re.compile(r"(?P<secret>(?!\$)[A-Za-z0-9+/=_-]{16,})(?=[ \t]|\r?$)")
_TSV_KEY_FIELD = re.compile(r"(?<![^\t\n])(?P<secret>[A-Za-z0-9+/]{40,}={0,2})(?=\t|\r?$)", re.M)
_TABLE_KEY_COLUMNS = frozenset(("PrimaryKey", "SecondaryKey", "Key1", "Key2"))


class _AzKeyTable(_FoundValues):
    """An Azure account's keys in the az CLI's `-o table` and `-o tsv` output, where no name stands
    before each key: `az storage account keys list -o table` prints the columns KeyName,
    Permissions and Value (knack's table output: tabulate's "simple" format, the headers' first
    letters capitalized, a line of dashes under each), `az redis list-keys -o table` PrimaryKey and
    SecondaryKey, `az cognitiveservices account keys list -o table` Key1 and Key2; `-o tsv` the
    values alone, a storage key's row `key1<TAB>FULL<TAB>KEY` (the fields in any order). _ValueInObject,
    _KEY1_KEY2 and _PRIMARY_SECONDARY read the JSON; the same keys stood in clear in a table. A table's
    column is read by the span of its dashes, a Value column only beside a KeyName one; a TSV row
    only with a field key1, key2, kerb1 or kerb2 and a field FULL or READ, its fields of 40 or more
    characters of base64 the keys (an account key is 88).
    ``spans`` reaches back from a table's value to its header, so that a stream's cut does not part
    the rows from the header and dashes that say which column is a key: cut there, the rows were
    read in the next block as lines of text, and a spilled artifact kept the keys (and a vault
    table's password) in clear."""

    __slots__ = ()

    def __init__(self) -> None:
        pass

    def _found(self, text: str):
        """(the start of the table's header, or of the TSV row; the match of a key) of each, in order."""
        found = []
        at = text.find("\n--")
        while at >= 0:
            start = at + 1
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            if _TABLE_DASHES(text, start, end) is not None:
                header_start = text.rfind("\n", 0, at) + 1
                found.extend((header_start, m) for m in self._table(text, at, start, end))
            at = text.find("\n--", end)
        if "\t" in text:
            for literal in ("\tFULL", "FULL\t", "\tREAD", "READ\t"):
                at = text.find(literal)
                while at >= 0:
                    line_start = text.rfind("\n", 0, at) + 1
                    line_end = text.find("\n", at)
                    line_end = len(text) if line_end < 0 else line_end
                    fields = text[line_start:line_end].rstrip("\r").split("\t")
                    if ("FULL" in fields or "READ" in fields) and any(f in ("key1", "key2", "kerb1", "kerb2") for f in fields):
                        found.extend((line_start, m) for m in _TSV_KEY_FIELD.finditer(text, line_start, line_end))
                    at = text.find(literal, line_end)
        found.sort(key=lambda found_at: found_at[1].start())
        last = -1
        for start, m in found:  # a row found by two literals is yielded once
            if m.start() >= last:
                last = m.end()
                yield start, m

    @staticmethod
    def _table(text: str, at: int, start: int, end: int):
        header_start = text.rfind("\n", 0, at) + 1
        header = text[header_start:at]
        dashes = text[start:end]
        columns = [(m.start(), m.end()) for m in re.finditer("-+", dashes)]
        names = [header[s:e].strip() for s, e in columns]
        if names == ["Key", "Value"]:
            yield from _AzKeyTable._vault_rows(text, end + 1, columns[1][0])
            return
        wanted = [i for i, name in enumerate(names)
                  if name in _TABLE_KEY_COLUMNS or name == "Value" and "KeyName" in names]
        if not wanted:
            return
        for pos, row_end in _table_rows(text, end + 1, 100):
            for i in wanted:
                m = _TABLE_KEY_CELL.match(text, pos + columns[i][0], row_end)
                if m is not None:
                    yield m


    @staticmethod
    def _vault_rows(text: str, pos: int, column: int):
        """The values of a HashiCorp Vault Key/Value table's rows whose key names a secret: `vault
        kv get secret/hf` prints the secret's data so (`====== Data ======`, then `Key  Value`, a line
        of dashes, `password    ...`, `token    ...`), `vault read database/creds/ro` a dynamic
        secret's `password` (developer.hashicorp.com, vault kv get, "-format=table" the default).
        No "=" or ":" stands between the key and its value."""
        for pos, row_end in _table_rows(text, pos, 1000):
            key = text[pos:pos + column]
            if key[-1:] in (" ", "\t") and is_secret_name(key.strip()):
                m = _VAULT_CELL(text, pos + column, row_end)
                if m is not None:
                    yield m


def _table_rows(text: str, pos: int, most: int):
    """(start, end) of each row of a table whose rows begin at ``pos``, to the first blank line
    (or the text's end), ``most`` rows at most."""
    for _ in range(most):
        if pos >= len(text):
            return
        row_end = text.find("\n", pos)
        row_end = len(text) if row_end < 0 else row_end
        if not text[pos:row_end].strip():
            return
        yield pos, row_end
        pos = row_end + 1


_VAULT_CELL = re.compile(r"(?P<secret>(?!\$|<nil>|n/a\b)\S(?:[^\r\n]*\S)?)[ \t]*\r?$").match


_BLOCK_HEADER = re.compile(r"[ \t]*(?:-[ \t]+)?[\"']?(?P<name>[\w.-]{1,80})[\"']?[ \t]*\r?").fullmatch
_BLOCK_END = r"(?=[ \t]+#|[ \t]*\r?(?:\n|\Z))"
_BLOCK_ITEM = re.compile(r"[ \t]*-[ \t]+(?![\w./-]{1,64}[ \t]*:(?:\s|\Z))" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE + _YAML_BLOCK
                         + r"(?P<secret>\"(?:[^\"\\\n]|\\.)+\"|'[^'\n]+'|(?![\[{&*!#])[^\s#]+)" + _BLOCK_END).match
_BLOCK_VALUE = re.compile(r"[ \t]*[\"']?value[\"']?[ \t]*:[ \t]*(?!\d{1,11}\b)" + _SHELL_REFERENCE + _TEMPLATE_REFERENCE
                          + _NO_SECRET_IN_CODE + _YAML_BLOCK
                          + r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|(?![\[{&*!#])[^\s#][^\r\n]*?)" + _BLOCK_END).match


_BLOCK_SCALAR = re.compile(r"[ \t]*(?:-[ \t]+)?[\"']?value[\"']?[ \t]*:[ \t]*[|>][1-9+-]{0,2}[ \t]*(?:#[^\n]*)?\r?\n"
                           r"(?P<ind>[ \t]+)(?P<secret>\S[^\r\n]*(?:\r?\n(?P=ind)[^\r\n]*)*)").match
"""A `value:` whose value is a YAML block scalar (`value: |`, `value: >-`; YAML 1.2.2 8.1), the block's
lines the value: its match's ``ind``, the block's indentation, must be deeper than the key's."""


def _block_scalar(text: str, pos: int, here: int) -> re.Match[str] | None:
    """_BLOCK_SCALAR at ``pos``, the line of a `value:` indented ``here``, if its block is deeper."""
    m = _BLOCK_SCALAR(text, pos)
    return m if m is not None and len(m.group("ind")) > here else None


class _BlockUnderSecret(_Scoped):
    """The values of a YAML block under a secret's name, on the lines below it (YAML 1.2.2 8.2,
    block collections): a sequence's items (`api-key:` then `  - k1` and `  - k2`: vLLM's --api-key
    takes several keys, and its `--config` YAML file spells the list so; vllm/utils, FlexibleArgumentParser
    load_config_file), and a mapping's `value` (`hf_token:` then `  sensitive: true`, `  value: hf_...`:
    `terraform output -json | yq -P`, the mapping _ValueInObject reads in braces). NAME=value read the
    next line's "-" or `value:` as the value (_VALUE_GAP), and each key stood in clear. Found from each
    ":" at a line's end (a fast scan), its name read as redact_value reads a key (is_secret_name); the
    block's lines are those indented under it (a sequence may stand at the name's own indentation),
    its nested blocks skipped. ``spans`` reaches back to the name, so that a stream's cut does not part
    the name from its values."""

    __slots__ = ()
    _REACH = 64 * 1024

    def __init__(self) -> None:
        pass

    def _found(self, text: str):
        """(start of the name's line, a match of each value) of each block under a secret's name."""
        for colon_nl in (":\n", ":\r\n"):
            at = text.find(colon_nl)
            while at >= 0:
                start = text.rfind("\n", 0, at) + 1
                header = _BLOCK_HEADER(text, start, at)
                pos = at + len(colon_nl)
                if header is not None and is_secret_name(header.group("name")):
                    depth = len(header.group()) - len(header.group().lstrip(" \t"))
                    matches, pos = self._values(text, pos, depth)
                    if matches:
                        yield start, matches
                at = text.find(colon_nl, pos)

    @staticmethod
    def _values(text: str, pos: int, depth: int):
        matches, indent, limit = [], -1, min(len(text), pos + _BlockUnderSecret._REACH)
        while pos < limit:
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end + 1
            line = text[pos:end]
            body = line.lstrip(" \t")
            if body.strip():
                here = len(line) - len(body)
                if indent < 0:
                    if here < depth or here == depth and not body.startswith("- "):
                        break
                    indent = here
                elif here < indent or here == depth and not body.startswith("- "):
                    break
                if here == indent:
                    m = (_BLOCK_ITEM(text, pos) if body[:1] == "-"
                         else _BLOCK_VALUE(text, pos) if body[:5] == "value" or body[1:6] == "value" else None)
                    if m is not None and m.start("secret") < end:
                        matches.append(m)
                    elif m is None and body[:1] != "-" and (body[:5] == "value" or body[1:6] == "value"):
                        # `value: |` (terraform output read as YAML: a key's PEM, a kubeconfig), its lines below
                        m = _block_scalar(text, pos, here)
                        if m is not None:
                            matches.append(m)
            pos = end
        return matches, pos

    def finditer(self, text: str):
        for _, matches in self._found(text):
            yield from matches

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [(start, matches[-1].end()) for start, matches in self._found(text)]


_BLOCK_UNDER_SECRET = _BlockUnderSecret()


_PAIR_NAME = re.compile(r"[ \t]*(?:-[ \t]+)?[\"']?name[\"']?[ \t]*:[ \t]*[\"']?(?P<name>[\w.-]{1,80})[\"']?[ \t]*\r?").fullmatch


class _PairBlockValue(_FoundValues):
    """A secret-named variable's `value` written as a YAML block scalar, in a list of name/value
    pairs: `kubectl get deploy -o yaml` prints an env var whose value holds a new line (a PEM key, a
    JSON of credentials, a token pasted with its new line) as `- name: HF_TOKEN` then `  value: |` and
    the value on the lines below (YAML 1.2.2 8.1.1). The name/value pattern read the "|" for the value:
    masked, the secret stood on the next lines. Found from each "value: |" or "value: >" (a fast
    scan), the name on the line before; ``spans`` reaches back to it, so that a stream's cut does not
    part the name from the value."""

    __slots__ = ()

    def __init__(self) -> None:
        pass

    def _found(self, text: str):
        """(start of the name's line, the match of the value) of each such block, in order."""
        found = {}
        for literal in ("value: |", "value: >"):
            at = text.find(literal)
            while at >= 0:
                start = text.rfind("\n", 0, at) + 1
                head = text[start:at]
                here = len(head) - len(head.lstrip(" \t"))
                if start and head.strip(" \t-\"'") == "" and start not in found:
                    m = _block_scalar(text, start, here)
                    name_start = text.rfind("\n", 0, start - 1) + 1
                    name = _PAIR_NAME(text, name_start, start - 1)
                    if m is not None and name is not None and is_secret_name(name.group("name")):
                        found[start] = (name_start, m)
                at = text.find(literal, at + 8)
        return [found[k] for k in sorted(found)]



_PAIR_BLOCK_VALUE = _PairBlockValue()


_AZ_KEY_TABLE = _AzKeyTable()


_SECURE_STRING_VALUE = re.compile(r"[\"']Value[\"'][ \t]*:[ \t]*(?P<secret>\"(?!\$)(?:[^\"\\\n]|\\.)+\"|'(?!\$)[^'\n]+')")


class _SecureStringValue(_FoundValues):
    """The decrypted `Value` of an SSM parameter of type SecureString: `aws ssm get-parameter --name
    /vllm/hf_token --with-decryption` prints {"Parameter": {"Name": ..., "Type": "SecureString",
    "Value": "<the secret>", ...}} (docs.aws.amazon.com, ssm get-parameter, "Output"; get-parameters
    and get-parameters-by-path a list of them), as a session on an EC2 GPU host reads its HF token or
    API key. The type says it is a secret, whatever the parameter's name (`/prod/llm/key`); the value
    stood in clear. Found from each "SecureString" (a fast scan), in the mapping whose "{" is the last
    before it, no "}" between, to its "}".
    And as `--output yaml` prints it (`Type: SecureString`, then `Value: <the secret>` at the same
    indentation, in the same mapping) and `--output text` (a row `PARAMETER<TAB>ARN<TAB>...<TAB>
    SecureString<TAB><the secret><TAB>3`: the CLI writes a row's fields in the order of their keys
    sorted, Type then Value; aws-cli awscli/text.py), which the JSON's "{" did not find."""

    __slots__ = ()

    def __init__(self) -> None:
        self._inner = _SECURE_STRING_VALUE.finditer

    def _found(self, text: str):
        """(the "{" of the parameter's mapping, or its first line; the match of its Value) of each, in order."""
        at, last = text.find("SecureString"), -1
        while at >= 0:
            line_start = text.rfind("\n", 0, at) + 1
            tsv = text[at - 1:at] == "\t" and text[at + 12:at + 13] == "\t" and text.startswith("PARAMETER", line_start)
            m = _TSV_SECURE_VALUE(text, at + 12) if tsv else None
            if m is None and not tsv:  # the span from the type's line: a cut falls before it, not after
                m = _yaml_secure_value(text, line_start, at)
            if m is not None:
                if m.start() >= last:
                    last = m.end()
                    yield line_start, m
                at = text.find("SecureString", at + 12)
                continue
            brace = text.rfind("{", max(0, at - 4000), at)
            if brace >= 0 and text.rfind("}", brace, at) < 0:
                close = text.find("}", at, at + 4000)
                for m in self._inner(text, brace, close if close >= 0 else min(len(text), at + 4000)):
                    if m.start() >= last:
                        last = m.end()
                        yield brace, m
            at = text.find("SecureString", at + 12)



_SECURE_STRING = _SecureStringValue()

_TSV_SECURE_VALUE = re.compile(r"\t(?P<secret>(?!\$)[^\t\r\n]+)").match
_YAML_TYPE_LINE = re.compile(r"(?P<ind>[ \t]*)(?:-[ \t]+)?Type:[ \t]*[\"']?SecureString[\"']?[ \t]*\r?").fullmatch
_YAML_SECURE_VALUE = re.compile(r"[ \t]*Value:[ \t]*(?P<secret>\"(?:[^\"\\\n]|\\.)+\"|'[^'\n]+'|(?![|>$\s])[^\r\n]*[^\s])[ \t]*\r?$",
                                re.M).match


@functools.lru_cache(maxsize=16)
def _yaml_block_value(deeper: int):
    """The match of a `Value: |-` (or `>`) whose block, its lines indented ``deeper`` columns or
    more, is the secret: `--output yaml` of a multi-line SecureString (a PEM key) writes it so."""
    return re.compile(r"[ \t]*Value:[ \t]*[|>][-+0-9]*[ \t]*\r?\n[ \t]{%d,}(?P<secret>\S[^\r\n]*"
                      r"(?:\r?\n[ \t]{%d,}\S[^\r\n]*)*)" % (deeper, deeper)).match


def _yaml_secure_value(text: str, line_start: int, at: int) -> re.Match[str] | None:
    """The match of the `Value:` in the YAML mapping whose `Type: SecureString` line starts at
    ``line_start`` (``at``: its "SecureString"); None if the line is no such key. The CLI sorts
    the keys: Value comes after Type, Version after it."""
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    head = _YAML_TYPE_LINE(text, line_start, end)
    if head is None:
        return None
    indent = len(head.group()) - len(head.group().lstrip(" \t-"))  # the column of its keys
    pos = end + 1
    for _ in range(32):  # on to its Value (Version follows it)
        if pos >= len(text):
            break
        row_end = text.find("\n", pos)
        row_end = len(text) if row_end < 0 else row_end
        line = text[pos:row_end]
        body = line.lstrip(" \t")
        if len(line) - len(body) != indent or body.startswith("- "):
            break
        if body.startswith("Value:"):
            stop = row_end + 1 if row_end < len(text) else row_end
            if body[6:].lstrip(" \t")[:1] in ("|", ">"):  # a block scalar: a PEM key, a multi-line secret
                return _yaml_block_value(indent + 1)(text, pos)
            return _YAML_SECURE_VALUE(text, pos, stop)
        pos = row_end + 1
    return None


_KEY1_KEY2 = _Scoped(r"\{[^{}]{0,1000}?[\"']key2[\"'][^{}]{0,1000}\}",
                     r"[\"']key[12][\"'][ \t]*:[ \t]*[\"'](?P<secret>(?!\$)[A-Za-z0-9+/=_-]{16,})[\"']")
"""Azure's pair of account keys, named key1 and key2: `az cognitiveservices account keys list`
(an Azure OpenAI or AI Services resource; learn.microsoft.com, az cognitiveservices account keys:
{"key1": ..., "key2": ...}) and the same shape of other resources' `keys list`. The names are
no secret's anywhere else, so only in a mapping that holds both, each value a key's shape
(16 or more characters of hex, base64 or base64url): `{"key1": "a", "key2": "b"}` stays."""


_TOOL_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # A pre-signed URL's signature (_URL_SIGNATURE).
    ("Signature=", _URL_SIGNATURE),
    ("sig=", _URL_SIGNATURE),
    ("Signature%", _URL_SIGNATURE),
    ("sig%", _URL_SIGNATURE),
    # Azure's SDKs read a SAS's parameters in any case (Azure.Storage.Sas SasQueryParameters: "sig"
    # and SignatureUpper "SIG"): a hand-built URL's `&SIG=`, `&Sig=`.
    ("SIG=", _URL_SIGNATURE),
    ("Sig=", _URL_SIGNATURE),
    ("SIG%", _URL_SIGNATURE),
    ("Sig%", _URL_SIGNATURE),
    # A secret's default after a read of the environment (_ENV_FALLBACK).
    # A Secret Manager secret version's payload data (_SECRET_PAYLOAD).
    ("payload", _SECRET_PAYLOAD),
    ("environ", _ENV_FALLBACK),
    ("getenv", _ENV_FALLBACK),
    ("process.env", _ENV_FALLBACK),
    ("ENV", _ENV_FALLBACK),
    # A secret's literal fallback after code's value (_OR_FALLBACK).
    (" or ", _OR_FALLBACK),
    (" else ", _OR_FALLBACK),
    ("||", _OR_FALLBACK),
    ("??", _OR_FALLBACK),
    # mongosh -p PASSWORD, and the legacy mongo shell's and the database tools' (mongodump ...)
    # -p (mongo(1): "[-u <username>] [-p <password>]"; mongosh's --password, -p). `--password X`
    # is the flag pattern's; `-p` with no value is the shell asking for it.
    ("mongo", re.compile(r"mongo(?<=\bmongo)(?:sh|dump|restore|export|import|stat|top|files)?(?=\s)[^\n;|&]{0,500}?"
                         r"\s-p\s+" + _QUOTED_OR_BARE)),
    # The OpenLDAP clients' simple-bind password, -w passwd (ldapsearch(1), ldapmodify(1), ...:
    # "-w passwd  Use passwd as the password for simple authentication"; -W prompts instead).
    ("ldap", re.compile(r"ldap(?<=\bldap)(?:search|add|modify|delete|modrdn|passwd|whoami|compare|exop)\b"
                        r"[^\n;|&]{0,500}?\s-w\s*" + _QUOTED_OR_BARE)),
    # openssl's -passin/-passout/-pass pass:PASSWORD (openssl-passphrase-options(1): "pass:password
    # The actual password is password"); env:VAR, file:PATH, fd:N and stdin name where it is.
    ("openssl", re.compile(r"openssl(?<=\bopenssl)\b[^\n;|&]{0,1000}?\s-[a-z]*pass[a-z]*\s+['\"]?pass:"
                           r"(?P<secret>(?<='pass:)[^'\n]+(?=')|(?<=\"pass:)(?!\$)[^\"\n]+(?=\")|(?<=\spass:)(?!\$)[^\s'\";|&<>]+)")),
    # Samba's clients take -U USER%PASSWORD (smbclient(1): "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]",
    # the same common option in smbcacls, smbget, smbtree and rpcclient).
    ("smb", re.compile(r"smb(?<=\bsmb)(?:client|cacls|get|tree)\b[^\n;|&]{0,500}?" + _SAMBA_USER)),
    ("rpcclient", re.compile(r"rpcclient(?<=\brpcclient)\b[^\n;|&]{0,500}?" + _SAMBA_USER)),
    # htpasswd -b takes the password on the command line, after the file and the user (Apache
    # htpasswd docs: "htpasswd -b [ -c ] ... passwdfile username password", "htpasswd -nb
    # [...] username password" with no file); without -b it asks.
    ("htpasswd", re.compile(r"htpasswd(?<=\bhtpasswd)(?:\s+-(?:[Cr]\s*\d+|[A-Za-z0-9]+))*?\s+-(?![Cr]\s*\d)[A-Za-z0-9]*b"
                            r"[A-Za-z0-9]*(?:\s+-(?:[Cr]\s*\d+|[A-Za-z0-9]+))*\s+(?:[^\s<>|;&-]\S*\s+)?[^\s<>|;&-]\S*\s+"
                            + _QUOTED_OR_BARE)),
    # gpg --passphrase STRING (gpg(1): "Use string as the passphrase"; --passphrase-file/-fd name where).
    ("gpg", re.compile(r"gpg(?<=\bgpg)2?\b[^\n;|&]{0,500}?\s--passphrase[= ]+" + _QUOTED_OR_BARE)),
    # ngrok's authtoken as the command's argument (`ngrok config add-authtoken TOKEN`: ngrok.com/docs/
    # gateway/site-to-site-connectivity/authtoken-acls; v2's `ngrok authtoken TOKEN`), as a session
    # types it to reach a box behind a NAT.
    ("ngrok", re.compile(r"ngrok(?<=\bngrok)\s+(?:config\s+add-authtoken|authtoken)\s+" + _QUOTED_OR_BARE)),
    # A Dockerfile's legacy `ENV NAME value` and `ARG NAME value` (docs.docker.com/reference/
    # dockerfile/#env: "ENV MY_VAR my-value", the value the rest of the line; build-checks
    # LegacyKeyValueFormat: "ARG foo bar"), as `cat Dockerfile` or `docker history --no-trunc`
    # prints it: a space, no "=", so NAME=value does not read it. At a line's start, upper case as
    # the instruction is written here; not a `$VAR` or `${ARG}` reference.
    ("ENV", _DOCKERFILE_LEGACY),
    ("ARG", _DOCKERFILE_LEGACY),
    # A docker config's registry auth (_DOCKER_AUTH).
    ('"auths"', _DOCKER_AUTH),
    # The value of a mapping under a secret's name, or of az's account keys (_ValueInObject).
    ("value", _ValueInObject()),
    # A YAML block's items or `value` under a secret's name (_BlockUnderSecret).
    (":\n", _BLOCK_UNDER_SECRET),
    (":\r\n", _BLOCK_UNDER_SECRET),
    # A name/value pair's `value: |` block under a secret's name (_PairBlockValue).
    ("value: |", _PAIR_BLOCK_VALUE),
    ("value: >", _PAIR_BLOCK_VALUE),
    # Azure's primaryKey and secondaryKey (_PRIMARY_SECONDARY), a connection string's AccessKey.
    ('econdaryKey"', _PRIMARY_SECONDARY),
    ("econdaryKey'", _PRIMARY_SECONDARY),
    (";AccessKey=", _CONNECTION_ACCESS_KEY),
    (";accesskey=", _CONNECTION_ACCESS_KEY),
    # An Azure account's keys in az's table and tsv output (_AzKeyTable).
    # An SSM SecureString parameter's decrypted Value (_SecureStringValue).
    ("SecureString", _SECURE_STRING),
    ("KeyName", _AZ_KEY_TABLE),
    # HashiCorp Vault's Key/Value table (_AzKeyTable._vault_rows).
    ("Value\n---", _AZ_KEY_TABLE),
    ("Value\r\n---", _AZ_KEY_TABLE),
    ("PrimaryKey", _AZ_KEY_TABLE),
    ("Key1 ", _AZ_KEY_TABLE),
    ("\tFULL", _AZ_KEY_TABLE),
    ("FULL\t", _AZ_KEY_TABLE),
    ("\tREAD", _AZ_KEY_TABLE),
    ("READ\t", _AZ_KEY_TABLE),
    # Azure's key1 and key2 (_KEY1_KEY2).
    ('key2"', _KEY1_KEY2),
    ("key2'", _KEY1_KEY2),
    # vLLM's --api-key takes several keys (_VLLM_API_KEYS).
    ("vllm", _VLLM_API_KEYS),
    # ssh-keygen -N new_passphrase, -P passphrase (ssh-keygen(1); `-p -P OLD -N NEW` changes it):
    # each of them in the command, `-N ''` (no passphrase) kept.
    ("ssh-keygen", _Scoped(r"ssh-keygen(?<=\bssh-keygen)\b" + _COMMAND_REST, r"\s-[NP]\s*" + _QUOTED_OR_BARE)),
    # zip -P password, unzip -P password (zip(1): "-P password --password password use password to
    # encrypt zipfile entries"; unzip(1): "-P password use password to decrypt"); not gzip's.
    ("zip", _Scoped(r"(?<![\w.-])(?:un)?zip(?=\s)" + _COMMAND_REST, r"\s-P\s+" + _QUOTED_OR_BARE)),
    # 7-Zip's -p{Password}, the password joined to the switch (7-Zip manual, "-p (set Password)
    # switch"); `-p` alone asks for it.
    ("7z", _Scoped(r"(?<![\w.-])7z[arz]?(?=\s)" + _COMMAND_REST, r"\s-p" + _QUOTED_OR_BARE)),
    # keytool's and jarsigner's -storepass/-keypass (and keytool -importkeystore's -srcstorepass,
    # -deststorepass, -srckeypass, -destkeypass; -storepasswd/-keypasswd's -new): "-storepass[:env
    # | :file] argument" (keytool(1), JDK); the :env and :file forms name where it is.
    ("keytool", _Scoped(r"keytool(?<=\bkeytool)\b" + _COMMAND_REST,
                        r"\s-(?:(?:src|dest)?(?:store|key)pass|new)\s+" + _QUOTED_OR_BARE)),
    ("jarsigner", _Scoped(r"jarsigner(?<=\bjarsigner)\b" + _COMMAND_REST,
                          r"\s-(?:store|key)pass\s+" + _QUOTED_OR_BARE)),
    # lftp -u user[,pass] (lftp(1)), and its own `open -u user,pass` (lftp -e "open -u ...").
    ("lftp", _Scoped(r"lftp(?<=\blftp)\b[^\n]{0,1000}",
                     r"\s-u\s+(?P<q>['\"])?[^\s,'\"]+,(?P<secret>(?!\$)(?(q)[^'\"\n]+|[^\s'\";|&<>]+))")),
    # `echo user:pass | chpasswd` and `chpasswd <<< user:pass` (chpasswd(8): "reads a list of user
    # name and password pairs from standard input ... user_name:password").
    ("chpasswd", re.compile(r"echo(?<=\becho)(?:\s+-[neE]+)?\s+(?P<q>['\"])?[\w.-]+:(?P<secret>(?!\$)(?(q)[^'\"\n]+|[^\s'\";|&<>]+))"
                            r"(?(q)(?P=q))\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?chpasswd\b")),
    ("chpasswd", re.compile(r"chpasswd(?<=\bchpasswd)\b[^\n;|&<]{0,100}<<<\s*(?P<q>['\"])?[\w.-]+:"
                            r"(?P<secret>(?!\$)(?(q)[^'\"\n]+|[^\s'\";|&<>]+))")),
    # useradd/usermod -p PASSWORD, the crypt(3) hash of the password (useradd(8): "-p, --password
    # PASSWORD The encrypted password"); a hash is cracked offline, so it is masked as a password.
    ("user", _Scoped(r"user(?:add|mod)(?<=\buseradd|\busermod)\b" + _COMMAND_REST, r"\s-p\s+" + _QUOTED_OR_BARE)),
    # Samba's net takes the same -U USER%PASSWORD (net(8): "-U|--user=USERNAME[%PASSWORD]"):
    # `net ads join -U administrator%PASS`.
    ("net", _Scoped(r"(?<![\w./-])net\s+(?:ads|rpc|rap|sam|dom)\b" + _COMMAND_REST, _SAMBA_USER)),
    # openssl enc -k password (openssl-enc(1): "-k password The password to derive the key from";
    # the older spelling of -pass pass:), as `openssl aes-256-cbc -k PASS` too.
    ("openssl", _Scoped(r"openssl(?<=\bopenssl)\b" + _COMMAND_REST, r"\s-k\s+" + _QUOTED_OR_BARE)),
    # openssl passwd PASSWORD, the password to hash as its argument (openssl-passwd(1): "openssl
    # passwd [-1|-5|-6|-apr1|...] [-salt string] [-in file] [-stdin] ... {password}"), as typed
    # into `useradd -p "$(openssl passwd -6 PASS)" alice`; -stdin and -in read it elsewhere.
    ("openssl", re.compile(r"openssl(?<=\bopenssl)\s+passwd\b(?:\s+-(?:salt|in)\s+\S+|\s+-(?!(?:salt|in)\b)[\w-]+)*\s+"
                           r"(?P<secret>\"(?!\$)[^\"\n]+\"|'[^'\n]+'|(?![$\"'-])[^\s;|&<>\"')`]+)")),
    # ldappasswd -s newPasswd and -a oldPasswd (ldappasswd(1); -S and -A ask); -w is the pattern above's.
    ("ldappasswd", _Scoped(r"ldappasswd(?<=\bldappasswd)\b" + _COMMAND_REST, r"\s-[as]\s*" + _QUOTED_OR_BARE)),
    # A secret-named variable set by fish's `set -gx NAME VALUE` (fishshell.com docs, cmds/set:
    # "set [-Uflg] NAME [VALUE ...]"; its FAQ: "set -x key value # typically set -gx key value") or
    # csh's `setenv NAME VALUE`: a space, no "=", between the name and the value. Only with an
    # option that sets (not -e/--erase, -q, -S, -n: no value follows) and on one line: prose
    # ("set HF_TOKEN and retry") and bash's `set -x` before a new line are no assignment. A fish
    # command substitution `(cat FILE)` is a reference, as `$(...)` is. Lower case, as the
    # commands are typed (Apache's SetEnv is no shell's).
    ("set", re.compile(r"(?<![\w-])(?:setenv|set(?:[ \t]+(?:-[fglxuUapL]+|--(?:global|local|function|universal|export"
               r"|unexport|append|prepend|path|unpath)))+)[ \t]+(?!(?i:" + _TOKENIZER_TOKENS + r")[ \t])(?i:[A-Z0-9_]{0,64}?"
               r"(?:TOKEN|SECRET(?:_?KEY(?:_?BASE)?)?|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|" + _KEY_SECRETS.replace("[_-]", "_")
               + r"))(?:_?\d{1,3})?[ \t]+" + _SHELL_REFERENCE
               + r"(?P<secret>\"(?!\$)[^\"\n]+\"|'[^'\n]+'|(?![(\"'$])[^\s;|&<>\"'()]+)")),
]
"""Clients that take a password on their command line under a flag named otherwise; each pattern
runs only where its literal is in the text."""

_NAMED_PATTERNS.extend((_PASS_NAME, _PASS_FLAG))
_PATTERNS = _NAMED_PATTERNS + _TOKEN_PATTERNS
"""In the order they are applied: a later pattern sees the masks of the earlier ones."""
_PATTERNS_WITH_CLIENTS = _NAMED_PATTERNS + _CLIENT_PATTERNS + _TOKEN_PATTERNS
_PATTERNS_NO_PASS = [pattern for pattern in _PATTERNS if pattern is not _PASS_NAME and pattern is not _PASS_FLAG]
_PATTERNS_WITH_CLIENTS_NO_PASS = [pattern for pattern in _PATTERNS_WITH_CLIENTS
                                  if pattern is not _PASS_NAME and pattern is not _PASS_FLAG]

# "token" and "key" are everyday words of the evidence ("gen throughput (token/s)", "#token: 512",
# "sort key"); a pattern reads one only as a name before "=" or ":" (not before a bare count),
# as a flag (--hf-token VALUE, --api-key=VALUE) or in "PRIVATE KEY". Each check starts with its
# literal, so the scan is a fast one. The spaces after the ":" are inside the lookahead: outside
# it, "#token: 512" matched by giving the space back (SGLang's Decode batch lines all hold it,
# so every block of a server log ran every pattern), and a secret never starts with a space.
# (the quote after the name may be escaped: a JSON body inside a double-quoted shell word)
_TOKEN_ASSIGN = re.compile(r"token(?:[_-]?\d{1,3})?\\?[\"']?\s*[=:](?!\s*\d{1,11}\b)").search
_TOKEN_FLAG = re.compile(r"(?:[-_]|auth|access|refresh)token(?:[-_]?\d{1,3})?[= \x00]").search
_KEY_ASSIGN = re.compile(r"key(?:[_-]?\d{1,3})?\\?[\"']?\s*[=:](?!\s*\d{1,11}\b)").search
_KEY_FLAG = re.compile(r"(?:[-_]|api)key(?:[-_]?\d{1,3})?[= \x00]").search
# a secret-named variable's name, then its value's key: `HF_TOKEN\n  value:`, `"HF_TOKEN", "value":`
_ENV_PAIR = re.compile(r"(?:token|key)(?:[_-]?\d{1,3})?[\"']?\s*,?\s*[\"']?(?:[\w\[\]]{0,64}\.)?value[\"']?\s*[:=]").search
# `environ["HF_TOKEN"] = ` and `setdefault("HF_TOKEN", ` in code (lowered text)
_KEY_IN_CODE = re.compile(r"(?:token|key)(?:[_-]?\d{1,3})?[\"']\s*(?:\]\s*=|,)").search


def may_hold_secret(text: str) -> bool:
    """False when ``text`` lacks every literal the patterns need (case folded; "token" and "key"
    only where a pattern would read them). An analysis JSON holds hundreds of thousands of
    short strings (hosts, units, names), almost none with a secret; this costs what one of the
    fifteen substitutions does (``in`` on the lowered text: a case-insensitive alternation is
    ten times slower). The few characters outside ASCII that ``re.I`` folds to an ASCII letter
    (U+017F is an "s") are read as that letter."""
    return _may_need_named(text) or _may_hold_token(text)


def _patterns_for(text: str) -> list[re.Pattern[str]]:
    """The patterns that may match ``text``, in their order; none for most texts. The token
    shapes alone are cheap (literal-first, case-sensitive): a blob of base64 holds "xox" or
    "AKIA" in most 64 KB, and that no longer runs the case-insensitive patterns, which cost
    40x more on it."""
    if _may_need_named(text):
        clients = "login" in text or "MYSQL_PWD" in text or "REDISCLI_AUTH" in text
        if _PASS_WORD(text) is not None:
            patterns = _PATTERNS_WITH_CLIENTS if clients else _PATTERNS
        else:  # _PASS_NAME and _PASS_FLAG, which no literal starts, run only where they may match
            patterns = _PATTERNS_WITH_CLIENTS_NO_PASS if clients else _PATTERNS_NO_PASS
        tools = list(dict.fromkeys(pattern for literal, pattern in _TOOL_PATTERNS if literal in text))
        if "#" in text and ("-d" in text or "data=" in text):  # before NAME=value: its span is the whole field
            patterns = [_FORM_FIELDS] + patterns
        return patterns[:-len(_TOKEN_PATTERNS)] + tools + _TOKEN_PATTERNS if tools else patterns
    return _TOKEN_PATTERNS if _may_hold_token(text) else []


# The literals of the AWS and Google shapes, and GitHub's ghp_ gho_ ghu_ ghs_ ghr_, each group
# found in one scan: re finds a pattern's literal start by a fast scan, where each "in" is a scan
# of its own (and "gh", in "through" and "might", used to run six more: 37 ms on 9 MB of prose).
_AWS_GOOGLE_LITERAL = re.compile(r"A(?:KIA|SIA|Iza)").search
_GITHUB_LITERAL = re.compile(r"gh[pousr]_").search


def _may_hold_token(text: str) -> bool:
    """A literal every token shape starts with, as written (those patterns are case-sensitive):
    hf_, sk-, glpat-, xox, nvapi-, AKIA, ASIA, AIza, ghp_, gho_, ghu_, ghs_, ghr_, github_pat_, eyJ (a JWT), tskey-,
    pypi-AgE, LS0tLS1CRUdJTi (a PEM private key in base64), ya29. (a Google access token).
    github_pat_ has no "gh" in it: behind the "gh" test, a fine-grained token alone in a text
    (its 82 random characters hold no "gh" about 98 times in 100) was left unmasked."""
    return ("hf_" in text or "sk-" in text or "glpat-" in text or "xox" in text or "nvapi-" in text
            or _AWS_GOOGLE_LITERAL(text) is not None
            or "gh" in text and _GITHUB_LITERAL(text) is not None or "github_pat_" in text or "eyJ" in text
            or "tskey-" in text or "pypi-AgE" in text or "LS0tLS1CRUdJTi" in text or "ya29." in text)


_FOLDS_TO_ASCII = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))
"""The only characters outside ASCII that ``re.IGNORECASE`` matches to an ASCII letter, or whose
``lower()`` holds one (İ, dotless ı, long ſ, the Kelvin sign K; found by trying every code
point): with them spelt as their letter, the literals below are looked for as the patterns see them."""


_PAT_WORD = re.compile(r"pat(?:(?<=hubpat)|(?<=labpat)|(?<=ghpat)|(?<=hub[_-]pat)|(?<=lab[_-]pat)|(?<=gh[_-]pat))").search
"""GITHUB_PAT, GITLAB_PAT, GH_PAT (_KEY_SECRETS) in lowered text; literal first, a fast scan."""


def _may_need_named(text: str) -> bool:
    """A literal of a named secret (NAME=value, a flag, a header, a URL's password, a client's
    command line), case folded."""
    if not text.isascii():
        # Output that is not ASCII (a binary dump read with surrogateescape, CJK logs) used to
        # run every pattern: 0.4 MB/s on random bytes, a 1 GB binary step output for hours.
        for odd, letter in _FOLDS_TO_ASCII:
            if odd in text:
                text = text.replace(odd, letter)
    low = text.lower()
    if "token" in low and (_TOKEN_ASSIGN(low) is not None or _TOKEN_FLAG(low) is not None
                           or _KEY_IN_CODE(low) is not None or "token-" in low and "${" in low
                           or "with-token" in low  # gh auth login --with-token, its token on stdin
                           or "authtoken" in low  # ngrok config add-authtoken TOKEN
                           or "value" in low and _ENV_PAIR(low) is not None):  # an env list's {name, value}
        return True
    if "key" in low and ("private key" in low or _KEY_ASSIGN(low) is not None or _KEY_FLAG(low) is not None
                         or _KEY_IN_CODE(low) is not None or "key-" in low and "${" in low
                         or "value" in low and (_ENV_PAIR(low) is not None or '"keyname"' in low)
                         # az's -o table and -o tsv of an account's keys (_AzKeyTable)
                         or "keyname" in low or "primarykey" in low or "key1 " in low
                         or "value\n---" in low or "value\r\n---" in low  # vault's Key/Value table
                         or "\t" in low and ("\tfull" in low or "full\t" in low or "\tread" in low or "read\t" in low)):
        return True
    if "cookie" in low:
        return True
    # GITHUB_PAT=..., GH_PAT: ... (_KEY_SECRETS; "pat" alone is in every "path" and "pattern")
    if "pat" in low and _PAT_WORD(low) is not None:
        return True
    if "sudo" in low and ("|" in low or "<<<" in low) or "oauth2-bearer" in low:
        return True
    if "curl" in low and ("-u" in low or "--user" in low) \
            or " login" in low and ("docker" in low or "podman" in low or "nerdctl" in low or "helm" in low
                                    or "az login" in low) \
            or "redis" in low and ("redis-cli" in low or "rediscli_auth" in low) \
            or "mysql" in low and (" -p" in low or "mysql_pwd" in low):
        return True
    # "passw", "_pass", "sshpass", openssl's "pass:" and gpg's "passphrase" all hold "pass": one
    # scan where none is there
    # (chpasswd's and ldappasswd's "passw" too), keytool's -storepass and -keypass
    if "pass" in low and ("passw" in low or "_pass" in low or "-pass" in low or "sshpass" in low or "pass:" in low
                          or "passphrase" in low or "storepass" in low or "keypass" in low
                          or "Pass" in text and _CAMEL_PASS(text) is not None):  # dbPass=..., no "_pass" in it
        return True
    # the clients of _TOOL_PATTERNS whose flag holds no "pass": mongosh -p, ldapsearch -w, smbclient
    # and net -U A%B, ssh-keygen -N, zip -P, 7z -pPASS, lftp -u A,B, useradd -p, openssl -k, keytool -new
    # a pre-signed URL percent-encoded in another's query (_URL_SIGNATURE), with no "://" left in clear,
    # or an Azure SAS token alone (`az storage blob generate-sas -o tsv`: `se=...&sp=r&sv=...&sig=...`)
    # (a docker config's "auths": _DOCKER_AUTH)
    # (an SSM parameter's "SecureString": _SecureStringValue)
    # (a Secret Manager payload's "data": _SECRET_PAYLOAD)
    return ("secret" in low or "securestring" in low or "payload" in low and _PAYLOAD_DATA(low) is not None or "auth" in low and ("authorization" in low or '"auths"' in low) or "://" in low or "wandb" in low
            or "sig" in low and ("signature%" in low or "sig%" in low or "&sig=" in low or "?sig=" in low)
            or "mongo" in low and " -p" in low or "ldap" in low and " -w" in low
            or "%" in low and ("smb" in low or "rpcclient" in low or "net " in low)
            or " -" in low and ("ssh-keygen" in low or "zip" in low and " -p" in low or "7z" in low and " -p" in low
                                or "lftp" in low and " -u" in low or "user" in low and " -p" in low
                                or "openssl" in low and " -k" in low or "keytool" in low and " -new" in low))


# Spelt with hyphens too, as HTTP headers are (`X-Api-Key`, a dict of headers parsed from JSON).
# `db_pass`, `ssh_pass`, `key_passphrase`: the short spellings are as common in playbook vars as
# `password` (Ansible's own ansible_ssh_pass, ansible_become_pass). Only as a whole word after a
# separator: `bypass`, `compass` are not secrets (nor PWD, the working directory in env dumps).
# A number may follow: distill names a second secret of one kind `mongo_password_2`, and a user
# passes `--var api_key_2=...` or keeps DB_PASSWORD2 beside DB_PASSWORD.
# A key that signs or encrypts is named for what it does: Django's and Flask's SECRET_KEY (the
# setting both read: docs.djangoproject.com/en/5.1/ref/settings/#secret-key, flask.palletsprojects.com
# config SECRET_KEY), SIGNING_KEY, ENCRYPTION_KEY, Rails' RAILS_MASTER_KEY and SECRET_KEY_BASE;
# not a key that names a row or a file (primary_key, sort_key, secret_key_path, public_key).
# MYSQL_PWD (the MySQL client's password from the environment, not PWD the directory) and
# GITHUB_PAT (a GitHub personal access token: the name R's gh and usethis read it under).
# A token named joined, as the flag patterns read `--authtoken`: ngrok's `authtoken` (its
# agent config's key, ngrok.yml `authtoken: ...`; NGROK_AUTHTOKEN), `accesstoken`, `refreshtoken`.
_SECRET_KEY_NAME = re.compile(r"(?i)(^|[_-])(token|(?:auth|access|refresh)token|secret|password|passwd|pass|passphrase|api[_-]?key|access[_-]?key|private[_-]?key"
                              r"|(?:secret|signing|encryption|master)[_-]?key(?:[_-]base)?|mysql_?pwd|(?:github|gitlab|gh)_?pat"
                              r"|account[_-]?key|azure[_-]storage[_-]key|secret[_-]?(?:string|binary))"
                              r"(?:[_-]?\d{1,3})?$")


def _masked(value: str) -> str:
    """MASK, inside the value's own quotes (a redacted JSON or YAML line stays parseable)."""
    if value[:1] in ("'", '"') and len(value) > 1 and value[-1] == value[0]:
        return value[0] + MASK + value[0]
    if value[:1] == "[" and value[-1:] == "]":  # a list of secrets (_LIST_VALUE), in its first item's quotes
        quote = value[1:].lstrip()[:1]
        return "[" + quote + MASK + quote + "]" if quote in ("'", '"') else "[" + MASK + "]"
    return MASK


def _mask_secret(m: re.Match[str]) -> str:
    start, end = m.span("secret")
    return m.string[m.start():start] + _masked(m.group("secret")) + m.string[end:m.end()]


def redact_text(text: str) -> str:
    return _masked_by(text, _patterns_for(text)) if text else text


def _masked_by(text: str, patterns: list[re.Pattern[str]]) -> str:
    for pattern in patterns:
        text = pattern.sub(_mask_secret, text)
    return text


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where redact_text would mask: (start, end) of each secret, in order, not overlapping.

    For callers that put something else than MASK there (distill turns a secret into a var
    the user must pass)."""
    spans: list[tuple[int, int]] = []
    for pattern in _patterns_for(text):
        for m in pattern.finditer(text):
            start, end = m.span("secret")
            if start < end and not any(start < e and s < end for s, e in spans):
                spans.append((start, end))
    return sorted(spans)


@lru_cache(maxsize=4096)  # the keys of a JSON document repeat on every record
def is_secret_name(name: str) -> bool:
    """A var or key named like a secret (hf_token, api-key, db_password): its value is masked.
    Spelt in camelCase too (accessToken, hfToken, dbPassword, clientSecret: a JSON config's or a
    JS client's keys), read as its words (access_Token), as the text patterns read `"accessToken":`."""
    if not name.islower() and not name.isupper():
        name = _CAMEL_WORD.sub("_", name)
    m = _SECRET_KEY_NAME.search(name)
    if m is None or re.fullmatch(_TOKENIZER_TOKENS, name, re.IGNORECASE):
        return False
    # a pass of a computation or a check (forward_pass, must_pass), not a password
    return m.group(2).lower() != "pass" or _NOT_A_PASS_NAME(name) is None


_NOT_A_PASS_NAME = re.compile(r"(?i)(?:^|[_-])(?:" + _NOT_A_PASSWORD + r"|ask|no)[_-]pass(?:[_-]?\d{1,3})?$").search
"""A pass of _NOT_A_PASSWORD, or a switch named for a password that holds none: Ansible's ask_pass,
become_ask_pass (ansible.cfg [defaults] ask_pass: "prompt for a password", a boolean), a no_pass
(impacket's -no-pass), as _PASS_FLAG reads `--ask-pass` and `--no-pass`."""


_CAMEL_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
"""Where a camelCase name's next word starts: `accessToken`, `HFToken` (an acronym, then a word)."""


_CREDENTIAL_HEADERS = frozenset(f(name) for name in ("Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie")
                                for f in (str, str.lower, str.upper))
"""The HTTP headers whose value is a credential (RFC 9110 11.6.2 Authorization, 11.7.2
Proxy-Authorization; RFC 6265 4 Cookie, Set-Cookie), as a parsed headers dict keys them
(`requests` spells them so, HTTP/2 in lower case): the text patterns read `"Authorization":
"Bearer ..."` in a string, and a dict's value "Bearer x" alone holds no name. Not secret names:
distill names a cookie's var `cookie_secret`, from is_secret_name."""


def _credential_masked(key: str, value: str) -> str:
    """A credential header's value masked, as the text patterns mask it: an Authorization's scheme
    stays (`Bearer ***REDACTED***`), a Set-Cookie's attributes (`; Path=/; HttpOnly`); a `$VAR`
    the shell fills in is none (_SHELL_REFERENCE)."""
    if key[0] in "AaPp":
        scheme, space, credentials = value.partition(" ")
        if space and scheme.isalpha() and credentials.strip():
            return value if credentials.lstrip()[:1] == "$" else scheme + " " + MASK
    if value[:1] == "$":
        return value
    if key[0] in "Ss":
        _, semicolon, attributes = value.partition(";")
        return MASK + semicolon + attributes
    return MASK


def redact_value(value: Any, key: str | None = None) -> Any:
    """Redact strings inside any JSON-like value; values under secret-looking keys entirely."""
    if isinstance(value, str):
        if key is not None and value != "" and is_secret_name(key) and not _special_token(key, value):
            return MASK
        if key in _CREDENTIAL_HEADERS and value.strip():
            return _credential_masked(key, value)
        return redact_text(value)
    if isinstance(value, list):
        if key is not None and is_secret_name(key):
            # a list of secrets (vLLM's api_key: ["k1", "k2"]): each string masked, as one alone is
            return [MASK if type(v) is str and v != "" else redact_value(v) for v in value]
        return _redact_list(value)
    if isinstance(value, dict):
        if key is not None and type(value.get("value")) is str and value["value"] and is_secret_name(key):
            # a mapping under a secret's name holds it as its "value" (_ValueInObject: terraform output -json)
            return {**_redact_dict(value), "value": MASK}
        if key == "payload" and type(value.get("data")) is str and value["data"] and value.keys() <= _SECRET_PAYLOAD_KEYS:
            # a Secret Manager secret version's payload (_SECRET_PAYLOAD), parsed
            return {**value, "data": MASK}
        return _redact_dict(value)
    return value


_SECRET_PAYLOAD_KEYS = {"data", "dataCrc32c", "data_crc32c"}


# The walks below do per item what redact_value does, without a call for each number, None or
# short string: an analysis JSON has hundreds of thousands of them, and the calls were two
# thirds of redacting it.
def _redact_dict(d: dict) -> dict:
    if "key2" in d and "key1" in d:  # az cognitiveservices account keys list (_KEY1_KEY2)
        keys = {k: MASK for k in ("key1", "key2") if type(d[k]) is str and len(d[k]) >= 16 and d[k][0] != "$"}
        if keys:
            rest = _redact_dict({k: v for k, v in d.items() if k not in keys})
            return {k: keys[k] if k in keys else rest[k] for k in d}
    for primary, secondary in (("primaryKey", "secondaryKey"), ("PrimaryKey", "SecondaryKey")):
        if secondary in d and primary in d:  # Azure's access keys (_PRIMARY_SECONDARY)
            keys = {k: MASK for k in (primary, secondary) if type(d[k]) is str and len(d[k]) >= 16 and d[k][0] != "$"}
            if keys:
                rest = _redact_dict({k: v for k, v in d.items() if k not in keys})
                return {k: keys[k] if k in keys else rest[k] for k in d}
    if "Value" in d and d.get("Type") == "SecureString" and type(d["Value"]) is str and d["Value"][:1] not in ("", "$"):
        # an SSM parameter, decrypted (_SecureStringValue): {"Name": ..., "Type": "SecureString", "Value": ...}
        return {**_redact_dict({**d, "Value": ""}), "Value": MASK}
    if "value" in d and "name" in d and type(d["value"]) is str and d["value"][:1] not in ("", "$") \
            and type(d["name"]) is str and is_secret_name(d["name"]) and not _special_token(d["name"], d["value"]):
        # a secret-named variable in a list of name/value pairs, as the text pattern reads it: a
        # container's env parsed from `kubectl get pod -o json` ({"name": "VLLM_API_KEY", "value":
        # ...}: the API's EnvVar), an ECS task definition's environment, `az keyvault secret show`
        return {**_redact_dict({**d, "value": ""}), "value": MASK}
    if "keyName" in d and type(d.get("value")) is str and d["value"]:
        # az storage account keys list: {"keyName": "key1", "permissions": "FULL", "value": KEY} (_ValueInObject)
        return {**_redact_dict({**d, "value": ""}), "value": MASK}
    if not _any_secret_key(tuple(d)):
        # A flat record (strings and numbers) whose strings, joined, hold no literal of a secret
        # is copied as it is: one gate for the record instead of one per field.
        parts = []
        for v in d.values():
            t = type(v)
            if t is str:
                parts.append(v)
            elif not (t is int or t is float or t is bool or v is None):
                break
        else:
            if not may_hold_secret("\n".join(parts)):
                return d.copy()
    out = {}
    # a logprob entry's token (_NOT_A_LOGPROB): {"token": "Hello", "logprob": -0.31, "bytes": [...]}
    logprob_entry = "logprob" in d
    for k, v in d.items():
        t = type(v)
        if t is str:
            if v and isinstance(k, str) and is_secret_name(k) and not (logprob_entry and k == "token") \
                    and not _special_token(k, v):
                out[k] = MASK
            elif k in _CREDENTIAL_HEADERS and v.strip():
                out[k] = _credential_masked(k, v)
            else:
                out[k] = redact_text(v)
        elif t is int or t is float or t is bool or v is None:
            out[k] = v
        elif k == "auths" and t is dict:  # a docker config's registries, each auth a secret (_DOCKER_AUTH)
            out[k] = {registry: _redact_dict({**entry, "auth": MASK}) if type(entry) is dict and entry.get("auth")
                      else redact_value(entry, registry) for registry, entry in v.items()}
        else:
            out[k] = redact_value(v, k if isinstance(k, str) else None)
    return out


@lru_cache(maxsize=1024)  # the records of one kind share their keys
def _any_secret_key(keys: tuple) -> bool:
    return any(isinstance(k, str) and (is_secret_name(k) or k in _CREDENTIAL_HEADERS) for k in keys)


# A flag whose next word is a secret, when a command is kept as its words (a server's argv read
# from /proc/PID/cmdline, in the launch facts): the text pattern reads `--api-key VALUE` in one
# string, and each word alone is no secret.
_SECRET_FLAG_WORD = re.compile(r"(?i)--(?!" + _TOKENIZER_TOKENS + r"\Z)(?:[a-z0-9_-]{0,64}[-_])?"
                               r"(?:api[-_]?key|(?:auth|access|refresh)?token|passw(?:or)?d|passphrase|secret(?:[-_]key)?|account[-_]key)(?:[-_]?\d{1,3})?").fullmatch

_PASS_FLAG_WORD = re.compile(r"(?i)--(?!ask[-_])(?:[A-Z0-9][A-Z0-9_-]{0,63}?[-_])?(?!(?:" + _NOT_A_PASSWORD + r"|no)[-_]pass\b)"
                             r"[A-Z0-9]{1,32}[-_]pass(?:[-_]?\d{1,3})?").fullmatch
"""_PASS_FLAG's flag, as a word of an argv (`--db-pass`, not `--ask-pass`)."""


_NO_SECRET_WORDS = frozenset(("True", "False", "null", "true", "false"))
"""The words of _NO_SECRET_IN_CODE, as a flag's value in an argv (`--use_auth_token True`)."""


def _redact_list(items: list) -> list:
    out = []
    flag = False  # the word before was a secret's flag (--api-key)
    vllm_keys = False  # ... and it was vLLM's --api-key, which takes several keys
    more = False  # the words after its first key, up to the next option, are keys too (_VLLM_API_KEYS)
    for v in items:
        t = type(v)
        if t is dict:
            out.append(_redact_dict(v))
        elif t is str:
            # not an empty value, a `$VAR` the shell fills in, the next flag, nor True/False/null
            if flag and v and v[0] != "$" and not v.startswith("--") and v not in _NO_SECRET_WORDS:
                out.append(MASK)
                more = vllm_keys
            elif more and v and v[0] not in "-$":
                out.append(MASK)
            else:
                out.append(redact_text(v))
                more = False
            # (the last letter first: the regex ran on every --flag of a long argv)
            flag = v.startswith("--") and v[-1] in "yYnNdDtTsSeE0123456789" and (
                _SECRET_FLAG_WORD(v) is not None or _PASS_FLAG_WORD(v) is not None)
            vllm_keys = flag and v in ("--api-key", "--api_key") and any(type(w) is str and "vllm" in w for w in items)
            continue
        elif t is int or t is float or t is bool or v is None:
            out.append(v)
        else:
            out.append(redact_value(v))
        flag = more = False
    return out


def secret_values(named: Mapping[str, Any]) -> tuple[str, ...]:
    """The values of vars named like secrets (``--var api_key=...``), longest first: a command
    that puts one where no pattern looks (``curl -H "X-Auth: {{ api_key }}"``) or an output that
    echoes it must not keep it. Values under 4 characters are left (masking every "1" would
    destroy the evidence, and such a value guards nothing)."""
    found = {str(v).strip() for k, v in named.items()
             if isinstance(k, str) and is_secret_name(k) and isinstance(v, (str, int)) and len(str(v).strip()) >= 4}
    return tuple(sorted(found, key=len, reverse=True))


def mask_values(value: Any, secrets: tuple[str, ...], mask: str = MASK) -> Any:
    """``value`` with each of ``secrets`` masked wherever it appears in a string."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, mask)
        return value
    if isinstance(value, list):
        return [mask_values(v, secrets, mask) for v in value]
    if isinstance(value, dict):
        return {k: mask_values(v, secrets, mask) for k, v in value.items()}
    return value


_STAND_IN = "SDSECRET" + uuid.uuid4().hex.upper()[:16]
"""What a secret value is first replaced by, before the patterns run: letters and digits, which
every token shape takes, so a token that holds the value is still one token to its pattern (as a
MASK there, `hf_AbCd***REDACTED***MnOp...` kept the rest of the token); then MASK where it stayed."""


def redact_with_values(value: Any, secrets: tuple[str, ...], redact: Callable[[Any], Any] | None = None) -> Any:
    """``redact`` (redact_value by default: the patterns), with each of ``secrets`` masked too.
    The values are replaced first: a pattern could mask part of one and leave the rest
    (`HF_TOKEN=it's-hunter2`: the pattern's value ends at the `'`); by a stand-in that keeps a
    token whole for its pattern."""
    redact = redact or redact_value
    if not secrets:
        return redact(value)
    return mask_values(redact(mask_values(value, secrets, _STAND_IN)), (_STAND_IN,))


# ---------------------------------------------------------------- streams

_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY-----")
_PEM_END_HOLD = 256
"""Characters kept back while inside a key: an END marker split across two reads is still seen."""


_SPANNING = (_BlockUnderSecret, _PairBlockValue, _ValueInObject, _SecureStringValue, _AzKeyTable)
"""Patterns whose ``spans`` reach back to the name a stream's cut must not part from the value."""


def _match_spans(text: str, secrets: tuple[str, ...], patterns: list[re.Pattern[str]]) -> list[tuple[int, int]]:
    """(start, end) of every whole match of every pattern (the name or flag before a secret
    included) and of every secret value in ``text``; ``patterns``: _patterns_for(text)."""
    spans = [span for pattern in patterns
             for span in (pattern.spans(text) if type(pattern) in _SPANNING else (m.span() for m in pattern.finditer(text)))]
    for secret in secrets:
        at = text.find(secret)
        while at >= 0:
            spans.append((at, at + len(secret)))
            at = text.find(secret, at + 1)
    return spans


class StreamRedactor:
    """Masks a byte stream as it passes, as ``redact_with_values(whole, secrets)`` would
    mask it whole: a step's spilled output can be gigabytes, so it is never held whole.

    Text is released in blocks cut after a line end. A cut never falls inside a match (the name
    or flag before a secret and the secret itself travel together) and the last ``OVERLAP``
    characters wait for the next read, so a secret split across two reads is masked like one
    that was not. Bytes that are not UTF-8 pass through unchanged (surrogateescape), so the
    artifact is the output as printed, less its secrets."""

    BLOCK = 64 * 1024
    OVERLAP = 4096
    MAX_HOLD = 4 * 1024 * 1024
    """A match longer than this (a quoted "secret" megabytes long) is cut anyway: memory stays bounded."""
    PEM_HOLD = 64 * 1024
    """A BEGIN PRIVATE KEY with no END this far on is masked to the end of the stream, as
    redact_text masks it (a key is ~3 KB)."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        self._secrets = secrets
        self._pending = bytearray()
        self._next_at = self.BLOCK
        self._in_key = False

    def feed(self, data: bytes) -> bytes:
        """What of the stream so far can be written out now, masked."""
        self._pending += data
        if len(self._pending) < self._next_at:
            return b""
        return self._drain(final=False)

    def close(self) -> bytes:
        """The rest of the stream, masked."""
        return self._drain(final=True)

    def _mask(self, text: str, patterns: list[re.Pattern[str]]) -> bytes:
        # The gate costs as much as the rest on a log with no secret: it runs once per block
        # (``patterns``, of the block this text starts; a part needs no more than its whole).
        # The secret values before the patterns, as redact_with_values masks them.
        masked = redact_with_values(text, self._secrets, lambda part: _masked_by(part, patterns))
        return masked.encode("utf-8", "surrogateescape")

    def _hold(self, text: str) -> None:
        self._pending = bytearray(text.encode("utf-8", "surrogateescape"))
        self._next_at = len(self._pending) + self.BLOCK

    def _drain(self, *, final: bool) -> bytes:
        text = self._pending.decode("utf-8", "surrogateescape")
        out = bytearray()
        while True:
            if self._in_key:
                end = _PEM_END.search(text)
                if end is None:  # still inside the key: it is already masked, drop it
                    self._hold("" if final else text[-_PEM_END_HOLD:])
                    return bytes(out)
                text, self._in_key = text[end.start():], False
            patterns = _patterns_for(text)
            if final:
                self._hold("")
                return bytes(out + self._mask(text, patterns))
            limit = len(text) - self.OVERLAP
            open_key = _unterminated_key(text)
            if open_key is not None:
                if open_key.start() == 0 and len(text) > self.PEM_HOLD:
                    out += text[: open_key.end()].encode("utf-8", "surrogateescape") + MASK.encode()
                    text, self._in_key = text[open_key.end():], True
                    continue
                limit = min(limit, open_key.start())
            cut = _safe_cut(text, limit, _match_spans(text, self._secrets, patterns))
            if cut <= 0:
                if len(text) <= self.MAX_HOLD:
                    self._pending = bytearray(text.encode("utf-8", "surrogateescape"))
                    self._next_at = 2 * len(self._pending)  # doubling: a long hold is scanned O(n) times in all
                    return bytes(out)
                cut = len(text) - self.OVERLAP
            out += self._mask(text[:cut], patterns)
            self._hold(text[cut:])
            return bytes(out)


class LineMaskingRedactor:
    """Masks every line of a byte stream whole, as mask_lines does a text: the output of a command
    that prints a secret's value bare (secret_commands.prints_secret_value: `vault kv get
    -field=password`), which no pattern knows for one. Each line with text becomes MASK, its line
    end kept (how many lines it printed stays); nothing is held back."""

    def __init__(self) -> None:
        self._masked = False  # MASK written for the line now being read
        self._cr = False  # the line's text so far ends in "\r", kept before its "\n"

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        parts = data.split(b"\n")
        for i, part in enumerate(parts):
            if part:
                # a "\r" held from before, more text after it: the line's own (a progress bar's)
                if not self._masked and (self._cr or part.rstrip(b"\r") or len(part) > 1):
                    out += _MASK_BYTES
                    self._masked = True
                self._cr = part.endswith(b"\r")
            if i < len(parts) - 1:
                out += b"\r\n" if self._cr else b"\n"
                self._masked = self._cr = False
        return bytes(out)

    def close(self) -> bytes:
        return b"\r" if self._cr else b""


_MASK_BYTES = MASK.encode()


def mask_lines(text: str) -> str:
    """``text`` with each line that holds text masked whole, its line end ("\n", "\r\n") kept."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        body = line[:-1] if line.endswith("\r") else line
        if body:
            lines[i] = MASK + line[len(body):]
    return "\n".join(lines)


def _unterminated_key(text: str) -> re.Match[str] | None:
    """The first BEGIN PRIVATE KEY marker with no END after it (pairs match lazily, as in _PATTERNS)."""
    at = 0
    while True:
        begin = _PEM_BEGIN.search(text, at)
        if begin is None:
            return None
        end = _PEM_END.search(text, begin.end())
        if end is None:
            return begin
        at = end.end()


def _safe_cut(text: str, limit: int, spans: list[tuple[int, int]]) -> int:
    """A cut at or before ``limit``, after a line end where there is one, inside none of ``spans``."""
    if limit <= 0:
        return 0
    cut = text.rfind("\n", 0, limit) + 1 or limit
    moved = True
    while moved:
        moved = False
        for start, end in spans:
            if start < cut < end:
                cut, moved = start, True
    return cut


_SECRET_REACH = 512
"""Characters past a cut that secret_spans reads to tell whether the cut falls in a secret: more
than any token shape (redact.py's patterns) or a NAME=value is long; a PEM key is masked from its
BEGIN line, which a cut inside the key has behind it."""


_WORD_RUN = re.compile(r"[A-Za-z0-9_.~+/=-]*").match
_WORD_REACH = 64 * 1024
"""How far past _SECRET_REACH the characters of a token may run on (base64url, dots): a JWT is
not bounded (a Kubernetes service account's, its claims in the payload, runs past 1,000
characters), and read in part it is none: cut inside its payload, the header and the payload's
head stayed in clear. Bounded, as a line of base64 megabytes long is no one token."""


_KNOWN_VALUES: ContextVar[tuple[str, ...]] = ContextVar("spec_debug_known_secret_values", default=())
"""The secret values (secret_values: `--var db_password=...`) of the run whose host thread this
is, for cut_outside_secret: they are masked after the cut too (Run._clean), and are no span."""


@contextmanager
def known_secret_values(values: tuple[str, ...]) -> Iterator[None]:
    """cut_outside_secret, in this block, keeps each of ``values`` whole or leaves it out."""
    token = _KNOWN_VALUES.set(values)
    try:
        yield
    finally:
        _KNOWN_VALUES.reset(token)


def add_known_secret_values(values: tuple[str, ...]) -> None:
    """The run learned secret values (a fact captured under a secret's name): its later cuts in
    this block of known_secret_values keep them whole too."""
    _KNOWN_VALUES.set(values)


def cut_outside_secret(text: str, limit: int) -> int:
    """Where to cut ``text`` at ``limit`` characters or before, so that no secret is left in
    part: a text masked after it is cut (a finding's title, an output line of its evidence, a
    refused capture's quote: the run's _clean) kept "rejected: hf_AbCdEfGhIjKlMnO…", 16
    characters of a Hugging Face token that the pattern (20 or more after hf_) no longer knows
    for one. A cut inside a secret moves to its start; elsewhere it stays at the limit. A secret
    is a pattern's span, or a value of known_secret_values (a `--var db_password=...` no pattern
    knows: its first part was left, which no longer is the value to mask)."""
    if limit >= len(text):
        return len(text)
    if limit <= 0:
        return 0
    reach = limit + _SECRET_REACH
    if reach < len(text):  # to the end of the word there: a JWT of 1,400 characters is one secret
        reach = _WORD_RUN(text, reach, reach + _WORD_REACH).end()
    spans = secret_spans(text[:reach])
    values = _KNOWN_VALUES.get()
    cut, moved = limit, True
    while moved:  # a start inside another secret (a value inside a token, two values overlapping)
        moved = False
        for start, end in spans:
            if start < cut < end:
                cut, moved = start, True
        for value in values:
            # Only an occurrence across the cut: it starts before the cut and ends after it.
            at = text.find(value, max(0, cut - len(value) + 1), cut + len(value) - 1)
            if at >= 0:
                cut, moved = at, True
    return cut
