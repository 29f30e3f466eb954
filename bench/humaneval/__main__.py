import sys

from bench.humaneval.cli import main

sys.exit(main())
