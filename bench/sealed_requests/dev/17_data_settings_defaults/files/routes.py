ROUTES = {}


def route(path):
    def register(handler):
        ROUTES[path] = handler
        return handler

    return register


@route("/health")
def health():
    return {"ok": True}


def dispatch(path):
    handler = ROUTES.get(path)
    return handler() if handler else {"error": "not found"}
