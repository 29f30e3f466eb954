from user import User


class UserStore:
    def __init__(self):
        self._users: list[User] = []

    def add(self, user):
        self._users.append(user)

    def find(self, email):
        return next((u for u in self._users if u.email == email), None)

    def names(self):
        return sorted(u.name for u in self._users)
