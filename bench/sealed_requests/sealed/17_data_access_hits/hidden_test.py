import hashlib
from pathlib import Path

import main
from analyze import hits_per_path
from load import read_rows
from test_analyze import test_errors, test_status_counts, test_visitors  # noqa: F401

HERE = Path(__file__).resolve().parent
UNCHANGED = {"test_analyze.py": "59eff587f2d35250161d88e63ba0babd8dc78e7b25b94da2f8294d34a9787615", "access.csv": "b8680e14a55c26b993700dc5e853de212d2f653a13a7646bc5403fb29b03c0de", "load.py": "96e497fe232b2f44f6efa140ae4a0e4cc0e67f6fc439a88bfe591998d3b251b4", "main.py": "15d8d46844ff92af44da052677e65b78377add4895ebd038ddc86d0139d1a905"}


def test_files_not_asked_about_are_unchanged():
    for name, digest in UNCHANGED.items():
        assert hashlib.sha256((HERE / name).read_bytes()).hexdigest() == digest, name


def test_hits_in_the_log():
    hits = [tuple(pair) for pair in hits_per_path(read_rows(str(HERE / "access.csv")))]
    assert hits == [("/", 2), ("/about", 2), ("/login", 2)]


def test_other_rows():
    rows = [
        {"ip": "a", "path": "/b", "status": 200},
        {"ip": "a", "path": "/a", "status": 299},
        {"ip": "a", "path": "/b", "status": 204},
        {"ip": "a", "path": "/c", "status": 300},
        {"ip": "a", "path": "/c", "status": 199},
    ]
    assert [tuple(pair) for pair in hits_per_path(rows)] == [("/b", 2), ("/a", 1)]
    assert hits_per_path([]) in ([], ())


def test_main_still_runs(capsys):
    main.main(str(HERE / "access.csv"))
    assert "11 requests from 7 visitors, 4 errors" in capsys.readouterr().out
