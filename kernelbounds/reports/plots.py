"""Plots of lower <= r* <= upper against m (floats only here: a picture, never a decision).

One figure, two users: `kernelbounds table --plot FILE` draws the rows it printed, and
`kernelbounds docs-tables` draws every plot embedded in docs/*.md (and README.md) between a
line `<!-- kernelbounds plot FILE --m A..B --n LIST [--variant V] [--kernel K] [--log2] -->`
and `<!-- end of generated plot -->`.  Such a plot is checked current by its data, never by
its pixels: beside FILE sits FILE.json, deterministic JSON of the plotted numbers (the hub's
answers for the marker's cells), and FILE carries the sha256 of that JSON in a PNG text
chunk (DATA_KEY).  `docs-tables --check` recomputes the data and compares it with the
sidecar, and reads the chunk, without matplotlib.

The figure: one panel per n (small multiples, shared axes); in each, the certified lower
bound, the upper bound with any features and with nonnegative features, the gap between the
lower and the upper bound (any features) shaded, and a distinct marker on every cell where
they meet (r* exact); one legend outside the panels."""

from __future__ import annotations

from ..errors import KernelboundsError
from ..vocabulary import sha256
import json
import math
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..certificate import replacing, write_atomic

DATA_FORMAT = "kernelbounds-plot-data"
DATA_VERSION = 1
STYLE = 3  # bump when the drawing changes: every generated plot is then stale and redrawn
DATA_KEY = "kernelbounds-data-sha256"  # the PNG text chunk holding the data file's sha256
SOURCE_KEY = "kernelbounds-data"  # the PNG text chunk naming the data file (beside the PNG)
COLUMNS = ("m", "n", "lower", "upper", "upper_nonnegative", "exact")

MARK = re.compile(r"(<!-- kernelbounds plot ([^\n]*?) -->\n)(.*?)(<!-- end of generated plot -->)", re.S)


class SpecError(KernelboundsError, ValueError):
    """A plot marker that does not parse (its text and what is wrong)."""


class NoMatplotlib(KernelboundsError, RuntimeError):
    """Drawing needs matplotlib and it does not import (the data check does not need it)."""


@dataclass(frozen=True)
class Spec:
    """A generated plot: the PNG file (relative to the markdown file that embeds it), the
    m range, the n values, the head variant, the kernel class, and a log-2 y axis."""

    file: str
    ms: range
    ns: tuple[int, ...]
    variant: str = "position-independent"
    kernel: str = "nonnegative"
    log2: bool = True

    def ns_text(self) -> str:
        """The n values: "C..D" when consecutive, else "a,b,c"."""
        if len(self.ns) > 1 and self.ns == tuple(range(self.ns[0], self.ns[-1] + 1)):
            return f"{self.ns[0]}..{self.ns[-1]}"
        return ",".join(map(str, self.ns))

    def text(self) -> str:
        """The marker's parameters, as parse_spec reads them."""
        return (f"{self.file} --m {self.ms.start}..{self.ms.stop - 1} --n {self.ns_text()}"
                + ("" if self.variant == "position-independent" else f" --variant {self.variant}")
                + ("" if self.kernel == "nonnegative" else f" --kernel {self.kernel}") + (" --log2" if self.log2 else ""))


def _ns(text: str) -> tuple[int, ...]:
    """"C..D" or "a,b,c" (ascending, each 1..64)."""
    if re.fullmatch(r"\d+\.\.\d+", text):
        a, b = map(int, text.split(".."))
        ns = tuple(range(a, b + 1))
    elif re.fullmatch(r"\d+(,\d+)*", text):
        ns = tuple(int(x) for x in text.split(","))
    else:
        raise SpecError(f"--n must be C..D or a comma list of n, got {text!r}")
    if not ns or list(ns) != sorted(set(ns)) or not 1 <= ns[0] <= ns[-1] <= 64:
        raise SpecError(f"--n must name ascending n in 1..64, got {text!r}")
    return ns


