"""`python3 -m grip sweep ...`: the sweep command (grip.dask_sweep.main)."""
import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("sweep",):
        print("usage: python3 -m grip sweep [--help | options]  (docs/python.md)", file=sys.stderr)
        return 2
    from .dask_sweep import main as sweep_main
    return sweep_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
