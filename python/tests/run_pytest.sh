#!/usr/bin/env bash
# Runs the Python package's tests (ctest: python_pytest). $1: the interpreter (/usr/bin/python3).
# Skipped (77) when the interpreter lacks a module the suite needs; pytest's "no tests collected"
# (5) is a failure.
py=${1:-/usr/bin/python3}
if ! [ -x "$py" ]; then
  echo "python tests skipped: no interpreter $py (scripts/install-deps.sh installs python3)"
  exit 77
fi
missing=$("$py" -c "import importlib.util as u; print(' '.join(m for m in ('cffi', 'numpy', 'pytest', 'pandas', 'dask', 'distributed') if u.find_spec(m) is None))") || exit 1
if [ -n "$missing" ]; then
  echo "python tests skipped: $py has no $missing (scripts/install-deps.sh installs them)"
  exit 77
fi
cd "$(dirname "$0")" || exit 1
"$py" -m pytest -q -p no:cacheprovider .
rc=$?
if [ "$rc" -eq 5 ]; then
  echo "run_pytest: pytest collected no tests" >&2
  exit 1
fi
exit "$rc"
