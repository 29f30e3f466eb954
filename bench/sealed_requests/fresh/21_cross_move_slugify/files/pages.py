"""The site's pages: one per post, plus one per tag."""

from posts import slugify

BASE_URL = "https://blog.example.org"


def post_url(post):
    return f"{BASE_URL}/{post.published.year}/{post.slug}/"


def tag_url(tag):
    return f"{BASE_URL}/tags/{slugify(tag)}/"


def index_lines(posts):
    return [f"{post.published.isoformat()}  {post.title}  ({post.reading_minutes()} min)" for post in posts]
