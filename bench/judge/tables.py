"""The judge's tables: one per ecosystem (rows: repositories), a total, and the sheet."""

import re
import statistics

# The targets: (column, test on the value, what it says).
# "Cited and routed to the changed test with a valid command in at least 90% of commits":
# the bar is on the conjunction; cites % and routed % alone are shown for reading.
TARGETS = {
    "zero": (lambda v: v == 0, "= 0"),
    "cited+routed %": (lambda v: v >= 90, ">= 90 (>= 80 per ecosystem)"),
    "quotes %": (lambda v: v >= 85, ">= 85"),
    "false_removed": (lambda v: v == 0, "= 0"),
    "bare steps %": (lambda v: v < 5, "< 5"),
}
COLUMNS = ["commits", "with test", "zero", "cites %", "routed %", "cited+routed %", "quotes %", "false_removed",
           "bare steps %", "stage failures", "median wall s"]
SHEET = ["repo", "ecosystem", "group", "number", "commit", "subject", "scenarios", "zero",
         "cites", "routed", "routed_reason", "routed_command", "quotable", "quotes",
         "quoted_literal", "quotes_reason", "literals", "false_removed", "false_removed_reasons", "steps",
         "bare_steps", "bare_examples", "stage_failures", "wall_s", "tests", "tests_renamed"]


def pct(part, whole):
    return None if not whole else 100.0 * part / whole


def aggregate(rows):
    """The table columns over per-commit score rows (dicts with the SHEET keys)."""
    tested = [r for r in rows if r["group"] == "with-test"]
    quotable = [r for r in tested if r["quotable"]]
    steps = sum(r["steps"] for r in rows)
    walls = [r["wall_s"] for r in rows if r["wall_s"] is not None]
    return {
        "commits": len(rows),
        "with test": len(tested),
        "zero": sum(1 for r in tested if r["zero"]),
        "cites %": pct(sum(1 for r in tested if r["cites"]), len(tested)),
        "routed %": pct(sum(1 for r in tested if r["routed"]), len(tested)),
        "cited+routed %": pct(sum(1 for r in tested if r["cites"] and r["routed"]), len(tested)),
        "quotes %": pct(sum(1 for r in quotable if r["quotes"]), len(quotable)),
        "false_removed": sum(r["false_removed"] for r in rows),
        "bare steps %": pct(sum(r["bare_steps"] for r in rows), steps),
        "stage failures": sum(1 for r in rows if r["stage_failures"]),
        "median wall s": statistics.median(walls) if walls else None,
        "quotable": len(quotable),
    }


def cell(column, value, judged, per_ecosystem=False):
    if value is None:
        text = "-"
    elif isinstance(value, float):
        text = f"{value:.0f}" if column.endswith("%") else f"{value:.1f}"
    else:
        text = str(value)
    if column == "quotes %" and value is not None and "quotable" in judged:
        text += f" ({judged['quotable']})"
    if judged.get("_judge") and column in TARGETS and value is not None:
        ok = TARGETS[column][0](value)
        if column == "cited+routed %" and per_ecosystem:
            ok = value >= 80
        if not ok:
            text += " MISS"
    return text


def table(title, named_rows, total_name, total, per_ecosystem, judge_rows=False):
    """A markdown table: one row per (name, aggregate), then the total row, judged; with
    judge_rows, each row is judged too, against the per-ecosystem targets."""
    out = [f"### {title}", "", "| repository | " + " | ".join(COLUMNS) + " |",
           "|---|" + "---|" * len(COLUMNS)]
    for name, agg in named_rows:
        judged_row = dict(agg, _judge=judge_rows)
        out.append(f"| {name} | " + " | ".join(cell(c, agg[c], judged_row, True) for c in COLUMNS) + " |")
    judged = dict(total, _judge=True)
    out.append(f"| **{total_name}** | " + " | ".join(
        cell(c, total[c], judged, per_ecosystem) for c in COLUMNS) + " |")
    return out


def summary(half, ecosystems, repos, rows, notes):
    """The summary page: a table per ecosystem, then the total over all ecosystems."""
    out = [f"# The change-flow judge: half `{half}`", ""]
    out += [f"- {n}" for n in notes]
    out += ["", "Targets (issue 29): zero = 0; cited and routed (the same commit cites a changed "
            "test line and routes the changed test with a valid command) >= 90% overall and "
            ">= 80% per ecosystem (cites % and routed % alone are for reading); "
            "quotes >= 85% of quotable commits; false_removed = 0; bare steps < 5%. "
            "Percentages of the commits with a test (quotes: of those whose test holds a "
            "literal expectation, count in brackets). MISS marks a missed target.", ""]
    per_eco = []
    for eco, desc in ecosystems.items():
        names = [r.name for r in repos if r.ecosystem == eco]
        eco_rows = [r for r in rows if r["ecosystem"] == eco]
        if not eco_rows:
            continue
        named = [(n, aggregate([r for r in eco_rows if r["repo"] == n])) for n in names
                 if any(r["repo"] == n for r in eco_rows)]
        total = aggregate(eco_rows)
        per_eco.append((eco, total))
        out += table(f"{eco}: {desc}", named, eco, total, per_ecosystem=True) + [""]
    out += table("Total", per_eco, "total", aggregate(rows), per_ecosystem=False, judge_rows=True) + [""]
    renamed = [r for r in rows if r.get("tests_renamed")]
    if renamed:
        out += [f"{len(renamed)} commit(s) with a test ship only test files renamed unchanged "
                "(`tests_renamed` in the sheet): the flow reads those tests as moved. Counted "
                "in the scores above: " + ", ".join(f"{r['repo']} {r['commit'][:10]}" for r in renamed), ""]
    return "\n".join(out)


def tsv_cell(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple, set)):
        value = "; ".join(str(v) for v in value)
    if isinstance(value, float):
        value = f"{value:.2f}"
    # A tab or any line break (csv readers also split at \r) would break the row.
    return re.sub(r"[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", " ", str("" if value is None else value))


def sheet(rows):
    """The per-commit sheet: a header, then one tab-separated row per commit."""
    lines = ["\t".join(SHEET)]
    for r in rows:
        lines.append("\t".join(tsv_cell(r.get(k)) for k in SHEET))
    return "\n".join(lines) + "\n"
