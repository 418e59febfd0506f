#!/usr/bin/env python3
"""Measures how far the head sways at the stride rate while people walk or run, in imu-trace v1 recordings
with a known mount. The cohort's walking and running rows (`CohortMotions`) take their yaw and roll sway from
what this prints, so that the cohort is drawn from real people and not from the detector's own model.

For each recording, the middle 60 % (steady gait, no start or stop) is taken. The step rate is the highest
peak of the vertical acceleration's spectrum between 1.2 and 3.5 Hz (heel strikes); the stride rate is half of
it. Yaw and roll sway is the amplitude of the angular rate within 0.15 Hz of the stride rate (Hann window,
power summed over the band), turned into degrees by dividing by 2π times the stride rate; pitch rocks at the
step rate and is measured there.

Usage: scripts/gait-sway.py DIR ACTIVITY
  DIR        a directory of recordings (e.g. ../shared/data/daily/classyglass)
  ACTIVITY   a file-name ending, e.g. walking or running
Only recordings whose `# mount:` line names a mount are used (the head's axes must be known). Needs numpy.
Prints per recording the step rate and the yaw, roll and pitch sway, then the 10th, 50th and 90th percentiles."""
import glob, importlib.util, math, os, sys

import numpy as np

# The trace reader and the mount's axes are out-and-backs.py's, so both scripts read a recording the same way.
_spec = importlib.util.spec_from_file_location("out_and_backs", os.path.join(os.path.dirname(__file__), "out-and-backs.py"))
out_and_backs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(out_and_backs)


def load(path):
    """The metadata lines and the rows (t, accel xyz, gyro xyz) of an imu-trace v1 file, as an array."""
    meta, rows = out_and_backs.load(path)
    return meta, np.array([[t, *a, *g] for t, a, g in rows])


def band_amplitude(x, rate, centre, half_width):
    """Amplitude of x within centre ± half_width (Hz), from a Hann-windowed spectrum."""
    x = x - x.mean()
    w = np.hanning(len(x))
    spectrum = 2 * np.abs(np.fft.rfft(x * w)) / w.sum()
    freq = np.fft.rfftfreq(len(x), 1 / rate)
    band = (freq > centre - half_width) & (freq < centre + half_width)
    return math.sqrt(np.sum(spectrum[band] ** 2) / 1.5)  # 1.5: the Hann window's noise bandwidth in bins


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    directory, activity = sys.argv[1], sys.argv[2]
    found = []
    for path in sorted(glob.glob(os.path.join(directory, f"*_{activity}.csv"))):
        meta, rows = load(path)
        spec = meta.get("mount", "unknown").split(" ")[0]
        if spec == "unknown" or len(rows) < 1000:
            continue
        m = np.array(out_and_backs.mount_matrix(spec), dtype=float)
        rate = float(meta["rate_hz"])
        n = len(rows)
        rows = rows[int(0.2 * n):int(0.8 * n)]
        accel, gyro = rows[:, 1:4] @ m.T, np.degrees(rows[:, 4:7] @ m.T)
        vertical = accel[:, 2] - accel[:, 2].mean()
        w = np.hanning(len(vertical))
        spectrum = np.abs(np.fft.rfft(vertical * w))
        freq = np.fft.rfftfreq(len(vertical), 1 / rate)
        steps = (freq > 1.2) & (freq < 3.5)
        step_rate = freq[steps][np.argmax(spectrum[steps])]
        stride = step_rate / 2
        sway = {axis: band_amplitude(gyro[:, k], rate, stride, 0.15) / (2 * math.pi * stride)
                for axis, k in (("yaw", 2), ("roll", 0))}
        sway["pitch"] = band_amplitude(gyro[:, 1], rate, step_rate, 0.15) / (2 * math.pi * step_rate)
        found.append(sway)
        print(f"{os.path.basename(path)}: steps {step_rate:.2f} Hz, yaw sway {sway['yaw']:.1f}°, "
              f"roll sway {sway['roll']:.1f}°, pitch at the step rate {sway['pitch']:.1f}°")
    if not found:
        sys.exit(f"gait-sway: no {activity} recording with a known mount in {directory}")
    for axis in ("yaw", "roll", "pitch"):
        p10, p50, p90 = np.percentile([s[axis] for s in found], [10, 50, 90])
        print(f"{activity}, {len(found)} recordings: {axis} sway p10 {p10:.1f}°, median {p50:.1f}°, p90 {p90:.1f}°")


if __name__ == "__main__":
    main()
