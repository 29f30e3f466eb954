def drain(queue, handle):
    """Run every job in the queue through `handle`, most urgent first; returns what each gave."""
    results = []
    while len(queue):
        results.append(handle(queue.pop()))
    return results
