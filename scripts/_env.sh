# Shared by scripts/*: create .venv if missing and install the project into it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
stamp=.venv/.kernelbounds-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
