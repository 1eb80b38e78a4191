#!/usr/bin/env python3
"""Draws a learning curve (the CSV `backgammon train` writes: games, ppg,
ci95, cpu_seconds) as an SVG, and as a PNG through headless Chromium.

    python3 tools/plot-curve.py CURVE.csv OUT.png [--title TEXT]

With --generations, the curve across generations of nets instead (CSV
columns generation, label, pubeval_ppg, pubeval_ci, gnubg0_ppg, gnubg0_ci:
the 1-ply net against pubeval and against GNU Backgammon 0-ply):

    python3 tools/plot-curve.py --generations GENERATIONS.csv OUT.png

No plotting library needed: the SVG is written here, Chromium renders it."""
import csv, os, shutil, subprocess, sys, tempfile, textwrap

W, H = 900, 520
# Pixels of the generations plot's column for one generation.
COLUMN = 120
L, R, T, B = 80, 30, 50, 70


def main():
    args = sys.argv[1:]
    title = "Net (1-ply) vs pubeval, cubeless money: points per game over TD(λ) training"
    if "--title" in args:
        i = args.index("--title")
        title = args[i + 1]
        del args[i:i + 2]
    if "--generations" in args:
        args.remove("--generations")
        src, out = args
        rows = list(csv.DictReader(open(src)))
        svg, width = draw_generations(rows)
        write(svg, out, width)
        return
    src, out = args
    rows = [(int(r["games"]), float(r["ppg"]), float(r["ci95"]), float(r["cpu_seconds"]))
            for r in csv.DictReader(open(src))]
    write(draw(rows, title), out)


def write(svg, out, width=W):
    svg_path = os.path.splitext(out)[0] + ".svg"
    open(svg_path, "w").write(svg)
    render(svg_path, out, width)


def draw_generations(rows):
    """Two series over the generations, each point with its 95% interval;
    returns the SVG and its width (a column of at least COLUMN pixels a
    generation, so that neighbouring labels do not overlap)."""
    n = len(rows)
    width = max(W, L + R + COLUMN * n)
    ymin, ymax = -0.4, 0.8
    x = lambda i: L + (width - L - R) * (i + 0.5) / n
    y = lambda v: T + (H - T - B) * (ymax - v) / (ymax - ymin)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{H}" '
         f'font-family="DejaVu Sans, sans-serif" font-size="13">',
         f'<rect width="{width}" height="{H}" fill="white"/>',
         f'<text x="{width / 2}" y="28" text-anchor="middle" font-size="15">'
         f'Nets by generation, 1-ply, cubeless money: points per game (95% interval)</text>']
    v = ymin
    while v <= ymax + 1e-9:
        colour = "#888" if abs(v) < 1e-9 else "#ddd"
        s.append(f'<line x1="{L}" x2="{width - R}" y1="{y(v)}" y2="{y(v)}" stroke="{colour}"/>')
        s.append(f'<text x="{L - 8}" y="{y(v) + 4}" text-anchor="end">{v:+.1f}</text>')
        v = round(v + 0.2, 6)
    for i, r in enumerate(rows):
        s.append(f'<text x="{x(i)}" y="{H - B + 18}" text-anchor="middle">gen {r["generation"]}</text>')
        # Long labels wrap to the column's width (about 6.5 pixels a character at 11 px).
        for k, line in enumerate(textwrap.wrap(r["label"], int(COLUMN / 6.5) - 1)):
            s.append(f'<text x="{x(i)}" y="{H - B + 32 + 12 * k}" text-anchor="middle" '
                     f'font-size="11">{line}</text>')
    ref = 0.63
    s.append(f'<line x1="{L}" x2="{width - R}" y1="{y(ref)}" y2="{y(ref)}" stroke="#1f5fa8" '
             f'stroke-dasharray="6 4" opacity="0.6"/>')
    # Left, where the early generations sit well below the line: the
    # right end is where the newest points reach it.
    s.append(f'<text x="{L + 4}" y="{y(ref) - 5}" text-anchor="start" fill="#1f5fa8">'
             f'GNU Backgammon 0-ply against pubeval (+0.63)</text>')
    series = [("pubeval", "against pubeval", "#1f5fa8"), ("gnubg0", "against GNU Backgammon 0-ply", "#c33")]
    for k, (key, name, colour) in enumerate(series):
        pts = [(i, float(r[key + "_ppg"]), float(r[key + "_ci"]))
               for i, r in enumerate(rows) if r[key + "_ppg"]]
        for i, p, ci in pts:
            s.append(f'<line x1="{x(i)}" x2="{x(i)}" y1="{y(p - ci)}" y2="{y(p + ci)}" '
                     f'stroke="{colour}" stroke-width="2" opacity="0.5"/>')
            s.append(f'<circle cx="{x(i):.1f}" cy="{y(p):.1f}" r="4" fill="{colour}"/>')
            s.append(f'<text x="{x(i) + 8:.1f}" y="{y(p) - 6:.1f}" fill="{colour}">{p:+.3f}</text>')
        line = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p, _ in pts)
        s.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        s.append(f'<text x="{L + 10}" y="{T + 20 + 18 * k}" fill="{colour}">{name}</text>')
    s.append(f'<text transform="translate(20,{(T + H - B) / 2}) rotate(-90)" '
             f'text-anchor="middle">points per game</text>')
    s.append(f'<rect x="{L}" y="{T}" width="{width - L - R}" height="{H - T - B}" fill="none" stroke="#333"/>')
    s.append("</svg>")
    return "\n".join(s), width


