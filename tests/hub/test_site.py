"""`kernelbounds site DIR`: plain HTML whose every link resolves inside the site, a page per
cell stating both sides as kb.bound does, the cited certificates byte for byte as shipped;
in the slow suite, headless Chromium renders the site (scripts/site-browser-check.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import kernelbounds as kb
from kernelbounds.cli import main
from kernelbounds.reports import grid, site
from kernelbounds.vocabulary import sha256

ROOT = Path(__file__).resolve().parents[2]


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.text = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.links += [a[k] for k in ("href", "src") if a.get(k) and tag in ("a", "img")]

    def handle_data(self, data):
        self.text.append(data)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "out"
    assert main(["site", "--m", "6..9", "--n", "2..4", "--no-plot", "--jobs", "1", str(folder)]) in (0, None)
    return folder


def test_every_link_resolves_inside_the_site(written):
    pages = sorted(written.glob("*.html"))
    assert len(pages) == 1 + len(site.classes()) * 4 * 3
    for page in pages:
        p = Links()
        p.feed(page.read_text(encoding="ascii"))
        assert p.links, page.name
        for link in p.links:
            path, _, anchor = link.partition("#")
            target = written / path if path else page
            assert "://" not in link and target.is_file(), (page.name, link)
            assert not anchor or f'id="{anchor}"' in target.read_text(encoding="ascii"), (page.name, link)


def test_every_cell_page_states_both_sides_as_the_hub(written):
    for variant, kernel in site.classes():
        for m in range(6, 10):
            for n in range(2, 5):
                b = kb.bound(m, n, variant, kernel=kernel)
                p = Links()
                p.feed((written / grid.cell_file(variant, kernel, m, n)).read_text(encoding="ascii"))
                text = "".join(p.text)
                assert f"{b.lower} <= r* <= {b.upper}" in text
                for side in ("lower", "upper", "upper_nonnegative"):
                    s = b.sides[side]
                    assert f"{s['value']} by {s['method']}" in text
                    assert (s["certificate"] or s["rebuild"] or "no certificate is needed") in text
                assert (b.ceiling is None) == ("ceiling of L3/L4" not in text)
                if b.ceiling is not None:
                    assert f"r >= {b.ceiling} " in text


def test_the_cited_certificates_are_the_shipped_bytes(written):
    from kernelbounds.hub import index

    files = sorted((written / "certificates").iterdir())
    assert files
    for f in files:
        assert sha256(f.read_bytes()) == index.entries()[f.name]["sha256"]
        assert f.read_bytes() == index.read_shipped(f.name)


def test_the_grid_links_every_cell(written):
    text = (written / "index.html").read_text(encoding="ascii")
    linked = set(re.findall(r'href="(cell-[^"]+)"', text))
    assert linked == {p.name for p in written.glob("cell-*.html")}


def test_a_foreign_folder_is_refused_and_kept(tmp_path, capsys):
    (tmp_path / "mine.txt").write_text("keep")
    assert main(["site", "--m", "2..3", "--n", "3..3", "--no-plot", str(tmp_path)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


@pytest.mark.slow
def test_headless_chromium_renders_the_site(tmp_path):
    """Chromium (Debian's package, installed by the script when missing) opens every page:
    every link resolves, every cell page renders its three sides, two screenshots."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "site-browser-check.py"), "--shots", str(tmp_path)], capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "grid.png").stat().st_size > 10_000 and (tmp_path / "cell.png").stat().st_size > 10_000
