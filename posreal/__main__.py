import sys

from posreal.cli import main

sys.exit(main())
