# SPDX-License-Identifier: BSD-3-Clause
"""Turns benchmark results into docs/performance.md and its charts (docs/performance/*.svg).

    python benchmarks/report.py [RESULTS.json] [--gpu GPU.json] [--out docs/performance.md]

RESULTS defaults to benchmarks/results/<this host's label>.json (written by benchmarks/run.py,
`make bench` or `make bench-quick`), else the newest CPU results there; GPU results default to
the newest benchmarks/results/gpu-*.json (scripts/gpu-check). Every row is a speed-up of tack
against a peer measured in the same run (benchmarks/goals.toml holds the goals and the text).
Charts need matplotlib; without it the script re-runs itself with build/venv's Python, and
failing that writes the tables without charts.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import textwrap
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV_PY = os.path.join(ROOT, "build", "venv", "bin", "python")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    # (a venv's python is a link to the base interpreter: compare the prefixes, not the files)
    if os.path.exists(VENV_PY) and os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(
            os.path.dirname(VENV_PY))) and not os.environ.get("TACK_REPORT_NO_REEXEC"):
        os.environ["TACK_REPORT_NO_REEXEC"] = "1"
        os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__)] + sys.argv[1:])


# ---- ratios ------------------------------------------------------------------------------------

def is_rate(metric):
    """Counters that grow with speed (MB/s, points/s, bytes_per_second); times shrink."""
    return "/s" in metric or "per_second" in metric or metric.endswith("_per_s")


def values(rec, metric):
    """Per-repetition values of `metric` ("time" or a counter), or None."""
    if metric == "time":
        if rec.get("times"):
            return rec["times"]
        return [rec["median"]] if "median" in rec else None
    c = rec.get("counters", {})
    if metric + "_samples" in c:
        return c[metric + "_samples"]
    return [c[metric]] if metric in c else None


def spread(rec, metric):
    """(median, min, max) of a metric in one record."""
    v = values(rec, metric)
    if not v:
        return None
    if metric == "time" and "median" in rec and not rec.get("times"):
        return rec["median"], rec.get("min", rec["median"]), rec.get("max", rec["median"])
    return statistics.median(v), min(v), max(v)


def speedup(results, row):
    """(median, lo, hi) of tack's speed-up against the peer, or (None, reason)."""
    bench, peer = row["bench"], row.get("peer", row["bench"])
    if isinstance(peer, list):  # one name per GPU vendor: the one this run has
        peer = next((p for p in peer if p in results), peer[0])
    for name in (bench, peer):
        rec = results.get(name)
        if rec is None:
            return None, "not in this run"
        if "skipped" in rec:
            return None, rec["skipped"]
    tm = row.get("tack_metric", row.get("metric", "time"))
    pm = row.get("peer_metric", tm)
    tv, pv = values(results[bench], tm), values(results[peer], pm)
    if not tv or not pv:
        return None, f"no {tm} / {pm} recorded"
    rate = is_rate(tm)

    def r(t, p):
        return t / p if rate else p / t

    if len(tv) == len(pv) and len(tv) > 1:  # repetition k against repetition k
        rs = [r(t, p) for t, p in zip(tv, pv)]
        return (statistics.median(rs), min(rs), max(rs)), None
    ts, ps = spread(results[bench], tm), spread(results[peer], pm)
    med = r(ts[0], ps[0])
    lo, hi = (r(ts[1], ps[2]), r(ts[2], ps[1])) if rate else (r(ts[2], ps[1]), r(ts[1], ps[2]))
    return (med, min(lo, hi), max(lo, hi)), None


def evaluate(area, results, peers):
    """Rows of an area with their figures and verdicts."""
    rows = []
    for row in area.get("row", []):
        fig, why = speedup(results, row)
        peer = peers.get(row.get("peer_name", ""), {})
        if fig is None and isinstance(peer, dict) and "skipped" in peer:
            why = f"{row.get('peer_name')} absent: {peer['skipped']}"
        verdict = None if fig is None else ("met" if fig[0] >= row["goal"] else "missed")
        rows.append(dict(row, fig=fig, why=why, verdict=verdict))
    return rows


