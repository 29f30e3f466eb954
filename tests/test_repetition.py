"""A reply that loops on one piece of text is spotted; regular but varied code is not."""

from models.repetition import loop_start


def test_a_repeated_line_is_a_loop_and_the_first_copy_is_kept() -> None:
    head, line = "def f():\n    return 1\n", "print(greet('Ann'))\n"
    text = head + line * 30
    start = loop_start(text)
    assert start is not None and text[:start].startswith(head + line)
    assert loop_start(head + line * 3) is None  # three copies are not yet a loop


def test_a_repeated_paragraph_is_a_loop() -> None:
    paragraph = (
        "The `remove` method should remove the note at the specified index from the list of notes and"
        " return the removed note. However, in the given code, the `remove` method is not correctly"
        " updating the list of notes and the test is expecting the title of the note to remain the same.\n\n"
    )
    assert len(paragraph) > 200  # longer than the longest piece once looked for
    start = loop_start("Here is why:\n\n" + paragraph * 5)
    assert start is not None
    assert loop_start("Here is why:\n\n" + paragraph * 3) is None


def test_varied_regular_code_is_not_a_loop() -> None:
    tests = "".join(f"    assert square({i}) == {i * i}\n" for i in range(60))
    assert loop_start("def test_square():\n" + tests) is None
    assert loop_start("x" * 100) is None  # too short to judge


def test_the_engine_stops_a_looping_reply_early(engine) -> None:
    from llama_cpp import LlamaGrammar

    from models.chat_engine import GenerationSettings

    # A grammar with no end forces the same words over and over, on any CPU.
    loop = LlamaGrammar.from_string('root ::= "one two " root', verbose=False)
    text, stats = engine.chat(
        [{"role": "user", "content": "Count."}],
        GenerationSettings(temperature=0.0, max_tokens=600),
        grammar=loop,
    )
    assert stats.finish_reason == "repetition"
    assert stats.completion_tokens < 600 and text.startswith("one two one two")
