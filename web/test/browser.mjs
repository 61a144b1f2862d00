// The browser test: the web build in Debian's headless Chromium, driven like a person would.
//
//   node web/test/browser.mjs [dist/web]
//
// Serves the built folder on 127.0.0.1, opens it with `?test_hook` (the app then writes where
// things are on screen to `window.pathfinderState`, as the desktop hook writes a file), and
// checks by the pixels of screenshots: the green path appears between the markers; a real mouse
// drag of the goal changes it; a click on "Show grid" removes the grid; a wall painted on the
// path re-routes it; a file chosen with the panel's "Choose a file..." opens; a malformed one
// gets a message and the map stays; Save downloads a .map file; the graph lab runs Romania to
// its end; 50 agents of a MAPF scenario are solved and played; and the page logs no panic or
// error. Screenshots go to target/web-e2e/.
// Chromium is Debian's (/usr/bin/chromium): nothing here downloads a browser.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodePng, count, differences, around } from "./pixels.mjs";

const dist = process.argv[2] ?? "dist/web";
const shots = "target/web-e2e";
const PANEL_RIGHT = 300;
const mapArea = (img) => ({ x0: PANEL_RIGHT + 2, y0: 0, x1: img.width, y1: img.height });
const PATH_GREEN = [25, 242, 51]; // view::palette::PATH
const GRID_ON_ROAD = [179, 174, 164]; // a grid line over road, as drawn (tests/e2e/harness.rs)
const began = Date.now();
const seconds = () => ((Date.now() - began) / 1000).toFixed(1);

// ---- the hook's text, as tests/e2e/harness.rs reads it ----
function parseState(text) {
  const s = { widgets: {} };
  for (const line of (text ?? "").split("\n")) {
    const [key, ...rest] = line.trim().split(/\s+/);
    const nums = rest.map(Number);
    if (key === "frame") s.frame = nums[0];
    else if (key === "map") Object.assign(s, { map: rest[0], size: [nums[1], nums[2]] });
    else if (key === "notice") s.notice = rest.join(" ");
    else if (key === "start" || key === "goal") s[key] = [nums[0], nums[1]];
    else if (key === "cell") s.cell = (x, y) => [nums[0] + x * nums[2], nums[1] + y * nums[2]];
    else if (key === "plan") Object.assign(s, { status: rest[0], plans: nums[1], length: nums[2], end: [nums[3], nums[4]] });
    else if (key === "path") s.path = nums.flatMap((v, i) => (i % 2 ? [] : [[v, nums[i + 1]]]));
    else if (key === "obstacles") s.obstacles = nums[0];
    else if (key === "widget") s.widgets[rest[0]] = [nums[1], nums[2]];
    else if (key === "lab") Object.assign(s, { lab: rest[0], labRows: nums[1], labLast: rest.slice(2).join(" ") });
    else if (key === "mapf") s.mapf = { agents: nums[0], time: nums[1], last: nums[2] };
  }
  return s.frame ? s : null;
}

// ---- serve, launch, check ----
const port = 8000 + Math.floor(Math.random() * 1000);
const server = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "-d", dist], { stdio: "ignore" });
const profile = mkdtempSync(join(tmpdir(), "pathfinder-chromium-"));
mkdirSync(shots, { recursive: true });
let context;
const faults = [];
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};

