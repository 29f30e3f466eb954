import textutil


def test_shout_as_before():
    assert textutil.shout("hi") == "HI!"


def test_shout_times():
    assert textutil.shout("hi", 3) == "HI!!!"
    assert textutil.shout("hey", times=2) == "HEY!!"


def test_the_other_functions_stay():
    assert textutil.whisper("HeLLo") == "hello..."
    assert textutil.initials("ada lovelace") == "AL"
