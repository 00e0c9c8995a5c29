/** Bytes kept between pieces; a longer piece gets a buffer of its own for the time it takes. */
const RETAINED_BYTES = 4096;

const REPLACEMENT_CHARACTER_BYTES = [0xef, 0xbf, 0xbd] as const;

/** The UTF-8 bytes of one pre-tokenizer piece, in a buffer reused from piece to piece. */
export class PieceBytes {
  bytes = new Uint8Array(RETAINED_BYTES);
  length = 0;
  /** False when the piece held a lone surrogate, which its bytes spell as U+FFFD. */
  wellFormed = true;

  /** Encodes `text[start, end)` as TextEncoder does, a lone surrogate as U+FFFD. */
  write(text: string, start: number, end: number): void {
    // A UTF-16 code unit takes at most three bytes (a surrogate pair takes four for two).
    const needed = (end - start) * 3;
    const oversized = this.bytes.length > RETAINED_BYTES && needed <= RETAINED_BYTES;
    if (needed > this.bytes.length || oversized) {
      this.bytes = new Uint8Array(Math.max(needed, RETAINED_BYTES));
    }
    const bytes = this.bytes;
    let length = 0;
    let wellFormed = true;
    for (let index = start; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code < 0x80) {
        bytes[length++] = code;
      } else if (code < 0x800) {
        bytes[length++] = 0xc0 | (code >>> 6);
        bytes[length++] = 0x80 | (code & 0x3f);
      } else if (code < 0xd800 || code > 0xdfff) {
        bytes[length++] = 0xe0 | (code >>> 12);
        bytes[length++] = 0x80 | ((code >>> 6) & 0x3f);
        bytes[length++] = 0x80 | (code & 0x3f);
      } else {
        const low = code < 0xdc00 && index + 1 < end ? text.charCodeAt(index + 1) : 0;
        if (low >= 0xdc00 && low <= 0xdfff) {
          const point = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          bytes[length++] = 0xf0 | (point >>> 18);
          bytes[length++] = 0x80 | ((point >>> 12) & 0x3f);
          bytes[length++] = 0x80 | ((point >>> 6) & 0x3f);
          bytes[length++] = 0x80 | (point & 0x3f);
          index++;
        } else {
          bytes.set(REPLACEMENT_CHARACTER_BYTES, length);
          length += REPLACEMENT_CHARACTER_BYTES.length;
          wellFormed = false;
        }
      }
    }
    this.length = length;
    this.wellFormed = wellFormed;
  }
}
