from headings import find_headings
from slug import slugify


def make_toc(text, max_level=3):
    lines = []
    for level, title in find_headings(text):
        if level <= max_level:
            lines.append(f"{'  ' * (level - 1)}- [{title}](#{slugify(title)})")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    with open(sys.argv[1], encoding="utf-8") as fh:
        print(make_toc(fh.read()))
