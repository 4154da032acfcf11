"""``python -m glade.server [--host H] [--port P] [--db URL]``: the same as ``glade serve``."""

import sys

from .cli import main

if __name__ == "__main__":  # bot worker processes import this module too
    sys.exit(main(sys.argv[1:]))
