PREFIX = "INV-"


def format_number(n):
    return f"{PREFIX}{n}"


def parse_number(text):
    if not text.startswith(PREFIX):
        raise ValueError(f"not an invoice number: {text}")
    return int(text[len(PREFIX):])


def next_number(last):
    """The number after `last` (None: the first invoice)."""
    return format_number(1 if last is None else parse_number(last) + 1)