def draw(rows, title):
    xmax = max(g for g, *_ in rows) or 1
    ymin, ymax = -2.6, 1.0
    x = lambda g: L + (W - L - R) * g / xmax
    y = lambda v: T + (H - T - B) * (ymax - v) / (ymax - ymin)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="DejaVu Sans, sans-serif" font-size="13">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="28" text-anchor="middle" font-size="15">{title}</text>']
    v = ymin
    while v <= ymax + 1e-9:
        s.append(f'<line x1="{L}" x2="{W - R}" y1="{y(v)}" y2="{y(v)}" stroke="#ddd"/>')
        s.append(f'<text x="{L - 8}" y="{y(v) + 4}" text-anchor="end">{v:+.1f}</text>')
        v = round(v + 0.4, 6)
    step = 250_000 if xmax > 600_000 else 100_000
    g = 0
    while g <= xmax:
        s.append(f'<line y1="{T}" y2="{H - B}" x1="{x(g)}" x2="{x(g)}" stroke="#eee"/>')
        s.append(f'<text x="{x(g)}" y="{H - B + 18}" text-anchor="middle">{g / 1e6:.2f} M</text>')
        g += step
    s.append(f'<text x="{(L + W - R) / 2}" y="{H - 22}" text-anchor="middle">self-play games '
             f'(CPU time: {rows[-1][3] / 60:.0f} min on one core)</text>')
    s.append(f'<text transform="translate(20,{(T + H - B) / 2}) rotate(-90)" '
             f'text-anchor="middle">points per game vs pubeval (95% interval)</text>')
    for v, label, colour in [(0.0, "even", "#888"), (0.63, "gnubg 0-ply vs pubeval (+0.63)", "#c33")]:
        s.append(f'<line x1="{L}" x2="{W - R}" y1="{y(v)}" y2="{y(v)}" stroke="{colour}" '
                 f'stroke-dasharray="6 4"/>')
        s.append(f'<text x="{W - R - 4}" y="{y(v) - 5}" text-anchor="end" fill="{colour}">{label}</text>')
    for g, p, ci, _ in rows:
        s.append(f'<line x1="{x(g)}" x2="{x(g)}" y1="{y(p - ci)}" y2="{y(p + ci)}" stroke="#7aa6d6"/>')
    pts = " ".join(f"{x(g):.1f},{y(p):.1f}" for g, p, _, _ in rows)
    s.append(f'<polyline points="{pts}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    for g, p, _, _ in rows:
        s.append(f'<circle cx="{x(g):.1f}" cy="{y(p):.1f}" r="3" fill="#1f5fa8"/>')
    s.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#333"/>')
    s.append("</svg>")
    return "\n".join(s)


def render(svg_path, png_path, width=W):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("plot-curve: no chromium to render the PNG (the SVG is written)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--user-data-dir={profile}", "--hide-scrollbars",
                        f"--window-size={width},{H}", f"--screenshot={os.path.abspath(png_path)}",
                        "file://" + os.path.abspath(svg_path)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
