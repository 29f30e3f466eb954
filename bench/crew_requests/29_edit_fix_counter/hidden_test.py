from counter import Counter, make_counters


def test_increment_by_step():
    c = Counter()
    c.increment(5)
    assert c.value == 5
    c.increment()
    assert c.value == 6


def test_the_rest_stays():
    c = Counter(3)
    assert c.value == 3
    c.reset()
    assert c.value == 0
    assert len(make_counters(3)) == 3
