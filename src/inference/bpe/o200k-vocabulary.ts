import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parseTiktokenFile } from "./tiktoken-file.js";
import { Vocabulary } from "./vocabulary.js";

/**
 * gpt-tokenizer's copy of OpenAI's o200k_base rank file, the source its generated JavaScript
 * vocabulary is made from. Reading the file instead of loading that module keeps its 2.2 MB
 * source and its ~200k strings out of the heap altogether; only the compact form stays.
 */
const RANK_FILE = "gpt-tokenizer/data/o200k_base.tiktoken";

let vocabulary: Vocabulary | undefined;

/** o200k_base's vocabulary, read and built on first use (50–80 ms), so importing costs nothing. */
export function o200kVocabulary(): Vocabulary {
  if (vocabulary === undefined) {
    const path = createRequire(import.meta.url).resolve(RANK_FILE);
    vocabulary = new Vocabulary(parseTiktokenFile(readFileSync(path)));
  }
  return vocabulary;
}
