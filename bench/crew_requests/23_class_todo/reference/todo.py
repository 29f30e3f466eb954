class TodoList:
    def __init__(self):
        self._tasks = []

    def add(self, title):
        self._tasks.append({"title": title, "done": False})
        return len(self._tasks)

    def done(self, task_id):
        self._tasks[task_id - 1]["done"] = True

    def pending(self):
        return [task["title"] for task in self._tasks if not task["done"]]
