// Brotli and gzip copies beside the files worth compressing; the server (WhiteNoise) sends
// the Brotli copy to browsers that accept `br` and the gzip copy to the others. Brotli at its
// best setting takes ~25 s for the Python runtime, so every copy is kept in a cache folder
// (git-ignored) under the hash of the file's bytes and reused while the file is unchanged.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const COMPRESSIBLE = /\.(html|js|mjs|css|json|wasm|svg|webmanifest|zip)$/;
const MIN_BYTES = 1024;
const WORTH = 0.9; // a copy is written only when it is at most this share of the file

const ENCODERS = {
  br: (bytes) => zlib.brotliCompressSync(bytes, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  } }),
  gz: (bytes) => zlib.gzipSync(bytes, { level: 9 }),
};

function cached(cacheDir, bytes, ext) {
  const key = createHash("sha256").update(bytes).digest("hex");
  const file = path.join(cacheDir, `${key}.${ext}`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const packed = ENCODERS[ext](bytes);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, packed);
  fs.renameSync(`${file}.tmp`, file);
  return packed;
}

/** Write `<file>.br` and `<file>.gz` beside each compressible file of `files` (paths relative
 * to `dir`). Returns {file: {raw, br?, gz?}} in bytes. */
export function compressCopies(dir, files, cacheDir) {
  const sizes = {};
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dir, f));
    sizes[f] = { raw: bytes.length };
    if (!COMPRESSIBLE.test(f) || bytes.length < MIN_BYTES) continue;
    for (const ext of Object.keys(ENCODERS)) {
      const packed = cached(cacheDir, bytes, ext);
      if (packed.length > WORTH * bytes.length) continue;
      fs.writeFileSync(path.join(dir, `${f}.${ext}`), packed);
      sizes[f][ext] = packed.length;
    }
  }
  return sizes;
}
