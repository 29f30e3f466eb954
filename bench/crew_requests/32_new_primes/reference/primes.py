def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, int(n**0.5) + 1))


def primes_below(n):
    return [k for k in range(2, n) if is_prime(k)]