def evaluate_limits(area, results):
    out = []
    for lim in area.get("limit", []):
        rec = results.get(lim["bench"])
        s = spread(rec, lim.get("metric", "time")) if rec and "skipped" not in rec else None
        if s is None:
            out.append(dict(lim, fig=None, verdict=None))
            continue
        ok = s[0] <= lim["max"] if "max" in lim else s[0] >= lim["min"]
        out.append(dict(lim, fig=s, verdict="met" if ok else "missed"))
    return out


# ---- formatting -------------------------------------------------------------------------------------

def fmt_ratio(x):
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def fmt_value(x, unit):
    """An absolute figure with an SI prefix."""
    if unit == "s":
        for scale, u in ((1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
            if abs(x) >= scale:
                return f"{x / scale:.3g} {u}"
        return f"{x / 1e-9:.3g} ns"
    if unit == "":
        return f"{x:.3g}"
    for scale, p in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g} {p}{unit}"
    return f"{x:.3g} {unit}"


def verdict_md(v):
    return {"met": "met", "missed": "**missed**", None: "not measured"}[v]


def row_line(r):
    if r["fig"] is None:
        return f"| {r['what']} | – | – | ≥ {r['goal']:.2f} | not measured: {r['why']} |"
    m, lo, hi = r["fig"]
    rng = "–" if abs(hi - lo) < 1e-12 else f"{fmt_ratio(lo)}–{fmt_ratio(hi)}"
    return f"| {r['what']} | {fmt_ratio(m)} | {rng} | ≥ {r['goal']:.2f} | {verdict_md(r['verdict'])} |"


def chart(area_id, title, rows, path):
    """Horizontal bars from 1.0 (the peer's speed) to each row's median speed-up, min–max as the
    error bar, the goal as a black tick. Log scale: a speed-up and a slow-down of the same factor
    look alike."""
    rows = [r for r in rows if r["fig"]]
    if plt is None or not rows:
        return False
    from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator
    plt.rcParams["svg.hashsalt"] = "tack-" + area_id  # stable element ids: diffs show real changes
    fig, ax = plt.subplots(figsize=(10, 0.5 * len(rows) + 1.4))
    ys = list(range(len(rows)))[::-1]
    med = [r["fig"][0] for r in rows]
    err = [[m - r["fig"][1] for m, r in zip(med, rows)], [r["fig"][2] - m for m, r in zip(med, rows)]]
    colors = ["#3a7d44" if r["verdict"] == "met" else "#c0392b" for r in rows]
    ax.barh(ys, [m - 1.0 for m in med], left=1.0, xerr=None, color=colors, alpha=0.85, height=0.6)
    ax.errorbar(med, ys, xerr=err, fmt="none", ecolor="#333", capsize=2, lw=0.8)
    for y, r in zip(ys, rows):
        ax.plot([r["goal"], r["goal"]], [y - 0.4, y + 0.4], color="black", lw=2.5)
    ax.axvline(1.0, color="#555", ls="--", lw=1)
    ax.set_xscale("log")
    lo = min(min(r["fig"][1] for r in rows), min(r["goal"] for r in rows), 1.0) / 1.25
    hi = max(max(r["fig"][2] for r in rows), max(r["goal"] for r in rows), 1.0) * 1.25
    ax.set_xlim(lo, hi)
    ticks = [t for t in (0.02, 0.05, 0.1, 0.2, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10, 20, 50) if lo <= t <= hi]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.set_xticklabels([f"{t:g}×" for t in ticks])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(ys)
    ax.set_yticklabels([textwrap.fill(r["what"].replace("`", ""), 60) for r in rows], fontsize=8)
    ax.set_xlabel("speed-up = peer time / tack time (> 1: tack faster); black tick: goal; "
                  "green: met, red: missed", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return True


def short(text, n=58):
    t = text.replace("`", "")
    return t if len(t) <= n else t[: n - 1] + "…"


# ---- the document -----------------------------------------------------------------------------------

def busy_note(results, row):
    """What the CPU-time counters say when the timed thread did not have a CPU to itself."""
    shares = [(n, results.get(row.get(k, row["bench"]), {}).get("cpu_share")) for n, k in
              (("tack", "bench"), ("the peer", "peer"))]
    low = [f"{n} {100 * v:.0f} %" for n, v in shares if isinstance(v, (int, float)) and v < 0.8]
    return (f"Busy machine: the timed thread had {', '.join(low)} of a CPU (median CPU time / wall "
            "time)." if low else "")


def machine_line(m, res):
    isa = ", ".join(m.get("vector_isa") or []) or "no AVX2"
    return (f"{m['cpu']} (family {m.get('cpu_family')} model {m.get('cpu_model')}; {isa}), "
            f"{m['cores']} logical CPUs, L3 {m.get('l3') or '?'}; threads: {res.get('threads', '?')} by "
            f"default, 1 and 2 where a row says so; {m['compiler']} ({m.get('cxx_flags') or 'default flags'}"
            f"{', -march=' + m['bench_march'] if m.get('bench_march') else ''}); "
            f"tack {m['tack_version']} at commit {m['commit']}{' (with local changes)' if m.get('dirty') else ''}; "
            f"{m['date']}")


def load_text(res):
    b, a = res.get("load_before", []), res.get("load_after", [])
    per = "; ".join(f"{k} {s.get('load_before', ['?'])[0]}→{s.get('load_after', ['?'])[0]}"
                    for k, s in res.get("suites", {}).items())
    return (f"Load average (1 min) {b[0] if b else '?'} before the run and {a[0] if a else '?'} "
            f"after it, on {res['machine']['cores']} logical CPUs; per suite: {per}.")


def peers_table(peers, results_rows):
    used = {}
    for r in results_rows:
        if r.get("peer_name"):
            used.setdefault(r["peer_name"], []).append(r)
    lines = ["| peer | version / source | rows |", "|---|---|---|"]
    for name, p in sorted(peers.items()):
        if name in ("python", "tack_python", "google_benchmark"):
            continue
        rows = used.get(name, [])
        n = sum(1 for r in rows if r["fig"] is not None)
        if isinstance(p, dict) and "skipped" in p:
            lines.append(f"| {name} | skipped: {p['skipped']} | 0 of {len(rows)} |")
        else:
            v = p.get("version") if isinstance(p, dict) else p
            src = p.get("source", "") if isinstance(p, dict) else ""
            lines.append(f"| {name} | {v}{'; ' + src if src else ''} | {n} of {len(rows)} |")
    return lines


def newest(pattern, exclude=None):
    files = [f for f in glob.glob(pattern) if not (exclude and os.path.basename(f).startswith(exclude))]
    return max(files, key=os.path.getmtime) if files else None


def default_results():
    sys.path.insert(0, HERE)
    from run import host_label, lscpu  # the label run.py gives this machine
    mine = os.path.join(HERE, "results", host_label(lscpu()) + ".json")
    return mine if os.path.exists(mine) else newest(os.path.join(HERE, "results", "*.json"), "gpu-")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="?")
    ap.add_argument("--gpu")
    ap.add_argument("--goals", default=os.path.join(HERE, "goals.toml"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    args = ap.parse_args()
    path = args.results or default_results()
    if not path:
        sys.exit("report.py: no results: run `make bench-quick` (or benchmarks/run.py) first")
    with open(path) as f:
        res = json.load(f)
    with open(args.goals, "rb") as f:
        goals = tomllib.load(f)
    gpu_path = args.gpu or newest(os.path.join(HERE, "results", "gpu-*.json"))
    gpu = json.load(open(gpu_path)) if gpu_path else None
    out_dir = os.path.dirname(os.path.abspath(args.out))
    chart_dir = os.path.join(out_dir, "performance")
    rel = lambda p: os.path.relpath(p, ROOT)
    m = res["machine"]
    results, peers = res["benchmarks"], res.get("peers", {})

    areas = [(a, evaluate(a, results, peers), evaluate_limits(a, results)) for a in goals["area"]]
    all_rows = [r for _, rows, _ in areas for r in rows]
    missed = [(a, r) for a, rows, _ in areas for r in rows if r["verdict"] == "missed"]
    missed += [(a, dict(l, goal=None)) for a, _, lims in areas for l in lims if l["verdict"] == "missed"]
    counts = {v: sum(1 for r in all_rows if r["verdict"] == v) for v in ("met", "missed", None)}

    md = ["# Performance", "",
          f"<!-- Generated by benchmarks/report.py from {rel(path)} and benchmarks/goals.toml: "
          "edit those, not this file. -->", ""]
    md += [goals["report"]["intro"].strip(), ""]
    md += [f"**Machine:** {machine_line(m, res)}. "
           f"{'`make bench-quick` (fewer repetitions, smaller sizes)' if res.get('quick') else '`make bench`'}: "
           + ", ".join(f"{k} {s.get('repetitions', '')}{' repetitions' if s.get('repetitions') else ''}"
                       f" ({s.get('seconds')} s)".replace("  ", " ")
                       for k, s in res.get("suites", {}).items()) + ". " + load_text(res), ""]
    md += [f"**{len(all_rows)} rows: {counts['met']} met, {counts['missed']} missed, "
           f"{counts[None]} not measured.** Speed-up = the peer's time / tack's time (or tack's rate / "
           "the peer's rate), the median over repetitions paired in the same run, with the least "
           "and the greatest beside it; > 1 means tack is faster.", ""]

    md += ["## Goals missed in this run", ""]
    if not missed:
        md += ["None.", ""]
    else:
        md += ["| area | row | speed-up (median, min–max) | goal | what is known |", "|---|---|---|---|---|"]
        for a, r in missed:
            if r.get("goal") is None:  # an absolute limit
                lim = f"≤ {fmt_value(r['max'], r['unit'])}" if "max" in r else f"≥ {fmt_value(r['min'], r['unit'])}"
                md.append(f"| {a['title']} | {r['what']} | {fmt_value(r['fig'][0], r['unit'])} | {lim} | "
                          f"{r.get('note', '').strip() or '–'} |")
                continue
            f = r["fig"]
            known = " ".join(r.get("note", "").split())
            busy = busy_note(results, r)
            md.append(f"| {a['title']} | {r['what']} | {fmt_ratio(f[0])} ({fmt_ratio(f[1])}–{fmt_ratio(f[2])}) "
                      f"| ≥ {r['goal']:.2f} | {' '.join(x for x in (busy, known) if x) or '–'} |")
        md.append("")

    md += ["## Peers", ""] + peers_table(peers, all_rows) + [""]

    for a, rows, lims in areas:
        md += [f"## {a['title']}", "", " ".join(a["text"].split()), ""]
        svg = os.path.join(chart_dir, a["id"] + ".svg")
        if chart(a["id"], a["title"], rows, svg):
            md += [f"![{a['title']}: speed-up against each peer, with the goal]"
                   f"({os.path.relpath(svg, out_dir)})", ""]
        md += ["| row | speed-up | min–max | goal | verdict |", "|---|---|---|---|---|"]
        md += [row_line(r) for r in rows] + [""]
        if lims:
            md += ["Absolute figures (these depend on the machine):", "",
                   "| figure | median | goal | verdict |", "|---|---|---|---|"]
            for l in lims:
                goal = f"≤ {fmt_value(l['max'], l['unit'])}" if "max" in l else f"≥ {fmt_value(l['min'], l['unit'])}"
                val = fmt_value(l["fig"][0], l["unit"]) if l["fig"] else "–"
                md.append(f"| {l['what']} | {val} | {goal} | {verdict_md(l['verdict'])} |")
            md.append("")

    g = goals["gpu"][0]
    md += ["## GPU", "", " ".join(g["text"].split()), ""]
    if not gpu:
        md += ["tack has not run on a GPU yet: no benchmarks/results/gpu-*.json.", ""]
    else:
        gm = gpu["machine"]
        md += [f"**GPU:** {gm.get('gpu', '?')}, {gm.get('cuda') or gm.get('hip', '')}; host {gm['cpu']}; commit "
               f"{gm['commit']}; {gm['date']}.", ""]
        grows = evaluate(g, gpu["benchmarks"], {})
        if chart("gpu", "GPU", grows, os.path.join(chart_dir, "gpu.svg")):
            md += ["![GPU: speed-up against the vendor's copies and primitives and bare launches]"
                   "(performance/gpu.svg)", ""]
        md += ["| row | speed-up | min–max | goal | verdict |", "|---|---|---|---|---|"]
        md += [row_line(r) for r in grows] + [""]
    md += ["## Running the benchmarks", "", " ".join(goals["report"]["running"].split()), ""]

    with open(args.out, "w") as f:
        f.write("\n".join(md).rstrip() + "\n")
    print(f"report.py: {rel(args.out)} from {rel(path)}: {len(all_rows)} rows, {counts['met']} met, "
          f"{counts['missed']} missed, {counts[None]} not measured"
          + ("" if plt else " (no matplotlib: no charts)"))


if __name__ == "__main__":
    main()
