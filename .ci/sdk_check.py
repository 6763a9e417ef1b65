"""Real clients and engines take our exports as they are.

Reads the fixtures `tests/tests/suite/export_fixtures.rs` writes (EXPORT_FIXTURES=DIR)
and checks, for every shipped contract:

- OpenAI (openai==3.57.0): the export is a fixpoint of the transform the SDK
  applies before sending a schema (`openai.lib._pydantic._ensure_strict_json_schema`,
  what `to_strict_json_schema` calls), and the transform does not raise.
- Anthropic (anthropic==2.14.0): the same for
  `anthropic.lib._parse._transform.transform_schema`, but for the root's
  `"type": "object"` beside a lowered `anyOf`: the transform drops a `type`
  beside any `anyOf` (and would close the root with an empty `properties`).
  The client applies it only to a pydantic type; a schema given as
  `output_config.format` goes out as it is, so the check is that the export
  without that one keyword is a fixpoint.
- Request fragments (openai==3.57.0): `response_format_for(Api::OpenAiChat)`
  and `response_format_for(Api::OpenAiResponses)` have the keys and values
  the SDK itself builds for a pydantic type
  (`openai.lib._parsing._completions.type_to_response_format_param`, the
  chat `response_format`; `openai.lib._parsing._responses.type_to_text_format_param`,
  the Responses `text.format`), their schema being the OpenAI export, and
  each is read back unchanged by the SDK's own model of that parameter
  (`openai.types.shared.ResponseFormatJSONSchema`,
  `openai.types.responses.ResponseFormatTextJSONSchemaConfig`).
- Local (llguidance==1.9.1, outlines-core==0.2.14): the export compiles with
  both; each engine's own matcher (llguidance's `LLMatcher` over a byte
  tokenizer, Outlines' regex from `build_regex_from_schema` with Python's
  `re.fullmatch`) accepts every accepted document of examples/data, in its
  compact form, refuses every document that breaks a lowered `when` rule,
  and refuses every document with a string the decoder refuses for its
  `format` (`<name>.format-refused.jsonl`: the export states those formats
  as exact patterns).
- The filter tree's exports unrolled to 3 levels (`filter-unrolled`): as
  above, the refused documents being filters 4 and 5 levels deep.
- The patch exports of `settings`' `disable_email` (`settings-patch`,
  `settings-merge-patch`): fixpoints as above; for `local`, both engines
  accept the allowed patches of examples/data and refuse the patches the
  check refuses (a forbidden path, a mistyped value, a `test`, `move` or
  `copy`, a `null` that removes a member).
- The llguidance grammar of one ticket-extraction request (`grammar_with`:
  the Local export bound to the context, the quote a substring of the
  source), and that of a contract whose quotes are in the contracts it
  holds (in an array and an `Option`): each compiles, llguidance's matcher
  accepts every accepted document and refuses a quote the source does not
  contain (and a cluster the context does not confirm) at its first
  impossible byte.
- Gemini and Anthropic exports with lowered rules: llguidance (lenient about
  the keywords it does not know, such as Gemini's `propertyOrdering`) accepts
  the accepted documents and refuses the rule breakers.

- Tool definitions (`tools.<name>.*`, for the shipped tools enums
  `support-tools` and `triage-tools`): each OpenAI definition's
  `function.parameters` is a fixpoint of the OpenAI SDK's strict transform
  and each Anthropic definition's `input_schema` of the Anthropic SDK's
  transform, as above (each definition has the provider's shape: OpenAI's
  `{"type": "function", "function": {.., "strict": true}}`, Anthropic's
  `{"name", .., "input_schema", "strict": true}`, Gemini's one
  `functionDeclarations` entry); each MCP `inputSchema` (`mcp_tools()`)
  is a valid draft 2020-12 schema (jsonschema==4.26.0,
  `Draft202012Validator.check_schema` against the metaschema) that
  validates every accepted call's arguments and refuses every mistyped
  one; each Local definition's `function.parameters` compiles in
  llguidance, whose matcher accepts the arguments of every shipped call
  `check_call` accepts (`examples/data`) and refuses an argument of the
  wrong JSON type. A tools enum without definitions, calls or a refused
  call is a failure.

XGrammar is not installed (0.2.9 pulls in torch, transformers and triton).

Usage: python sdk_check.py FIXTURES_DIR. Exit code 0 when every check
passes, 1 otherwise (each failure on its own line).
"""

import copy
import json
import re
import sys
from pathlib import Path

