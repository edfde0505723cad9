"""`python -m scoring ...`: see `scoring.cli`."""

import sys

from scoring.cli import main

sys.exit(main())
