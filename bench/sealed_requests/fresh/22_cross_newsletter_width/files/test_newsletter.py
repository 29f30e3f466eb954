from newsletter import ISSUE, build_newsletter


def test_titles_and_items():
    text = build_newsletter(ISSUE)
    assert text.startswith("CLUB NEWS\n\n")
    assert "COMING UP" in text and "- Sunday 14th: hill loop, bring boots" in text


def test_lines_fit():
    assert max(len(line) for line in build_newsletter(ISSUE).splitlines()) <= 72
