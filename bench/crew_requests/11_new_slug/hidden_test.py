import slug


def test_slugify():
    assert slug.slugify("Hello, World!") == "hello-world"
    assert slug.slugify("  Python 3.11 is   here ") == "python-311-is-here"
    assert slug.slugify("one") == "one"
    assert slug.slugify("") == ""