from anthropic.lib._parse._transform import transform_schema
from llguidance import LLMatcher, LLTokenizer, TokenizerWrapper
from openai.lib._parsing._completions import type_to_response_format_param
from openai.lib._parsing._responses import type_to_text_format_param
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.responses import ResponseFormatTextJSONSchemaConfig
from openai.types.shared import ResponseFormatJSONSchema
from pydantic import BaseModel
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from outlines_core.json_schema import build_regex_from_schema

CONTRACTS = ["close-ticket", "settings", "triage", "ticket-extraction", "vacation", "step", "filter-unrolled", "formats",
             "settings-patch", "settings-merge-patch"]
# Exports whose refused documents every provider's export refuses: the
# recursion unrolled to a depth, the refused documents nesting deeper.
UNROLLED = ["filter-unrolled"]
# The patch exports of an edit policy: the local engines accept the allowed
# patches of the shipped example and refuse the others (a forbidden path, a
# mistyped value, an operation the policy does not allow).
PATCHES = ["settings-patch", "settings-merge-patch"]
PROVIDERS = ["openai", "gemini", "anthropic", "local"]
# The shipped tools enums whose tool definitions are checked.
TOOLS = ["support-tools", "triage-tools"]
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


class ByteTokens:
    """One token per byte, plus an end-of-sequence token (256)."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
    special_token_ids = [256]

    def __call__(self, text):
        return list(text if isinstance(text, bytes) else text.encode("utf-8"))


TOKENIZER = LLTokenizer(TokenizerWrapper(ByteTokens()))


def llguidance_grammar(schema, lenient):
    grammar = LLMatcher.grammar_from_json_schema(schema, defaults={"lenient": lenient})
    error = LLMatcher.validate_grammar(grammar, TOKENIZER)
    return grammar, error


def llguidance_accepts(grammar, document):
    matcher = LLMatcher(TOKENIZER, grammar, log_level=0)
    if not matcher.consume_tokens(list(document.encode("utf-8"))) or matcher.is_error():
        return False
    return matcher.consume_token(ByteTokens.eos_token_id) and not matcher.is_error()


def lines(path):
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


def diff(a, b, at=""):
    """The first pointer where two JSON values differ, for the message."""
    if type(a) is not type(b):
        return at or "/"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{at}/{key}"
            inner = diff(a[key], b[key], f"{at}/{key}")
            if inner:
                return inner
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return at or "/"
        for i, (x, y) in enumerate(zip(a, b)):
            inner = diff(x, y, f"{at}/{i}")
            if inner:
                return inner
        return None
    return None if a == b else (at or "/")


class Probe(BaseModel):
    """A pydantic type, for the fragments the SDK builds around its schema."""

    x: int


def shape(value):
    """A fragment's keys and values, its schemas left out."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items() if k != "schema"}
    return value


def request_fragments(name, directory, export, failures):
    """The chat and Responses fragments against what the SDK builds and reads."""
    checks = [
        ("openai-chat", type_to_response_format_param, ResponseFormatJSONSchema, ("json_schema", "schema")),
        ("openai-responses", type_to_text_format_param, ResponseFormatTextJSONSchemaConfig, ("schema",)),
    ]
    for api, build, model, at in checks:
        ours = json.loads((directory / f"{name}.request.{api}.json").read_text(encoding="utf-8"))
        if "error" in ours:
            print(f"{name} request {api}: not exported ({ours['error']})")
            continue
        sdk = shape(build(Probe))
        expected = copy.deepcopy(sdk)
        inner = expected["json_schema"] if "json_schema" in expected else expected
        inner["name"] = (ours.get("json_schema") or ours)["name"]
        if shape(ours) != expected:
            failures.append(f"{name} request {api}: {shape(ours)} is not the SDK's form {sdk}")
        schema = ours
        for key in at:
            schema = schema.get(key, {}) if isinstance(schema, dict) else {}
        if schema != export:
            failures.append(f"{name} request {api}: the fragment's schema is not the OpenAI export")
        try:
            back = model.model_validate(ours).model_dump(by_alias=True, exclude_none=True)
        except Exception as e:  # the SDK's model refusing it is a failure to report
            failures.append(f"{name} request {api}: the SDK's {model.__name__} refuses it: {type(e).__name__}")
            continue
        if back != ours:
            failures.append(f"{name} request {api}: the SDK's {model.__name__} reads it back as {back}")
        print(f"{name} request {api}: checked")


def fixpoint(name, provider, schema, failures):
    try:
        if provider == "openai":
            sent = _ensure_strict_json_schema(copy.deepcopy(schema), path=(), root=copy.deepcopy(schema))
        else:
            sent = transform_schema(copy.deepcopy(schema))
    except Exception as e:  # the SDK raising is a failure to report, whatever it raises
        failures.append(f"{name} {provider}: the client's transform raises {type(e).__name__}: {e}")
        return
    if sent != schema:
        failures.append(f"{name} {provider}: the client's transform changes the export at {diff(schema, sent)}")


