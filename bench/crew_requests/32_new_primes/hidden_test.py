import primes


def test_is_prime():
    for n in (2, 3, 13, 97):
        assert primes.is_prime(n), n
    for n in (-5, 0, 1, 4, 91, 100):
        assert not primes.is_prime(n), n


def test_primes_below():
    assert primes.primes_below(20) == [2, 3, 5, 7, 11, 13, 17, 19]
    assert primes.primes_below(2) == []
