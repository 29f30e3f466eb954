import re

PUNCTUATION = re.compile(r"[^\w\s']")


def normalize(text):
    """Lower case, punctuation removed, runs of whitespace as one space."""
    return " ".join(PUNCTUATION.sub(" ", text.lower()).split())


def sentences(text):
    return [s.strip() for s in re.split(r"[.!?]+", text) if s.strip()]
