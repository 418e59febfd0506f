/// The page's HTML: the panels, filled by view.js from the event stream. No inline script or style (the CSP
/// forbids both), nothing from another origin.
enum PageHTML {
    static let text: StaticString = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>headtrack view</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/view.css">
<script src="/view.js" defer></script>
</head>
<body>
<header>
  <h1>headtrack <span class="thin">view</span></h1>
  <span id="source">connecting to the view…</span>
  <span id="badge" class="badge stale" data-stale="true">STALE</span>
  <span id="badge-detail"></span>
</header>
<main>
  <section id="head-panel" class="panel">
    <h2>Head <span class="hint">its axes x forward, y left, z up · seen from west-south-west, north is to the left</span></h2>
    <canvas id="head" width="520" height="380" aria-label="the head in 3D"></canvas>
    <div class="numbers">
      <div><span class="label">heading</span> <span id="heading-value">--</span></div>
      <div><span class="label">pitch</span> <span id="pitch-value">--</span> <span class="hint">+ = looking down</span></div>
      <div><span class="label">roll</span> <span id="roll-value">--</span> <span class="hint">+ = right ear down</span></div>
      <div><span class="label">t</span> <span id="t-value">--</span></div>
    </div>
  </section>
  <section id="compass-panel" class="panel">
    <h2>Heading <span class="hint">and the north LED's sector</span></h2>
    <canvas id="compass" width="260" height="260" aria-label="compass"></canvas>
    <p id="heading-note" class="note"></p>
    <h2>LEDs</h2>
    <ul id="leds" class="leds" data-t="">
      <li data-led="nod" data-on="false"><span class="lamp"></span>nod</li>
      <li data-led="shake" data-on="false"><span class="lamp"></span>shake</li>
      <li data-led="north" data-on="false"><span class="lamp"></span>north</li>
      <li data-led="up" data-on="false"><span class="lamp"></span>up</li>
      <li data-led="down" data-on="false"><span class="lamp"></span>down</li>
      <li data-led="left" data-on="false"><span class="lamp"></span>left</li>
      <li data-led="right" data-on="false"><span class="lamp"></span>right</li>
      <li data-led="status" data-on="false"><span class="lamp"></span>status</li>
    </ul>
  </section>
  <section id="events-panel" class="panel">
    <h2>Gestures <span class="hint">newest first</span></h2>
    <ol id="gestures" class="log"><li class="empty">none yet</li></ol>
    <h2>Faults</h2>
    <p id="fault-now" class="note">none</p>
    <ol id="faults" class="log"></ol>
    <h2>Stream</h2>
    <dl id="stream-figures" class="figures"></dl>
  </section>
  <section id="plot-panel" class="panel wide">
    <h2>Head rates, last 10 s <span class="hint">°/s · <span class="key roll">roll (x)</span> <span class="key pitch">pitch (y)</span> <span class="key yaw">yaw (z)</span> · gestures marked from their start to where they were reported</span></h2>
    <canvas id="plot" width="1000" height="240" aria-label="rates plot"></canvas>
  </section>
  <section id="calibration-panel" class="panel wide">
    <h2>Magnetometer calibration <span class="hint">samples on the fitted sphere, turning slowly · cells <span class="key met">covered</span> <span class="key some">too few samples</span></span></h2>
    <div class="side-by-side">
      <canvas id="sphere" width="340" height="340" aria-label="calibration samples on the sphere"></canvas>
      <div>
        <p id="calibration-note" class="note">no calibration in this stream</p>
        <dl id="calibration-figures" class="figures"></dl>
      </div>
    </div>
  </section>
</main>
</body>
</html>
"""#
}
