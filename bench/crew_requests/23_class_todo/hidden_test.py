from todo import TodoList


def test_ids_count_up():
    todo = TodoList()
    assert todo.add("write") == 1
    assert todo.add("test") == 2
    assert todo.add("ship") == 3


def test_pending():
    todo = TodoList()
    first = todo.add("write")
    todo.add("test")
    todo.add("ship")
    todo.done(first)
    assert todo.pending() == ["test", "ship"]
