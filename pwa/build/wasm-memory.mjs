// The initial memory a WebAssembly binary declares (its memory section), in bytes.
// Pyodide's runtime defines its memory there (480 pages of 64 KiB = 30 MiB in 314.0.x) and
// restores a memory snapshot by copying it into that memory before Python can grow it: a
// snapshot whose heap is larger cannot be restored.
import fs from "node:fs";

function leb128(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, at];
  }
}

/** Bytes of the first memory the module at `file` defines; throws when it defines none. */
export function initialMemoryBytes(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.readUInt32BE(0) !== 0x0061736d) throw new Error(`${file} is not WebAssembly`);
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb128(bytes, at);
    if (id === 5) {
      let [count, p] = leb128(bytes, at);
      if (count < 1) break;
      p += 1; // limits flags
      const [pages] = leb128(bytes, p);
      return pages * 65536;
    }
    at += size;
  }
  throw new Error(`${file} defines no memory`);
}
