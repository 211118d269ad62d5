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
# CaDiCaL (Debian's package) proves the rank refutations; the tests that run it need it.
# One attempt per .venv (apt-get without a terminal); delete the stamp to try again.
cadical_stamp=.venv/.cadical-install-tried
if ! command -v cadical >/dev/null 2>&1; then
  if [ -f "$cadical_stamp" ]; then
    echo "cadical is not installed (an earlier attempt failed, see .venv/install-cadical.log; delete $cadical_stamp to retry): the tests that run it are skipped" >&2
  elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing the SAT solver cadical (log: .venv/install-cadical.log)" >&2
    touch "$cadical_stamp"
    _apt_get() { DEBIAN_FRONTEND=noninteractive apt-get "$@" < /dev/null; }
    { _apt_get install -y cadical || { _apt_get update && _apt_get install -y cadical; }; } > .venv/install-cadical.log 2>&1 \
      || echo "cadical did not install (see .venv/install-cadical.log): the tests that run it are skipped" >&2
    unset -f _apt_get
  else
    echo "cadical is not installed and cannot be installed here (apt-get as root): the tests that run it are skipped" >&2
  fi
fi
export PATH="$PWD/.venv/bin:$PATH"
export MPLBACKEND=Agg
