"""Blog posts: a post file is a title line, a date line (YYYY-MM-DD), a blank line, then the body."""

from datetime import date
from pathlib import Path

from textutil import slugify

WORDS_PER_MINUTE = 200


class Post:
    def __init__(self, title, published, body):
        self.title = title
        self.published = published
        self.body = body

    @property
    def slug(self):
        return slugify(self.title)

    def reading_minutes(self):
        return max(1, round(len(self.body.split()) / WORDS_PER_MINUTE))


def parse_post(text):
    title, day, _, *body = text.splitlines()
    return Post(title.strip(), date.fromisoformat(day.strip()), "\n".join(body).strip())


def load_posts(folder):
    posts = [parse_post(path.read_text(encoding="utf-8")) for path in Path(folder).glob("*.txt")]
    return sorted(posts, key=lambda post: post.published, reverse=True)
