import * as fc from "fast-check";
import { awkwardString, promptText } from "./values.js";

interface FormPart {
  name: string;
  /** Present for file parts. */
  filename?: string;
  content: string;
}

export interface MultipartUpload {
  contentType: string;
  body: Buffer;
}

/** Batch input files: valid JSON Lines carrying the run's marker, and every way to get it wrong. */
function fileContent(canary: string): fc.Arbitrary<string> {
  const line = (content: string, customId: string, model = "sibyl-baseline") =>
    JSON.stringify({
      custom_id: customId,
      method: "POST",
      url: "/v1/chat/completions",
      body: { model, messages: [{ role: "user", content }] },
    });
  const validLines = fc
    .array(promptText(canary), { minLength: 1, maxLength: 4 })
    .map((prompts) => prompts.map((prompt, index) => line(prompt, `q${index}`)).join("\n"));
  return fc.oneof(
    { weight: 4, arbitrary: validLines.map((lines) => `${lines}\n`) },
    { weight: 1, arbitrary: validLines.map((lines) => lines.replaceAll("\n", "\r\n")) },
    { weight: 1, arbitrary: validLines.map((lines) => `\ufeff${lines}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "",
        "\n",
        "not json\n",
        "[]\n",
        '{"custom_id":"a"}\n',
        `${line("x", "same")}\n${line("y", "same")}\n`,
        `${line("x", "a")}\n${line("y", "b", "other-model")}\n`,
        `${line("x", "a").replace('"POST"', '"GET"')}\n`,
        `${line("x", "a").replace("/v1/chat/completions", "/v1/completions")}\n`,
        `${line("x", "a").replace('"body":{', '"body":{"stream":true,')}\n`,
        `${line("x", "\u0000")}\n`,
      ),
    },
    { weight: 1, arbitrary: awkwardString },
  );
}

const field = (name: string, value: fc.Arbitrary<string>) =>
  value.map((content): FormPart => ({ name, content }));

function formParts(canary: string): fc.Arbitrary<FormPart[]> {
  const purpose = field(
    "purpose",
    fc.oneof(
      { weight: 4, arbitrary: fc.constant("batch") },
      { weight: 1, arbitrary: fc.constantFrom("BATCH", "batch_output", "fine-tune", "") },
      { weight: 1, arbitrary: awkwardString },
    ),
  );
  const file = fc
    .record({
      name: fc.constantFrom("file", "file", "file", "File", "files", ""),
      filename: fc.oneof(
        { weight: 4, arbitrary: fc.constant("input.jsonl") },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "",
            "../../etc/passwd",
            "日本.jsonl",
            'a"b.jsonl',
            "x".repeat(300),
          ),
        },
        { weight: 1, arbitrary: awkwardString },
      ),
      content: fileContent(canary),
    })
    .map((part): FormPart => part);
  const anchor = field(
    "expires_after[anchor]",
    fc.oneof(fc.constant("created_at"), fc.constantFrom("CREATED_AT", "", "now"), awkwardString),
  );
  const seconds = field(
    "expires_after[seconds]",
    fc.oneof(
      fc.constantFrom("3600", "2592000", "3599", "2592001", "-1", "0", "1e4", "3600.5", ""),
      fc.constantFrom("99999999999999999999999", " 3600", "0x1000"),
      awkwardString,
    ),
  );
  const stray = fc.record({ name: awkwardString, content: awkwardString });
  return fc
    .tuple(
      fc.option(purpose, { freq: 10 }),
      fc.array(file, { minLength: 0, maxLength: 2 }),
      fc.option(anchor, { freq: 3 }),
      fc.option(seconds, { freq: 3 }),
      fc.array(stray, { maxLength: 2 }),
      fc.constantFrom(0, 0, 0, 17),
      fc.boolean(),
    )
    .map(([purposePart, files, anchorPart, secondsPart, strays, padding, fileFirst]) => {
      const fields = [purposePart, anchorPart, secondsPart].filter((part) => part !== null);
      const extra = Array.from({ length: padding }, (_, i) => ({ name: `f${i}`, content: "x" }));
      const ordered = fileFirst ? [...files, ...fields] : [...fields, ...files];
      return [...ordered, ...strays, ...extra];
    });
}

function encode(boundary: string, parts: FormPart[], ending: string): Buffer {
  const chunks = parts.map((part) => {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.filename === undefined ? "" : "Content-Type: application/octet-stream\r\n";
    return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n${part.content}\r\n`;
  });
  return Buffer.from(`${chunks.join("")}${ending}`);
}

/** Upload forms: mostly well formed, some with broken framing, boundaries or limits. */
export function multipartUploads(canary: string): fc.Arbitrary<MultipartUpload> {
  return fc
    .record({
      boundary: fc.constantFrom("sibylboundary", "x", "-".repeat(70), "b".repeat(300), "a b"),
      parts: formParts(canary),
      ending: fc.constantFrom("proper", "proper", "proper", "none", "misspelled", "cut"),
      header: fc.constantFrom("boundary", "boundary", "boundary", "quoted", "none", "other"),
    })
    .map(({ boundary, parts, ending, header }) => {
      const closing = {
        proper: `--${boundary}--\r\n`,
        none: "",
        misspelled: `--${boundary}x--\r\n`,
        cut: `--${boundary.slice(0, 1)}`,
      }[ending];
      const contentType = {
        boundary: `multipart/form-data; boundary=${boundary}`,
        quoted: `multipart/form-data; boundary="${boundary}"`,
        none: "multipart/form-data",
        other: "multipart/form-data; boundary=somethingelse",
      }[header];
      return { contentType, body: encode(boundary, parts, closing) };
    });
}
