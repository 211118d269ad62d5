# Shared by scripts/*: create .venv if missing and install the project into it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.kernelbounds-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "installing kernelbounds into .venv (log: .venv/install.log)" >&2
  if ! { .venv/bin/python -m pip install --disable-pip-version-check --upgrade pip \
         && .venv/bin/python -m pip install --disable-pip-version-check -e ".[test]"; } > .venv/install.log 2>&1; then
    tail -30 .venv/install.log >&2
    echo "installation failed; see .venv/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
export MPLBACKEND=Agg