def parse_spec(text: str) -> Spec:
    """The Spec of a marker's parameters: `FILE.png --m A..B --n LIST [--variant V]
    [--kernel K] [--log2]`; SpecError names what is wrong."""
    from ..hub.answer import KERNELS, VARIANTS

    words = text.split()
    if not words or not re.fullmatch(r"[A-Za-z0-9_./-]+\.png", words[0]) or ".." in Path(words[0]).parts or words[0].startswith("/"):
        raise SpecError(f"a plot marker starts with a relative FILE.png, got {text!r}")
    args, log2, i = {}, False, 1
    while i < len(words):
        w = words[i]
        if w == "--log2":
            log2, i = True, i + 1
        elif w in ("--m", "--n", "--variant", "--kernel") and i + 1 < len(words) and w not in args:
            args[w], i = words[i + 1], i + 2
        else:
            raise SpecError(f"unexpected {w!r} in the plot marker {text!r} (--m A..B --n LIST [--variant V] [--kernel K] [--log2])")
    if "--m" not in args or "--n" not in args:
        raise SpecError(f"the plot marker {text!r} needs --m A..B and --n LIST")
    m = re.fullmatch(r"(\d+)\.\.(\d+)", args["--m"])
    if not m or not 1 <= int(m[1]) <= int(m[2]) <= 256:
        raise SpecError(f"--m must be A..B with 1 <= A <= B <= 256, got {args['--m']!r}")
    variant, kernel = args.get("--variant", "position-independent"), args.get("--kernel", "nonnegative")
    if variant not in VARIANTS or kernel not in KERNELS or (kernel, variant) == ("signed-any-denominator", "position-dependent"):
        raise SpecError(f"the plot marker {text!r} names an unknown or uncovered variant/kernel")
    return Spec(words[0], range(int(m[1]), int(m[2]) + 1), _ns(args["--n"]), variant, kernel, log2)


# ---------------------------------------------------------------- the data behind a plot

def data(spec: Spec, rows) -> str:
    """The plotted numbers (rows: report.Row for the spec's cells) as deterministic JSON:
    the header's keys sorted, then "rows", one row per line (exact integers, m-major)."""
    head = {"format": DATA_FORMAT, "version": DATA_VERSION, "style": STYLE, "plot": spec.text(), "columns": list(COLUMNS)}
    lines = [json.dumps([r.m, r.n, r.lower, r.upper, r.upper_nonnegative, r.exact], separators=(",", ":")) for r in rows]
    return ("{\n" + "".join(f" {json.dumps(k)}: {json.dumps(head[k])},\n" for k in sorted(head))
            + ' "rows": [\n' + ",\n".join(f"  {line}" for line in lines) + "\n ]\n}\n")


def stamp(data_file: Path) -> dict[str, str]:
    """The PNG metadata binding an image to the data file it was drawn from (its name,
    beside the image, and its sha256): pass it to save."""
    return {SOURCE_KEY: data_file.name, DATA_KEY: sha256(data_file.read_bytes())}


def drawn_from(png: Path) -> str | None:
    """Why the PNG (any PNG in docs/) is not bound to the current bytes of its data file,
    or None: it must name a data file beside it (SOURCE_KEY) and carry its sha256."""
    try:
        chunks = png_text(png)
    except (ValueError, OSError) as exc:
        return str(exc)
    name = chunks.get(SOURCE_KEY)
    if name is None or not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name.startswith("."):
        return f"no plot marker draws it and it names no data file (PNG text chunk {SOURCE_KEY})"
    source = png.with_name(name)
    if not source.is_file():
        return f"its data file {name} is missing"
    if chunks.get(DATA_KEY) != sha256(source.read_bytes()):
        return f"it was not drawn from the current {name} (redraw it with the command that wrote {name})"
    return None


