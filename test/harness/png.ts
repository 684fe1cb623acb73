// Just enough PNG decoding to check a browser screenshot without an image library: the
// header, and the pixels of 8-bit RGB/RGBA images (what chromium writes), to tell a real
// rendering from a blank or broken page.
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngImage {
  readonly width: number;
  readonly height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  readonly channels: number;
  /** Unfiltered pixel rows, `width * channels` bytes each. */
  readonly pixels: Buffer;
}

/** Decodes `file`; throws saying what is wrong when it is not a PNG this can read. */
export function readPng(file: string): PngImage {
  const data = readFileSync(file);
  if (data.length < 33 || !data.subarray(0, 8).equals(signature)) throw new Error(`${file} is not a PNG`);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= data.length; ) {
    const length = data.readUInt32BE(at);
    const type = data.toString("latin1", at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [bitDepth, colorType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
        throw new Error(`${file}: only 8-bit RGB/RGBA, non-interlaced PNGs are read here`);
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === "IDAT") {
      idat.push(body);
    } else if (type === "IEND") {
      break;
    }
    at += 12 + length; // length, type, body, CRC
  }
  if (width === 0 || height === 0 || idat.length === 0) throw new Error(`${file}: no IHDR or IDAT`);
  return {
    width,
    height,
    channels,
    pixels: unfilter(inflateSync(Buffer.concat(idat)), width, height, channels),
  };
}

function unfilter(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (raw.length < height * (stride + 1)) throw new Error("PNG data is truncated");
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      let predictor: number;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`PNG row ${y} has unknown filter ${filter}`);
      }
      out[row + x] = (raw[src + x]! + predictor) & 0xff;
    }
  }
  return out;
}

export interface PngStats {
  readonly width: number;
  readonly height: number;
  /** Share of pixels that differ from the top-left one (the page background). */
  readonly inkRatio: number;
  /** Distinct RGB colours (capped at 10,000): a real page has text, lines and fills. */
  readonly colors: number;
}

export function pngStats(image: PngImage): PngStats {
  const { width, height, channels, pixels } = image;
  const bg = pixels.readUIntBE(0, 3);
  let ink = 0;
  const colors = new Set<number>();
  for (let i = 0; i < width * height * channels; i += channels) {
    const rgb = pixels.readUIntBE(i, 3);
    if (rgb !== bg) ink++;
    if (colors.size < 10_000) colors.add(rgb);
  }
  return { width, height, inkRatio: ink / (width * height), colors: colors.size };
}
