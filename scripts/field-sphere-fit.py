#!/usr/bin/env python3
"""Asks of each recording's raw magnetometer whether any fixed hard iron explains it: the question behind the
background calibration's result on the ClassyGlass glasses (it never establishes a correction there).

A correction is a fixed hard iron (and soft iron) in a uniform field: once it is removed, the field's strength
holds still however the head turns. For each recording this fits the best sphere to the raw samples (linear
least squares: |m - c|^2 = R^2, the hard iron c and the strength R) and prints how far the strength of the
samples about c still spreads (standard deviation over mean, %), beside how much of the sphere of directions
the samples cover (the learner's grid: 6 bands x 12 sectors of the direction from c, the share of those 72
regions holding 3 samples or more). A sphere is the kindest model (a soft iron adds freedom, but also needs the
directions); a patch of the sphere fits any sphere, so only the recordings that cover much of it say anything.
Where the recording's truth file gives a hard iron found another way (`magnetometer.check.hard_iron_estimate_uT`:
the ClassyGlass conversion's fit of dm/dt = -w x (m - b), which uses the gyro and not the strength), the spread
about that one is printed too, with the coverage about it.
The background calibration establishes a fit only when its residual is within 5 % and it covers 30 % of the
sphere (`MagnetometerAutoCalibration.Settings.acceptance`).

Usage: scripts/field-sphere-fit.py DIR
  DIR   a directory of imu-trace v1 recordings with a magnetometer (e.g. ../shared/data/daily/classyglass);
        the activity is the file name's last word.
Prints per activity the recordings, their coverage and spread (median and least), and for the recordings that
cover at least 30 %: how many, and their spread (least, median). Needs numpy."""
import collections, glob, json, math, os, sys

import numpy as np


def magnetometer(path):
    """The magnetometer samples (µT, sensor axes) of an imu-trace v1 file: rows whose mx cell is filled."""
    samples, columns = [], None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            cells = line.rstrip("\n").split(",")
            if columns is None:
                columns = {name: i for i, name in enumerate(cells)}
                if "mx" not in columns:
                    return np.zeros((0, 3))
                continue
            i = columns["mx"]
            if len(cells) > i + 2 and cells[i]:
                samples.append([float(cells[i]), float(cells[i + 1]), float(cells[i + 2])])
    return np.array(samples).reshape(-1, 3)


def sphere_fit(m):
    """Hard iron c and strength R of the least-squares sphere through the samples, and the spread of |m - c|."""
    a = np.column_stack([2 * m, np.ones(len(m))])
    solution, *_ = np.linalg.lstsq(a, (m * m).sum(axis=1), rcond=None)
    c = solution[:3]
    radius = np.linalg.norm(m - c, axis=1)
    return c, radius.mean(), radius.std() / radius.mean()


def coverage(m, c):
    """Share of the 72 direction regions (6 bands of elevation x 12 sectors of azimuth) with 3 samples or more."""
    d = (m - c) / np.linalg.norm(m - c, axis=1)[:, None]
    band = np.minimum(((np.arcsin(np.clip(d[:, 2], -1, 1)) + math.pi / 2) / math.pi * 6).astype(int), 5)
    sector = np.minimum(((np.arctan2(d[:, 1], d[:, 0]) + math.pi) / (2 * math.pi) * 12).astype(int), 11)
    counts = collections.Counter(zip(band, sector))
    return sum(1 for n in counts.values() if n >= 3) / 72


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    paths = sorted(glob.glob(os.path.join(sys.argv[1], "*.csv")))
    if not paths:
        sys.exit(f"field-sphere-fit: no *.csv recordings in {sys.argv[1]}")
    by_activity = collections.defaultdict(list)
    other = []
    for path in paths:
        m = magnetometer(path)
        if len(m) < 100:
            continue
        c, strength, spread = sphere_fit(m)
        parts = os.path.basename(path)[:-4].split("_")
        activity = "_".join(parts[3:]) if len(parts) > 3 else parts[-1]
        by_activity[activity].append((coverage(m, c), spread, strength))
        try:
            with open(path[:-4] + ".truth.json") as f:
                b = json.load(f)["magnetometer"]["check"]["hard_iron_estimate_uT"]
            radius = np.linalg.norm(m - np.array(b), axis=1)
            other.append((coverage(m, np.array(b)), radius.std() / radius.mean()))
        except (OSError, KeyError, TypeError, ValueError):
            pass
    print("activity          files  coverage med  spread med  spread least | covering >= 30 %: files  spread least  median")
    wide_all = []
    for activity, rows in sorted(by_activity.items()):
        cov = np.array([r[0] for r in rows]); spread = np.array([r[1] for r in rows])
        wide = spread[cov >= 0.3]
        wide_all += list(wide)
        tail = f"{len(wide):5d}  {100 * wide.min():11.1f} %  {100 * np.median(wide):5.1f} %" if len(wide) else "    0"
        print(f"{activity:16s} {len(rows):6d}  {100 * np.median(cov):10.0f} %  {100 * np.median(spread):8.1f} %"
              f"  {100 * spread.min():9.1f} %  | {tail}")
    if wide_all:
        w = np.array(wide_all)
        print(f"all recordings covering >= 30 % of the sphere: {len(w)}, spread least {100 * w.min():.1f} %, "
              f"median {100 * np.median(w):.1f} %, within 5 %: {(w <= 0.05).sum()}")
    wide = np.array([spread for cov, spread in other if cov >= 0.3])
    if len(wide):
        print(f"about the truth files' hard iron (gyro fit), recordings covering >= 30 % about it: {len(wide)}, "
              f"spread least {100 * wide.min():.1f} %, median {100 * np.median(wide):.1f} %, within 5 %: {(wide <= 0.05).sum()}")


if __name__ == "__main__":
    main()
