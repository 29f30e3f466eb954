"""One section of the newsletter: {'title': ..., 'text': ..., 'items': [...]} (items optional)."""

from wrapping import bullet, wrap


def render_section(section, width=72):
    lines = [section["title"].upper(), ""]
    lines += wrap(section["text"], width)
    if section.get("items"):
        lines.append("")
        for item in section["items"]:
            lines += bullet(item, width)
    return lines
