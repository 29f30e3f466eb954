from codes import encode


class Shortener:
    def __init__(self):
        self.urls = {}  # code -> url
        self.counter = 0

    def shorten(self, url):
        url = url.strip()
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"not a web address: {url!r}")
        for code, known in self.urls.items():
            if known == url:
                return code
        self.counter += 1
        code = encode(self.counter)
        self.urls[code] = url
        return code

    def expand(self, code):
        if code not in self.urls:
            raise KeyError(code)
        return self.urls[code]

    def __len__(self):
        return len(self.urls)
