/**
 * Whether `bytes[start, end)` is well-formed UTF-8: no stray continuation byte, no truncated,
 * overlong or surrogate sequence, nothing above U+10FFFF.
 */
export function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const lead = bytes[index] ?? 0;
    let length: number;
    let point: number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    if (lead >= 0xc2 && lead <= 0xdf) {
      length = 2;
      point = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      point = lead & 0x0f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      point = lead & 0x07;
    } else {
      return false;
    }
    if (index + length > end) return false;
    for (let next = index + 1; next < index + length; next++) {
      const continuation = bytes[next] ?? 0;
      if ((continuation & 0xc0) !== 0x80) return false;
      point = (point << 6) | (continuation & 0x3f);
    }
    const shortest = length === 2 ? 0x80 : length === 3 ? 0x800 : 0x10000;
    if (point < shortest || (point >= 0xd800 && point <= 0xdfff) || point > 0x10ffff) return false;
    index += length;
  }
  return true;
}
