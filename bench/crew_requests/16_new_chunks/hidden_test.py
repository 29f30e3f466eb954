import chunks


def test_chunk():
    assert chunks.chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert chunks.chunk([1, 2, 3], 3) == [[1, 2, 3]]
    assert chunks.chunk(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert chunks.chunk([], 3) == []
