import hashlib
from pathlib import Path

import jobs
from jobqueue import JobQueue
from test_jobqueue import test_bad_priority, test_empty, test_most_urgent_first, test_ties_keep_their_order  # noqa: F401
from worker import drain

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_jobqueue.py": "b38212000d3646b053ed9f2591de30a75295c4d72f72c2be4459167d6481a56a", "worker.py": "a794c0e3a288d5c9bcb6fee1e7dfa20eed5d24884fb096137df98cd245ba7bcc", "jobs.py": "ddfed4e038bfc46ad3bebbf2176103887aea3609177d8504da22cbce06fec57c"}


def test_the_tests_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_a_mixed_queue():
    queue = JobQueue()
    queue.push(lambda: jobs.backup(), priority=8)
    queue.push(lambda: jobs.send_email("ops"), priority=1)
    queue.push(lambda: jobs.resize_image("a.png"))
    queue.push(lambda: jobs.resize_image("b.png"))
    assert len(queue) == 4
    assert drain(queue, lambda job: job()) == ["email to ops", "resized a.png", "resized b.png", "backup done"]


def test_peek_shows_the_next():
    queue = JobQueue()
    queue.push("x", priority=4)
    queue.push("y", priority=2)
    assert queue.peek() == "y" and len(queue) == 2
