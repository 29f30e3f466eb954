from datetime import date

from feed import feed
from pages import post_url, tag_url
from posts import Post

POST = Post("Why I Like Tea & Toast", date(2024, 5, 1), "body")


def test_urls():
    assert post_url(POST) == "https://blog.example.org/2024/why-i-like-tea-toast/"
    assert tag_url("Food & Drink") == "https://blog.example.org/tags/food-drink/"


def test_feed():
    assert "urn:blog:2024-05-01:why-i-like-tea-toast" in feed([POST])
    assert "Tea &amp; Toast" in feed([POST])
