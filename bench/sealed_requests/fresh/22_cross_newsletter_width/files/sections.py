"""One section of the newsletter: {'title': ..., 'text': ..., 'items': [...]} (items optional)."""

from wrapping import bullet, wrap


def render_section(section):
    lines = [section["title"].upper(), ""]
    lines += wrap(section["text"])
    if section.get("items"):
        lines.append("")
        for item in section["items"]:
            lines += bullet(item)
    return lines