try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => {
    if (process.env.BROWSER_LOG) console.log(`  console ${m.type()}: ${m.text()}`);
    if (m.type() === "error" || /panicked/.test(m.text())) faults.push(m.text());
  });
  page.on("pageerror", (e) => faults.push(String(e)));
  let n = 0;
  const shot = async (name) => {
    const frame = (await state()).frame;
    await page.waitForFunction((f) => Number(/frame (\d+)/.exec(window.pathfinderState)?.[1]) >= f + 3, frame, { timeout: 60000 });
    const buf = await page.screenshot();
    writeFileSync(join(shots, `${String(++n).padStart(2, "0")}-${name}.png`), buf);
    return decodePng(buf);
  };
  const state = async () => parseState(await page.evaluate(() => window.pathfinderState));
  const waitFor = async (what, test, timeout = 30000) => {
    const until = Date.now() + timeout;
    for (;;) {
      const s = await state();
      if (s && test(s)) return s;
      if (Date.now() > until) throw new Error(`no ${what} after ${timeout} ms; last state ${JSON.stringify(s)}`);
      await page.waitForTimeout(100);
    }
  };
  // A click as a hand makes it: over the button first, then press and release. (egui may
  // miss a press that arrives in the same frame as the move onto its button.)
  const press = async ([x, y]) => {
    await page.mouse.move(x, y);
    await page.waitForTimeout(300);
    await page.mouse.down();
    await page.waitForTimeout(150);
    await page.mouse.up();
  };
  const drag = async (points) => {
    await page.mouse.move(...points[0]);
    await page.mouse.down();
    for (const p of points.slice(1)) { await page.waitForTimeout(120); await page.mouse.move(...p, { steps: 4 }); }
    await page.waitForTimeout(120);
    await page.mouse.up();
  };

  await page.goto(`http://127.0.0.1:${port}/index.html?test_hook`);
  await waitFor("first path", (s) => s.status === "Found" && s.widgets.show_grid, 180000);
  console.log(`first path drawn ${seconds()} s after the page was opened`);
  // The camera frames the map in the first frames: read where things are once it has.
  await page.waitForTimeout(1000);

  // 1. The green path, between the markers.
  const start = await shot("start-up");
  const first = await state();
  const green = count(start, mapArea(start), PATH_GREEN, 30);
  check(green > 400, `the green path is on screen (${green} pixels)`);
  const nearStart = count(start, around(first.start, 22), PATH_GREEN, 30);
  const nearGoal = count(start, around(first.goal, 22), PATH_GREEN, 30);
  check(nearStart > 5 && nearGoal > 5, `it runs from the start to the goal (${nearStart}, ${nearGoal} pixels beside them)`);

  // 2. A real mouse drag of the goal, five cells down, changes the path.
  const to = first.cell(first.end[0], first.end[1] + 5);
  await drag([first.goal, to]);
  const moved = await waitFor("moved goal's path", (s) => s.status === "Found" && s.end[1] === first.end[1] + 5 && s.plans > first.plans, 15000);
  const after = await shot("goal-dragged");
  const changed = differences(start, after, mapArea(after), 40);
  check(changed > 300, `dragging the goal changed the path on screen (${changed} pixels)`);

  // 3. "Show grid" off removes the grid lines; on brings them back.
  const gridOn = count(after, mapArea(after), GRID_ON_ROAD, 10);
  await page.mouse.click(...moved.widgets.show_grid);
  const off = await shot("grid-off");
  const gridOff = count(off, mapArea(off), GRID_ON_ROAD, 10);
  check(gridOff * 4 < gridOn, `Show grid off removes the grid (${gridOn} → ${gridOff} grid pixels)`);
  await page.mouse.click(...moved.widgets.show_grid);
  const back = await shot("grid-back");
  const gridBack = count(back, mapArea(back), GRID_ON_ROAD, 10);
  check(gridBack * 2 > gridOn, `and on again brings it back (${gridBack} grid pixels)`);

  // 4. A wall painted on the path re-routes it: on the cell nearest its middle that it enters
  // and leaves diagonally (so, in the open: a diagonal step means both corners are free).
  const before = await state();
  const diagonal = (a, b) => a[0] !== b[0] && a[1] !== b[1];
  const p = before.path;
  const inner = p.map((c, i) => i).filter((i) => i > 0 && i + 1 < p.length && diagonal(p[i - 1], p[i]) && diagonal(p[i], p[i + 1]));
  const pick = inner.sort((a, b) => Math.abs(a - p.length / 2) - Math.abs(b - p.length / 2))[0] ?? p.length >> 1;
  const [mx, my] = p[pick];
  const at = before.cell(mx, my);
  await drag([at, [at[0] + 1, at[1]]]);
  const rerouted = await waitFor("re-routed path", (s) => s.obstacles === before.obstacles + 1 && s.plans > before.plans, 15000);
  const walled = await shot("wall-on-the-path");
  check(rerouted.status === "Found", `the path goes around the new wall (${rerouted.status}, ${before.length} → ${rerouted.length} cells)`);
  const onWall = count(walled, around(at, 4), PATH_GREEN, 30);
  check(onWall === 0, `no green on the walled cell (${onWall} pixels)`);

  // 5. A map opened with the panel's "Choose a file..." (the page's own file picker).
  const corridor = ["type octile", "height 9", "width 24", "map",
    ...Array.from({ length: 9 }, (_, y) => (y === 4 ? "@".repeat(10) + "." + "@".repeat(13) : ".".repeat(24)))].join("\n") + "\n";
  await press(rerouted.widgets.map_section);
  const opened = await waitFor("Map section open", (s) => s.widgets.map_choose && s.widgets.map_save, 10000);
  await shot("map-section-open");
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser", { timeout: 10000 }),
    press(opened.widgets.map_choose),
  ]);
  await chooser.setFiles({ name: "corridor.map", mimeType: "text/plain", buffer: Buffer.from(corridor) });
  const loaded = await waitFor("the chosen map", (s) => s.map === "corridor.map" && s.plans > 0 && s.status !== undefined, 20000);
  await shot("file-chosen");
  check(loaded.size[0] === 24 && loaded.size[1] === 9, `the chosen file opens (${loaded.map}, ${loaded.size.join("×")})`);

  // 6. A malformed file gets a message, and the map on screen stays.
  await page.setInputFiles("#map-file", { name: "broken.map", mimeType: "text/plain", buffer: Buffer.from("type octile\nheight many\n") });
  const refused = await waitFor("a notice about the broken file", (s) => /broken\.map/.test(s.notice ?? ""), 10000);
  await shot("broken-file");
  check(refused.map === "corridor.map", `a malformed file is refused with a message ("${refused.notice}"), the map stays`);

  // 7. Save downloads the map as a .map file that reads back the same size.
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 10000 }),
    press(refused.widgets.map_save),
  ]);
  const saved = join(profile, "saved.map");
  await download.saveAs(saved);
  const text = readFileSync(saved, "utf8");
  check(/\.map$/.test(download.suggestedFilename()) && /height 9/.test(text) && /width 24/.test(text),
    `Save downloads ${download.suggestedFilename()} (${text.length} bytes, 24×9)`);

  // 8. The graph lab: Romania's A* run to the end stops at Bucharest with g 418.
  await press(refused.widgets.lab_toggle);
  const lab = await waitFor("the graph lab", (s) => s.lab === "open" && s.widgets.lab_run, 10000);
  await press(lab.widgets.lab_run);
  const ran = await waitFor("the lab's trace", (s) => s.labRows > 0, 10000);
  await shot("graph-lab");
  check(/Bucharest/.test(ran.labLast) && /418/.test(ran.labLast), `the graph lab runs Romania to Bucharest at 418 ("${ran.labLast.slice(0, 40)}...")`);
  await press(ran.widgets.lab_toggle);

  // 9. Many agents: 50 agents of the benchmark's scenario, solved in the page and played.
  await page.goto(`http://127.0.0.1:${port}/index.html?test_hook&map=random-32-32-10&mapf=50:scen`);
  const played = await waitFor("the multi-agent plan playing", (s) => s.mapf && s.mapf.time > 1, 60000);
  await shot("mapf");
  check(played.mapf.agents === 50 && played.mapf.last >= 53, `50 agents solved and playing (step ${played.mapf.time.toFixed(1)} of ${played.mapf.last})`);

  // 10. No panic, no error in the page's console.
  check(faults.length === 0, `the page logged no error${faults.length ? ":\n  " + faults.join("\n  ") : ""}`);
} catch (e) {
  check(false, String(e?.stack ?? e));
} finally {
  await context?.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`browser test ${failed ? "FAILED" : "passed"} in ${seconds()} s; screenshots in ${shots}/`);
process.exit(failed ? 1 : 0);
