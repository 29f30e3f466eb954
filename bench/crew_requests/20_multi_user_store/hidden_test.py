from store import UserStore
from user import User


def test_user():
    u = User("Ada", "ada@example.com")
    assert u.name == "Ada"
    assert u.email == "ada@example.com"


def test_store():
    store = UserStore()
    store.add(User("Grace", "grace@example.com"))
    store.add(User("Ada", "ada@example.com"))
    assert store.find("ada@example.com").name == "Ada"
    assert store.find("nobody@example.com") is None
    assert store.names() == ["Ada", "Grace"]