def matches(name, provider, schema, accepted, refused, failures, outlines):
    grammar, error = llguidance_grammar(schema, lenient=provider != "local")
    if error:
        failures.append(f"{name} {provider}: llguidance does not compile the export: {error}")
        return
    for doc in accepted:
        if not llguidance_accepts(grammar, doc):
            failures.append(f"{name} {provider}: llguidance refuses an accepted document: {doc}")
    for doc in refused:
        if llguidance_accepts(grammar, doc):
            failures.append(f"{name} {provider}: llguidance accepts a document the contract refuses: {doc}")
    if not outlines:
        return
    try:
        regex = re.compile(build_regex_from_schema(json.dumps(schema)))
    except Exception as e:  # a schema Outlines cannot compile, whatever it raises
        failures.append(f"{name} {provider}: outlines-core does not compile the export: {e}")
        return
    for doc in accepted:
        if not regex.fullmatch(doc):
            failures.append(f"{name} {provider}: the Outlines regex refuses an accepted document: {doc}")
    for doc in refused:
        if regex.fullmatch(doc):
            failures.append(f"{name} {provider}: the Outlines regex accepts a document the contract refuses: {doc}")


def grammar_check(directory, failures):
    """`grammar_with` for each `<name>.grammar.lark` (one ticket-extraction
    request, and two contracts whose `evidence` is in the contracts they
    hold):
    llguidance compiles it; its matcher, one token per byte, accepts every
    accepted document and refuses each refused one at its first impossible
    byte (`at`)."""
    paths = sorted(directory.glob("*.grammar.lark"))
    if len(paths) < 3:
        failures.append(f"grammars: expected the ticket-extraction, held-evidence and held-shapes grammars, found {len(paths)}")
    for path in paths:
        name = path.name[: -len(".grammar.lark")]
        grammar = LLMatcher.grammar_from_lark(path.read_text(encoding="utf-8"))
        error = LLMatcher.validate_grammar(grammar, TOKENIZER)
        if error:
            failures.append(f"{name} grammar: llguidance does not compile it: {error}")
            continue
        accepted = lines(directory / f"{name}.grammar-accepted.jsonl")
        for doc in accepted:
            if not llguidance_accepts(grammar, doc):
                failures.append(f"{name} grammar: llguidance refuses an accepted document: {doc}")
        refused = [json.loads(line) for line in lines(directory / f"{name}.grammar-refused.jsonl")]
        for case in refused:
            data = case["doc"].encode("utf-8")
            matcher = LLMatcher(TOKENIZER, grammar, log_level=0)
            stop = next(
                (i for i, byte in enumerate(data) if not matcher.consume_token(byte) or matcher.is_error()),
                None,
            )
            if stop != case["at"]:
                failures.append(
                    f"{name} grammar: refused at byte {stop}, expected {case['at']}: {case['doc']}"
                )
        print(f"{name} grammar: {len(accepted)} accepted, {len(refused)} refused at their first impossible byte")


def tool_schemas(name, provider, definitions, failures):
    """`(tool name, arguments schema)` of each definition, its shape checked."""
    if provider == "gemini":
        if not (isinstance(definitions, list) and len(definitions) == 1
                and set(definitions[0]) == {"functionDeclarations"}):
            failures.append(f"tools {name} gemini: not one functionDeclarations entry")
            return []
        return [(d.get("name"), d.get("parametersJsonSchema")) for d in definitions[0]["functionDeclarations"]]
    out = []
    for d in definitions:
        if provider in ("openai", "local"):
            inner = d.get("function", {})
            if d.get("type") != "function" or inner.get("strict") is not True:
                failures.append(f"tools {name} {provider}: {inner.get('name')} is not a strict function")
            out.append((inner.get("name"), inner.get("parameters")))
        elif provider == "anthropic":
            if d.get("strict") is not True:
                failures.append(f"tools {name} anthropic: {d.get('name')} is not strict")
            out.append((d.get("name"), d.get("input_schema")))
        else:
            out.append((d.get("name"), d.get("inputSchema")))
    for tool, schema in out:
        if not isinstance(tool, str) or not isinstance(schema, dict):
            failures.append(f"tools {name} {provider}: a definition without a name or a schema: {tool}")
    return [(tool, schema) for tool, schema in out if isinstance(schema, dict)]


