"""Drive headless Chromium over a site written by `kernelbounds site`: every link of every
page (as the browser parsed it) resolves to a file of the site, every cell page renders its
lower and both upper sides, and screenshots of the grid and of one cell page are written.

usage: python scripts/site-browser-check.py [--site DIR] [--shots DIR] [--m A..B] [--n A..B]
Without --site a site for --m/--n (default 2..10, 3..4) is written into a temporary folder.
Chromium is Debian's `chromium` package, installed here with apt-get when missing.  Exit 0
when every check passes, 1 naming the first failures otherwise."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def chromium() -> str:
    """The chromium binary, installed with apt-get when missing."""
    found = shutil.which("chromium")
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"], check=True, stdout=subprocess.DEVNULL)
        found = shutil.which("chromium")
    if found is None:
        sys.exit("chromium is not installed and apt-get did not install it")
    return found


def run_browser(args: list[str], profile: Path, timeout: int = 120) -> str:
    out = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=timeout)
    return out.stdout


class Page(HTMLParser):
    """The links and the side headings of a DOM dumped by the browser."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.headings: list[str] = []
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.links.append(a["src"])
        self._in_h2 = tag == "h2"

    def handle_data(self, data):
        if self._in_h2:
            self.headings.append(data.strip())
            self._in_h2 = False


def check_page(path: Path, site: Path, profile: Path) -> list[str]:
    """The problems of one page as the browser renders it (empty: none)."""
    dom = run_browser(["--dump-dom", path.as_uri()], profile)
    if "</html>" not in dom:
        return [f"{path.name}: the browser rendered no document"]
    p = Page()
    p.feed(dom)
    problems = []
    for link in p.links:
        url = urlparse(link)
        if url.scheme in ("http", "https"):
            problems.append(f"{path.name}: a link leaves the site: {link}")
            continue
        target = (path.parent / unquote(url.path)).resolve() if url.path else path
        if not target.is_file() or site.resolve() not in target.parents:
            problems.append(f"{path.name}: the link {link} does not resolve")
    if path.name.startswith("cell-"):
        want = ["lower", "upper (any features)", "upper (nonnegative features)"]
        if [h for h in p.headings if h in want] != want:
            problems.append(f"{path.name}: the sides rendered are {p.headings}, not {want}")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site")
    ap.add_argument("--shots", default=str(Path(tempfile.gettempdir()) / "kernelbounds-site-shots"))
    ap.add_argument("--m", default="2..10")
    ap.add_argument("--n", default="3..4")
    ap.add_argument("--cell", default="cell-position-independent-nonnegative-m8-n3.html", help="the cell page to screenshot")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(args.site) if args.site else Path(tmp) / "site"
        if not args.site:
            subprocess.run([sys.executable, "-m", "kernelbounds", "site", "--m", args.m, "--n", args.n, "--jobs", "1", str(site)], check=True)
        pages = sorted(site.glob("*.html"))
        profiles = [Path(tmp) / f"profile{i}" for i in range(2)]
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda ip: check_page(ip[1], site, profiles[ip[0] % 2]), enumerate(pages)))
        problems = [p for r in results for p in r]
        shots = Path(args.shots)
        shots.mkdir(parents=True, exist_ok=True)
        for name, page, size in (("grid.png", "index.html", "1400,1000"), ("cell.png", args.cell, "1200,1100")):
            out = shots / name
            out.unlink(missing_ok=True)
            run_browser([f"--screenshot={out}", f"--window-size={size}", "--hide-scrollbars", (site / page).as_uri()], profiles[0])
            if not out.is_file() or out.stat().st_size < 1000:
                problems.append(f"no screenshot of {page}")
        cells = sum(p.name.startswith("cell-") for p in pages)
        print(f"site-browser-check: {len(pages)} pages ({cells} cell pages) rendered by {chromium()}; {len(problems)} problems; screenshots {shots / 'grid.png'}, {shots / 'cell.png'}")
        for p in problems[:20]:
            print("  " + p)
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
