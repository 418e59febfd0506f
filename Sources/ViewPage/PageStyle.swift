/// The page's style sheet.
enum PageStyle {
    static let text: StaticString = #"""
:root {
  --bg: #101418; --panel: #1a2027; --line: #2c3540; --text: #e4e9ee; --dim: #8a97a5;
  --roll: #ff6b6b; --pitch: #4dd4ac; --yaw: #6aa8ff; --good: #39d353; --warn: #f0b429; --bad: #ff5c5c;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.4 system-ui, sans-serif; }
header { display: flex; align-items: baseline; gap: 16px; padding: 10px 16px; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0; white-space: nowrap; }
h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; letter-spacing: .05em; color: var(--dim); }
.thin { font-weight: 300; }
.hint { text-transform: none; letter-spacing: 0; font-weight: normal; color: var(--dim); font-size: 12px; }
#source { color: var(--dim); }
.badge { padding: 2px 10px; border-radius: 10px; font-weight: 700; font-size: 13px; }
.badge.live { background: #15391f; color: var(--good); }
.badge.stale { background: #4a1717; color: var(--bad); }
#badge-detail { color: var(--dim); font-size: 12px; }
main { display: grid; grid-template-columns: minmax(420px, 540px) 300px minmax(280px, 1fr); gap: 12px; padding: 12px 16px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; min-width: 0; }
.panel.wide { grid-column: 1 / -1; }
body.stale .panel { opacity: .55; }
canvas { display: block; max-width: 100%; height: auto; }
.numbers { display: grid; grid-template-columns: 1fr 1fr; gap: 2px 16px; margin-top: 6px; font-variant-numeric: tabular-nums; }
.label { color: var(--dim); display: inline-block; min-width: 56px; }
.note { margin: 6px 0; color: var(--dim); }
.leds { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(4, 1fr); gap: 6px; }
.leds li { display: flex; flex-direction: column; align-items: center; font-size: 12px; color: var(--dim); }
.lamp { width: 22px; height: 22px; border-radius: 50%; background: #27303a; border: 2px solid #3a4652; margin-bottom: 2px; }
.leds li[data-on="true"] { color: var(--text); }
.leds li[data-on="true"] .lamp { border-color: #fff8; box-shadow: 0 0 12px 2px currentColor; }
.leds li[data-led="nod"][data-on="true"] .lamp { background: var(--good); color: var(--good); }
.leds li[data-led="shake"][data-on="true"] .lamp { background: var(--bad); color: var(--bad); }
.leds li[data-led="north"][data-on="true"] .lamp { background: #4d9fff; color: #4d9fff; }
.leds li[data-led="up"][data-on="true"] .lamp, .leds li[data-led="down"][data-on="true"] .lamp,
.leds li[data-led="left"][data-on="true"] .lamp, .leds li[data-led="right"][data-on="true"] .lamp { background: var(--warn); color: var(--warn); }
.leds li[data-led="status"][data-on="true"] .lamp { background: #f4f4f4; color: #f4f4f4; }
.log { margin: 0 0 8px; padding-left: 20px; font-variant-numeric: tabular-nums; }
.log li { margin: 1px 0; }
.log li.empty { list-style: none; margin-left: -20px; color: var(--dim); }
.log .kind { font-weight: 700; }
.log li[data-gesture="nod"] .kind { color: var(--good); }
.log li[data-gesture="shake"] .kind { color: var(--bad); }
.log li.active .kind { color: var(--bad); }
.figures { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 6px 0 0; font-variant-numeric: tabular-nums; }
.figures dt { color: var(--dim); }
.figures dd { margin: 0; }
.figures dd.short { color: var(--warn); }
.figures dd.met { color: var(--good); }
.key::before { content: ""; display: inline-block; width: 14px; height: 3px; margin: 0 4px 3px 6px; vertical-align: middle; }
.key.roll::before { background: var(--roll); }
.key.pitch::before { background: var(--pitch); }
.key.yaw::before { background: var(--yaw); }
.key.met::before { background: rgba(57,211,83,0.7); height: 10px; }
.key.some::before { background: rgba(240,180,41,0.6); height: 10px; }
.side-by-side { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
.side-by-side > div { flex: 1; min-width: 260px; max-width: 640px; }
"""#
}
