class Bookmarks:
    def __init__(self):
        self.items = []  # {"url": ..., "title": ..., "tags": [...]}

    def add(self, url, title, tags=()):
        if any(b["url"] == url for b in self.items):
            raise ValueError(f"already saved: {url}")
        self.items.append({"url": url, "title": title, "tags": list(tags)})

    def search(self, *tags):
        wanted = {tag.lower() for tag in tags}
        return [b for b in self.items if wanted <= {t.lower() for t in b["tags"]}]

    def remove(self, url):
        self.items = [b for b in self.items if b["url"] != url]
