from bookmarks import Bookmarks


def from_lines(lines):
    """'url | title | tag1, tag2' lines -> Bookmarks"""
    marks = Bookmarks()
    for line in lines:
        if not line.strip():
            continue
        url, title, tags = (part.strip() for part in line.split("|"))
        marks.add(url, title, [t.strip() for t in tags.split(",") if t.strip()])
    return marks
