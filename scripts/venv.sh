# Sourced by scripts/run and scripts/test: set up .venv from a lock file, saying what it does.
#   install_locked NAME LOCK STAMP TOOL
# NAME is the calling script (for its lines), LOCK the lock file to install (requirements/run.txt
# or requirements/dev.txt), STAMP the file in .venv that remembers what was installed, TOOL a
# program in .venv/bin that must exist afterwards. Installs only when the lock, pyproject.toml,
# setup.py or the solver's sources (which the install compiles) changed since the last install,
# so a start with nothing new takes a second. Every version comes from the lock with its hash;
# the project itself is built without build isolation from the locked build tools.

pick_python() {
  # The lock is resolved for CPython 3.11: prefer it when python3 is another version.
  local candidate
  for candidate in "${PYTHON:-}" python3 python3.11; do
    [ -n "$candidate" ] || continue
    command -v "$candidate" >/dev/null 2>&1 || continue
    if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return
    fi
  done
  echo "${PYTHON:-python3}"
}

install_locked() {
  local name=$1 lock=$2 stamp=.venv/$3 tool=$4 python want started hashes
  if [ ! -x .venv/bin/python ]; then
    python=$(pick_python)
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$name: needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)." >&2
      exit 1
    fi
    echo "$name: creating .venv with $("$python" --version 2>&1) (a few seconds)..."
    "$python" -m venv .venv
  fi
  want="$({ cat "$lock" pyproject.toml; cat setup.py engine/solver/*.py 2>/dev/null || true; } | cksum)"
  if [ -x ".venv/bin/$tool" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return
  fi
  rm -f "$stamp"
  started=$SECONDS
  hashes=(--require-hashes -r "$lock")
  if ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    # Another Python: the same versions where they exist, without the hash check (a package
    # only that Python needs is resolved freely).
    echo "$name: the lock is resolved for Python 3.11 and .venv has $(.venv/bin/python --version 2>&1): installing its versions as constraints, without hashes."
    sed -e 's/ *\\$//' -e '/^ *--hash/d' "$lock" > .venv/lock-constraints.txt
    hashes=(-r .venv/lock-constraints.txt)
  fi
  echo "$name: installing the $(grep -c '^[a-z]' "$lock") locked packages of $lock into .venv (about a minute the first time, seconds once pip has them cached)..."
  .venv/bin/python -m pip install -q --disable-pip-version-check "${hashes[@]}"
  if [ "${RUMMIKUB_SOLVER:-}" = pure ]; then
    echo "$name: installing the project (RUMMIKUB_SOLVER=pure: the solver stays pure Python)..."
  else
    echo "$name: installing the project and compiling the solver with mypyc (about 40 s, once; RUMMIKUB_SOLVER=pure skips it)..."
  fi
  PYTHONWARNINGS="ignore:Editable installation" \
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
  printf '%s\n' "$want" > "$stamp"
  echo "$name: .venv is ready ($((SECONDS - started)) s)."
}