def tools_check(directory, failures):
    """The tool definitions of the shipped tools enums (see the module docs)."""
    checked = 0
    for name in TOOLS:
        calls = [json.loads(line) for line in lines(directory / f"tools.{name}.calls.jsonl")]
        refused = [json.loads(line) for line in lines(directory / f"tools.{name}.refused-calls.jsonl")]
        if not calls or not refused:
            failures.append(f"tools {name}: {len(calls)} accepted and {len(refused)} refused calls, none may be missing")

        def arguments(tool, docs):
            return [json.dumps(d["arguments"], ensure_ascii=False, separators=(",", ":"))
                    for d in docs if d["name"] == tool]

        for provider in PROVIDERS + ["mcp"]:
            definitions = json.loads((directory / f"tools.{name}.{provider}.json").read_text(encoding="utf-8"))
            if isinstance(definitions, dict) and "error" in definitions:
                failures.append(f"tools {name} {provider}: not exported ({definitions['error']})")
                continue
            schemas = tool_schemas(name, provider, definitions, failures)
            if not schemas:
                failures.append(f"tools {name} {provider}: no tool definition")
            for tool, schema in schemas:
                label = f"tools {name}/{tool}"
                if provider == "openai":
                    fixpoint(label, provider, schema, failures)
                elif provider == "anthropic":
                    probe = dict(schema)
                    if "anyOf" in probe and probe.get("type") == "object":
                        del probe["type"]
                    fixpoint(label, provider, probe, failures)
                elif provider == "local":
                    accepted = arguments(tool, calls)
                    if not accepted:
                        failures.append(f"{label} local: no accepted call to try")
                    matches(label, provider, schema, accepted, arguments(tool, refused), failures, outlines=False)
                elif provider == "mcp":
                    mcp_check(label, schema, arguments(tool, calls), arguments(tool, refused), failures)
            checked += 1
            print(f"tools {name} {provider}: {len(schemas)} definitions checked")
    return checked


def mcp_check(label, schema, accepted, refused, failures):
    """An MCP `inputSchema`: a draft 2020-12 schema by the metaschema, that
    validates the accepted arguments and not the refused ones."""
    if schema.get("$schema", DRAFT_2020_12) != DRAFT_2020_12:
        failures.append(f"{label} mcp: $schema is {schema['$schema']}, not draft 2020-12")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        failures.append(f"{label} mcp: not a valid draft 2020-12 schema: {e.message} at {list(e.absolute_path)}")
        return
    validator = Draft202012Validator(schema)
    for doc in accepted:
        if not validator.is_valid(json.loads(doc)):
            failures.append(f"{label} mcp: the inputSchema refuses accepted arguments: {doc}")
    for doc in refused:
        if validator.is_valid(json.loads(doc)):
            failures.append(f"{label} mcp: the inputSchema takes mistyped arguments: {doc}")


def main(directory):
    failures = []
    checked = 0
    grammar_check(directory, failures)
    checked += tools_check(directory, failures)
    for name in CONTRACTS:
        accepted = lines(directory / f"{name}.accepted.jsonl")
        refused = lines(directory / f"{name}.refused.jsonl")
        format_refused = lines(directory / f"{name}.format-refused.jsonl")
        for provider in PROVIDERS:
            export = json.loads((directory / f"{name}.{provider}.json").read_text(encoding="utf-8"))
            if "error" in export:
                # The export refuses the contract itself (a root union for OpenAI).
                print(f"{name} {provider}: not exported ({export['error']})")
                continue
            schema = export["schema"]
            lowered = bool(export.get("lowered")) or name in UNROLLED
            if provider == "openai":
                fixpoint(name, provider, schema, failures)
                # A patch schema is a policy's export, not a reply's: no request fragment.
                if name not in UNROLLED and name not in PATCHES:
                    request_fragments(name, directory, schema, failures)
            if provider == "anthropic":
                probe = dict(schema)
                if "anyOf" in probe and probe.get("type") == "object":
                    del probe["type"]
                fixpoint(name, provider, probe, failures)
            if provider == "local":
                local_refused = (refused if lowered or name in PATCHES else []) + format_refused
                matches(name, provider, schema, accepted, local_refused, failures, outlines=True)
            elif lowered:
                matches(name, provider, schema, accepted, refused, failures, outlines=False)
            checked += 1
            note = " (unrolled)" if name in UNROLLED else " (when rules lowered)" if lowered else ""
            if name in PATCHES and provider == "local":
                note = f" ({len(accepted)} allowed patches accepted, {len(refused)} refused)"
            print(f"{name} {provider}: checked" + note)
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"{checked} exports checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: sdk_check.py FIXTURES_DIR")
    sys.exit(main(Path(sys.argv[1])))
