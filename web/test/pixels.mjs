// Screenshots as pixels: a PNG decoder (8-bit RGB or RGBA, not interlaced: what Chromium's
// screenshots are) and the counts the browser test checks, as tests/e2e/harness.rs does.
import { inflateSync } from "node:zlib";

export function decodePng(buf) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("ascii", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = { 2: 3, 6: 4 }[data[9]];
      if (data[8] !== 8 || !channels || data[12] !== 0) throw new Error("unexpected PNG format");
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = Buffer.alloc(width * height * 3);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0, b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      line[i] = (line[i] + [0, a, b, (a + b) >> 1, paeth][filter]) & 255;
    }
    for (let x = 0; x < width; x++) line.copy(px, (y * width + x) * 3, x * channels, x * channels + 3);
    prev = line;
  }
  return { width, height, px };
}

const near = (p, q, tol) => Math.abs(p[0] - q[0]) <= tol && Math.abs(p[1] - q[1]) <= tol && Math.abs(p[2] - q[2]) <= tol;
const pixel = (img, x, y) => { const i = (y * img.width + x) * 3; return [img.px[i], img.px[i + 1], img.px[i + 2]]; };
export function count(img, area, color, tol) {
  let n = 0;
  for (let y = area.y0; y < area.y1; y++) for (let x = area.x0; x < area.x1; x++) if (near(pixel(img, x, y), color, tol)) n++;
  return n;
}
export function differences(a, b, area, tol) {
  let n = 0;
  for (let y = area.y0; y < area.y1; y++) for (let x = area.x0; x < area.x1; x++) if (!near(pixel(a, x, y), pixel(b, x, y), tol)) n++;
  return n;
}
export const around = ([x, y], r) => ({ x0: Math.max(0, Math.round(x - r)), y0: Math.max(0, Math.round(y - r)), x1: Math.round(x + r), y1: Math.round(y + r) });

