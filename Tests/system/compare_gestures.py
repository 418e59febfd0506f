#!/usr/bin/env python3
"""Judges the worn-recording run of Tests/system: the LED lines and the event stream against the labels.

Inputs (all times on the guest's CLOCK_MONOTONIC, from system-tool): the LED edges (`T FILE VALUE`), the stream
lines a client received (`T JSON`), and the fed segments: which truth file, when the feeder wrote the segment's
first sample and which span of the trace it fed. Scoring is the shared data's rule (data/README.md): a flash
hits a bout of its label if it rises in [t_start - 0.3 s, t_end + 1.0 s]; later flashes inside a hit bout are
neither hits nor errors; every other flash is a false detection. Prints `RESULT PASS|FAIL name -- detail` lines.
"""
import argparse
import json

HIT_BEFORE, HIT_AFTER = 0.3, 1.0
# A gesture line and its LED's rise come from the same display tick (60 Hz) or the next; 0.3 s covers the
# guest's scheduling under TCG without letting one flash stand for a gesture a whole swing later.
PAIRING_S = 0.3


def rises(edges_file, value_file):
    out, last = [], None
    for line in open(edges_file):
        t, path, value = line.split()
        if path != value_file:
            continue
        if value == "1" and last == "0":
            out.append(float(t))
        last = value
    return out


def stream_gestures(stream_file):
    out = []
    for line in open(stream_file):
        t, _, text = line.partition(" ")
        try:
            message = json.loads(text)
        except ValueError:
            continue
        if message.get("type") == "gesture":
            out.append((float(t), message.get("gesture")))
    return out


def result(ok, name, detail):
    print(f"RESULT {'PASS' if ok else 'FAIL'} {name} -- {detail}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--edges", required=True)
    p.add_argument("--stream", required=True)
    p.add_argument("--nod-line", required=True)
    p.add_argument("--shake-line", required=True)
    p.add_argument("--segment", nargs=5, action="append", required=True,
                   metavar=("NAME", "TRUTH", "START_MONO", "FROM_S", "TO_S"))
    p.add_argument("--suffix", default="")
    a = p.parse_args()
    flashes = {"nod": rises(a.edges, a.nod_line), "shake": rises(a.edges, a.shake_line)}
    for name, truth_file, start, lo, hi in a.segment:
        start, lo, hi = float(start), float(lo), float(hi)
        seg_end = start + (hi - lo) + HIT_AFTER
        truth = json.load(open(truth_file)) if truth_file != "-" else {"events": []}
        bouts = [(e["label"], start + e["t_start"] - lo, start + e["t_end"] - lo) for e in truth["events"]]
        found, false = [False] * len(bouts), []
        for label, times in flashes.items():
            for t in times:
                if not (start <= t <= seg_end):
                    continue
                hit = [i for i, (l, b0, b1) in enumerate(bouts) if l == label and b0 - HIT_BEFORE <= t <= b1 + HIT_AFTER]
                if hit:
                    # Windows of neighbouring bouts overlap (a bout's last second and the next one's start):
                    # a flash there goes to a bout not yet found, else it is one more flash in a found bout.
                    unfound = [i for i in hit if not found[i]]
                    if unfound:
                        found[unfound[0]] = True
                else:
                    false.append(f"{label} at +{t - start:.2f} s")
        labels = sorted({l for l, _, _ in bouts}) or ["none"]
        detail = (f"{sum(found)}/{len(bouts)} {'/'.join(labels)} bouts lit their LED, {len(false)} false flashes"
                  + (f" ({', '.join(false[:6])})" if false else "")
                  + f"; flashes: nod {sum(start <= t <= seg_end for t in flashes['nod'])}, "
                    f"shake {sum(start <= t <= seg_end for t in flashes['shake'])} in {hi - lo:.1f} s")
        result(all(found) and not false, f"leds-{name}{a.suffix}", detail)

    events = stream_gestures(a.stream)
    unmatched_events = [f"{g} at {t:.2f}" for t, g in events
                        if g in flashes and not any(abs(r - t) <= PAIRING_S for r in flashes[g])]
    unmatched_flashes = [f"{g} at {r:.2f}" for g, times in flashes.items() for r in times
                         if not any(e == g and abs(r - t) <= PAIRING_S for t, e in events)]
    counts = {g: sum(1 for _, e in events if e == g) for g in ("nod", "shake")}
    detail = (f"stream: {counts['nod']} nods, {counts['shake']} shakes; LEDs: {len(flashes['nod'])} nod, "
              f"{len(flashes['shake'])} shake flashes; unpaired gestures {unmatched_events[:4]}, "
              f"unpaired flashes {unmatched_flashes[:4]}")
    ok = events and not unmatched_events and not unmatched_flashes
    result(bool(ok), f"stream-matches-leds{a.suffix}", detail)


if __name__ == "__main__":
    main()
