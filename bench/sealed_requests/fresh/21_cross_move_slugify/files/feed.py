"""An Atom feed of the latest posts."""

from xml.sax.saxutils import escape

from pages import post_url
from posts import slugify


def entry(post):
    return (
        "<entry>"
        f"<title>{escape(post.title)}</title>"
        f"<id>urn:blog:{post.published.isoformat()}:{slugify(post.title)}</id>"
        f"<link href=\"{post_url(post)}\"/>"
        "</entry>"
    )


def feed(posts, limit=10):
    entries = "".join(entry(post) for post in posts[:limit])
    return f'<feed xmlns="http://www.w3.org/2005/Atom"><title>My blog</title>{entries}</feed>'
