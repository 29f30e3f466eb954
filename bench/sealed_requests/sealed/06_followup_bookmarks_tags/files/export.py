def to_html(marks):
    rows = [f'<li><a href="{b["url"]}">{b["title"]}</a></li>' for b in marks.items]
    return "<ul>\n" + "\n".join(rows) + "\n</ul>"
