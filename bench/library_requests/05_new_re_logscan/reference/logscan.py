import re

ERROR_LINE = re.compile(r"^ERROR (\d+): (.*)$", re.IGNORECASE | re.MULTILINE)
EMAIL = re.compile(r"([\w.+-]+)@([\w-]+(?:\.[\w-]+)+)")


def find_errors(text):
    return ERROR_LINE.findall(text)


def mask_emails(text):
    return EMAIL.sub(lambda m: "*" * len(m.group(1)) + "@" + m.group(2), text)
