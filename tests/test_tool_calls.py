"""Tool-call schemas, grammars and the parser; the parser is fuzzed with malformed JSON."""

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.crew_tools import WriteArgs, expected_files_schema
from agents.tool_calls import (
    FINAL_ANSWER,
    ToolCallParseError,
    ToolSpec,
    parse_tool_call,
    tool_call_schema,
    tool_instructions,
)
from models.schema_grammar import schema_grammar

WRITE = ToolSpec("write_file", "Write a file.", WriteArgs.model_json_schema())
READ = ToolSpec(
    "read_file",
    "Read a file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
COUNT = ToolSpec(
    "repeat",
    "Repeat.",
    {"type": "object", "properties": {"times": {"type": "integer"}}, "required": ["times"]},
)
SPECS = [WRITE, READ, COUNT]


def test_valid_calls_parse() -> None:
    call = parse_tool_call(
        '{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 1\\n"}}', SPECS
    )
    assert (call.name, call.arguments) == ("write_file", {"path": "a.py", "content": "x = 1\n"})
    final = parse_tool_call('{"name": "final_answer", "arguments": {"text": "done"}}', SPECS)
    assert final.is_final and final.arguments["text"] == "done"


def test_raw_newlines_inside_code_strings_are_accepted() -> None:
    text = '{"name": "write_file", "arguments": {"path": "a.py", "content": "def f():\n    return 1\n"}}'
    assert parse_tool_call(text, SPECS).arguments["content"].startswith("def f():\n")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ('{"name": "write_file", "arguments": {"path": "a.py", "content": "x', "cut off"),
        ("[1, 2]", "JSON object"),
        ('{"name": "rm_rf", "arguments": {}}', "unknown tool"),
        ('{"name": "read_file", "arguments": "a.py"}', "must be an object"),
        ('{"name": "read_file", "arguments": {}}', "missing argument"),
        ('{"name": "read_file", "arguments": {"path": "a", "mode": "w"}}', "unknown argument"),
        ('{"name": "repeat", "arguments": {"times": "3"}}', "must be integer"),
        ('{"name": "repeat", "arguments": {"times": true}}', "must be integer"),
        ('{"name": "write_file", "arguments": {"path": "/etc/passwd", "content": "x"}}', "must match"),
        ('{"name": "write_file", "arguments": {"path": "a.py", "content": ""}}', "must not be empty"),
    ],
)
def test_malformed_calls_explain_themselves(text: str, reason: str) -> None:
    with pytest.raises(ToolCallParseError, match=reason):
        parse_tool_call(text, SPECS)


def test_final_answer_only_when_allowed() -> None:
    with pytest.raises(ToolCallParseError, match="unknown tool"):
        parse_tool_call('{"name": "final_answer", "arguments": {"text": "x"}}', SPECS, allow_final=False)


def test_schema_requires_every_argument_and_names_each_tool() -> None:
    schema = tool_call_schema([WRITE, READ], allow_final=True)
    options = schema["oneOf"]
    assert [o["properties"]["name"]["const"] for o in options] == ["write_file", "read_file", FINAL_ANSWER]
    assert options[0]["properties"]["arguments"]["required"] == ["path", "content"]
    assert options[0]["properties"]["arguments"]["additionalProperties"] is False
    assert "oneOf" not in tool_call_schema([READ], allow_final=False)  # a single option stands alone


def test_grammars_build_and_are_cached() -> None:
    first = schema_grammar(tool_call_schema([WRITE, READ], True))
    assert schema_grammar(tool_call_schema([WRITE, READ], True)) is first
    assert schema_grammar(tool_call_schema([WRITE, READ], False)) is not first
    restricted = ToolSpec(
        "write_file", "w", expected_files_schema(["add.py", "test_add.py"]).model_json_schema()
    )
    assert schema_grammar(tool_call_schema([restricted], True)) is not None


def test_instructions_list_every_tool_and_a_parsable_example() -> None:
    text = tool_instructions([WRITE, READ])
    assert "write_file(path, content)" in text and "read_file(path)" in text and FINAL_ANSWER in text
    example = text.split("Example: ", 1)[1]
    assert parse_tool_call(example, SPECS).name == "write_file"


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_arbitrary_text_never_escapes(text: str) -> None:
    with contextlib.suppress(ToolCallParseError):  # the only exception allowed out
        parse_tool_call(text, SPECS)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["write_file", "read_file", "repeat", FINAL_ANSWER, "x", ""]) | st.text(max_size=10),
    arguments=_json_values,
)
def test_fuzz_json_shaped_calls_never_escape(name: str, arguments: object) -> None:
    text = json.dumps({"name": name, "arguments": arguments})
    for candidate in (text, text[: len(text) // 2], text.replace('"', "'"), "{" * 50 + text):
        try:
            call = parse_tool_call(candidate, SPECS)
        except ToolCallParseError:
            continue
        assert call.name in {"write_file", "read_file", "repeat", FINAL_ANSWER}
        assert isinstance(call.arguments, dict)


def test_deeply_nested_input_is_a_parse_error() -> None:
    with pytest.raises(ToolCallParseError):
        parse_tool_call("[" * 100_000 + "]" * 100_000, SPECS)


def test_cut_off_file_keeps_its_complete_lines() -> None:
    from agents.tool_calls import repair_cut_off_call

    cut = '{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 1\\ny = 2\\nprint(x +'
    call = repair_cut_off_call(cut, SPECS)
    assert call is not None and call.arguments == {"path": "a.py", "content": "x = 1\ny = 2\n"}
    raw_newlines = '{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 1\ny = 2\nprint('
    assert repair_cut_off_call(raw_newlines, SPECS).arguments["content"] == "x = 1\ny = 2\n"


@pytest.mark.parametrize(
    "cut",
    [
        '{"name": "write_file", "arguments": {"path": "a.p',  # cut inside the path: nothing to keep
        '{"name": "write_file", "arguments": {"path": "a.py", "content": "no newline yet',
        '{"name": "read_fi',
        "",
    ],
)
def test_unrepairable_cuts_stay_errors(cut: str) -> None:
    from agents.tool_calls import repair_cut_off_call

    assert repair_cut_off_call(cut, SPECS) is None