def png_text(path) -> dict[str, str]:
    """The tEXt chunks of a PNG file (keyword -> text); ValueError if it is not a PNG."""
    raw = Path(path).read_bytes()
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    out, i = {}, 8
    while i + 8 <= len(raw):
        length, kind = struct.unpack(">I4s", raw[i:i + 8])
        body = raw[i + 8:i + 8 + length]
        if kind == b"tEXt" and b"\0" in body:
            key, _, value = body.partition(b"\0")
            out[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"zTXt" and b"\0" in body:
            key, _, rest = body.partition(b"\0")
            out[key.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
        elif kind == b"IEND":
            break
        i += 12 + length
    return out


def stale(png: Path, text: str) -> str | None:
    """Why the plot png (with its sidecar png.json) does not show the data text, or None:
    the sidecar must be text and the image must name it and carry its sha256."""
    side = png.with_name(png.name + ".json")
    if not side.is_file():
        return f"no data file {side.name}"
    if side.read_text(encoding="ascii", errors="replace") != text:
        return f"its data {side.name} differs from the hub's answers (or from the drawing's style)"
    if not png.is_file():
        return "no image"
    return None if drawn_from(png) is None and png_text(png).get(SOURCE_KEY) == side.name else f"the image was not drawn from {side.name}"


# ---------------------------------------------------------------- the figure

def _grid(k: int) -> tuple[int, int]:
    cols = 1 if k == 1 else 2 if k in (2, 4) else 3 if k <= 6 or k == 9 else 4
    return math.ceil(k / cols), cols


def require_matplotlib() -> None:
    """NoMatplotlib (one line: which extra) unless matplotlib imports; its backend is then Agg."""
    try:
        import matplotlib
    except ImportError as exc:
        raise NoMatplotlib(f"drawing a plot needs matplotlib, which does not import ({exc}): pip install 'kernelbounds[plots]'") from None
    matplotlib.use("Agg")


def figure(rows, log2: bool = True, title: str | None = None):
    """The matplotlib Figure of the rows (report.Row): one panel per n, in ascending n
    (the panels carry their n in `kernelbounds_n`; each may hold one zoom inset of the first m)."""
    require_matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator, MultipleLocator

    ns = sorted({r.n for r in rows})
    nr, nc = _grid(len(ns))
    fig = Figure(figsize=(7.0, 4.8) if len(ns) == 1 else (3.4 * nc + 0.6, 2.7 * nr + 1.1))
    axes = fig.subplots(nr, nc, sharex=True, sharey=True, squeeze=False).ravel()
    for ax in axes[len(ns):]:
        fig.delaxes(ax)

    def y(v: int) -> float:  # floats: a picture only
        return math.log2(v) if log2 else float(v)

    top = 0.0
    for ax, n in zip(axes[:len(ns)], ns, strict=True):
        own = sorted((r for r in rows if r.n == n), key=lambda r: r.m)
        xs = [r.m for r in own]
        top = max(top, _curves(ax, own, y, 1.0, reference=log2))
        if log2 and len(xs) > 14:  # the first m, zoomed: every 2^k labelled
            _zoom(ax, [r for r in own if r.m < xs[0] + 9], y)
        ax.set_title(f"n = {n}", fontsize=9, pad=3)
        ax.kernelbounds_n = n
        ax.grid(alpha=0.35, which="major")
        ax.tick_params(labelsize=8)
    ax0 = axes[0]
    ax0.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    if log2:
        step = max(1, math.ceil(top / 6))
        ax0.yaxis.set_major_locator(MultipleLocator(step))
        if step > 1:
            ax0.yaxis.set_minor_locator(MultipleLocator(1 if step <= 5 else max(1, step // 5)))
        ax0.yaxis.set_major_formatter(FuncFormatter(_power))
        ax0.set_ylim(bottom=-0.5)
    for i, ax in enumerate(axes[:len(ns)]):
        if i % nc == 0:
            ax.set_ylabel("feature rank" + (" (log2 scale)" if log2 else ""), fontsize=8)
        if i >= len(ns) - nc:
            ax.set_xlabel("m (token bits)", fontsize=8)
            ax.tick_params(labelbottom=True)
    handles = [Line2D([], [], color="tab:blue", linewidth=1.2, label="certified lower bound"),
               Line2D([], [], color="tab:red", linewidth=1.2, label="upper bound (any features)")]
    if any(r.upper_nonnegative != r.upper for r in rows):  # else the curve lies on the red one: no entry that shows nothing
        handles.append(Line2D([], [], color="tab:orange", linestyle="--", linewidth=1, label="upper bound (nonnegative features)"))
    if log2:
        handles.append(Line2D([], [], color="gray", linestyle=":", linewidth=1, label="2^m (U2, the trivial upper bound)"))
    handles += [Patch(color="tab:blue", alpha=0.18, label="r* lies in this gap"),
                Line2D([], [], color="black", linestyle="none", marker="D", markersize=3.5, label="exact: lower = upper")]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(title or "Certified bounds on r*(m, n)", fontsize=10)
    legend_rows = -(-len(handles) // 3)
    fig.tight_layout(rect=(0, 0.045 * legend_rows * 3 / (nr + 1.5), 1, 1))
    return fig


def _curves(ax, own, y, width: float, dots: bool = False, reference: bool = False) -> float:
    """Draw the rows own (one n, ascending m) on ax: the gap band, the upper bounds with
    nonnegative features (unless it is the any-features curve) and any features, the lower
    bound, a diamond on each exact cell, and (``reference``) 2^m dotted; the highest y drawn."""
    xs = [r.m for r in own]
    low, up, upn = [y(r.lower) for r in own], [y(r.upper) for r in own], [y(r.upper_nonnegative) for r in own]
    dot = {"marker": ".", "markersize": 2.5} if dots else {}
    ax.fill_between(xs, low, up, color="tab:blue", alpha=0.18, linewidth=0)
    if reference:
        ax.plot(xs, [y(2**m) for m in xs], color="gray", linestyle=":", linewidth=width)
    if upn != up:
        ax.plot(xs, upn, color="tab:orange", linestyle="--", linewidth=width)
    ax.plot(xs, up, color="tab:red", linewidth=1.2 * width, **dot)
    ax.plot(xs, low, color="tab:blue", linewidth=1.2 * width, **dot)
    ex = [r for r in own if r.exact]
    if ex:
        ax.plot([r.m for r in ex], [y(r.lower) for r in ex], linestyle="none", marker="D", markersize=3.5 * width ** 0.5, color="black")
    return max(*up, *upn, *([y(2**m) for m in xs] if reference else []))


def _power(v: float, _pos=None) -> str:
    """A log2 tick as 2^k (k an integer; no label between)."""
    return f"$2^{{{round(v)}}}$" if abs(v - round(v)) < 1e-9 else ""


def _zoom(ax, own, y) -> None:
    """An inset in the panel's empty upper left: the rows own (the first m) with every
    power of two on the y axis labelled and the exact cells marked."""
    from matplotlib.ticker import MaxNLocator, MultipleLocator

    inset = ax.inset_axes((0.1, 0.5, 0.36, 0.4))
    xs = [r.m for r in own]
    top = _curves(inset, own, y, 0.8, dots=True, reference=True)
    inset.yaxis.set_major_locator(MultipleLocator(1 if top <= 8 else 2))
    inset.yaxis.set_major_formatter(lambda v, _pos: _power(v))
    inset.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
    inset.set_ylim(-0.4, top + 0.4)
    inset.tick_params(labelsize=6, length=2, pad=1)
    inset.grid(alpha=0.3)
    inset.set_title(f"m = {xs[0]}..{xs[-1]}", fontsize=6, pad=2)
    inset.kernelbounds_zoom = True


def title(spec_or_none: Spec | None, variant: str = "position-independent", kernel: str = "nonnegative") -> str:
    if spec_or_none is not None:
        variant, kernel = spec_or_none.variant, spec_or_none.kernel
    return f"Certified bounds on r*(m, n): {kernel} kernel, {variant} heads, Min-IP"


def save(fig, path, fmt: str = "png", dpi: int = 150, metadata: dict | None = None) -> None:
    """Save a figure (atomically through certificate.replacing; '-' writes the bytes to
    standard output) with no software or date stamp, so the bytes depend on the data and
    the matplotlib version only."""
    import io
    import sys

    meta = {"Software": None} if fmt == "png" else {"Creator": None} if fmt in ("svg", "pdf") else {}
    if fmt == "pdf":
        meta["CreationDate"] = None
    if fmt == "svg":
        meta["Date"] = None
    meta.update(metadata or {})
    if path == "-":
        buf = io.BytesIO()
        fig.savefig(buf, dpi=dpi, format=fmt, metadata=meta)
        sys.stdout.buffer.write(buf.getvalue())
        sys.stdout.flush()
        return
    with replacing(path) as tmp:
        fig.savefig(tmp, dpi=dpi, format=fmt, metadata=meta)


def draw(rows, path, fmt: str = "png", dpi: int = 150, log2: bool = True, title_text: str | None = None, metadata: dict | None = None) -> None:
    """Draw the rows' figure into path (see figure and save)."""
    save(figure(rows, log2=log2, title=title_text), path, fmt, dpi, metadata)


PLOT_FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def plot_format(path: str) -> str:
    """The figure format from the file extension (PNG, SVG or PDF); ValueError otherwise."""
    import os

    ext = os.path.splitext(path)[1].lower()
    if ext not in PLOT_FORMATS:
        raise ValueError(f"cannot tell the plot format from {path!r}: use a .png, .svg or .pdf file name")
    return PLOT_FORMATS[ext]


def plot(rows, path: str, dpi: int = 150, variant: str = "position-independent", kernel: str = "nonnegative") -> None:
    """`table --plot`: the rows' figure in the format of the extension, titled with the model
    class as the docs' figures are; '-' writes PNG to standard output."""
    draw(rows, path, "png" if path == "-" else plot_format(path), dpi, title_text=title(None, variant, kernel))


# ---------------------------------------------------------------- the plots embedded in the docs

def block(spec: Spec) -> str:
    """The markdown between a plot marker and its end: the image and where its data is."""
    alt = f"lower and upper bounds on r*(m, n) for m = {spec.ms.start}..{spec.ms.stop - 1}, n = {spec.ns_text()}"
    return f"![{alt}]({spec.file})\n\nThe plotted numbers: [{spec.file}.json]({spec.file}.json).\n"


def specs(text: str) -> list[tuple[re.Match, Spec]]:
    """Every plot marker of a markdown text with its Spec (SpecError if one does not parse)."""
    return [(match, parse_spec(match.group(2))) for match in MARK.finditer(text)]


def render_text(text: str) -> str:
    """The markdown with every plot block rewritten from its marker."""
    return MARK.sub(lambda match: match.group(1) + block(parse_spec(match.group(2))) + match.group(4), text)


def rows_of(spec: Spec, jobs: int | None = 1):
    from . import report

    return report.table(spec.ms, spec.ns, spec.variant, jobs=jobs, kernel=spec.kernel)


def render(md: Path, text: str, check: bool, jobs: int | None = 1, dpi: int = 150) -> list[tuple[Path, str]]:
    """Each plot embedded in text (the markdown file md): with check, the stale ones (path,
    why); else draw the stale ones and write their data files, and return them (path, why)."""
    out = []
    for _match, spec in specs(text):
        png = md.parent / spec.file
        rows = rows_of(spec, jobs)
        text = data(spec, rows)
        why = stale(png, text)
        if why is None:
            continue
        out.append((png, why))
        if not check:
            side = png.with_name(png.name + ".json")
            draw(rows, png, "png", dpi, spec.log2, title(spec), {SOURCE_KEY: side.name, DATA_KEY: sha256(text)})
            write_atomic(side, text)
    return out


def unmarked(root, drawn: set[Path]) -> list[tuple[Path, str]]:
    """The PNG files in docs/ that no plot marker draws (drawn: those that one does) and that
    are not bound to the current bytes of the data file they name (path, why)."""
    out = []
    for png in sorted((Path(root) / "docs").glob("*.png")):
        if png.resolve() not in drawn:
            why = drawn_from(png)
            if why is not None:
                out.append((png, why))
    return out


def docs_files(root) -> list[Path]:
    """The docs/ markdown files (and README.md) that embed generated plots."""
    root = Path(root)
    files = sorted((root / "docs").glob("*.md")) + [root / "README.md"]
    return [f for f in files if f.is_file() and MARK.search(f.read_text(encoding="utf-8"))]
