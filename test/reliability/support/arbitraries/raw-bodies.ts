import * as fc from "fast-check";

/** Content-Type values, right and wrong, for bodies of every kind. */
export const contentTypes: fc.Arbitrary<string | null> = fc.constantFrom(
  null,
  "",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  "application/json;;;",
  "application/json; boundary=x",
  "application/vnd.api+json",
  "application/problem+json",
  "application/jsonx",
  "text/json",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "application/octet-stream",
  "application/x-ndjson",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=xyz",
  "multipart/mixed; boundary=xyz",
  "*/*",
  "image/png",
  "json",
  "application/",
  "/",
  ";",
  "application/json, text/plain",
  `application/json; ${"p=v; ".repeat(200)}`,
);

/** Valid JSON just over the 16 MB body limit, built once for every case that sends it. */
const OVERSIZED = Buffer.from(`{"pad":"${" ".repeat(16 * 1024 * 1024)}"}`);

const deepText = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** Bodies that are not JSON at all, nearly JSON, or JSON in shapes no parser should choke on. */
export function rawBodies(validJson: string): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.constantFrom(
        "",
        " ",
        "\n\n",
        "null",
        "true",
        "0",
        '""',
        "[]",
        "{}",
        "{",
        "}",
        "{]",
        "{'model': 'x'}",
        '{"model":"sibyl-baseline",}',
        '{"a":1}{"b":2}',
        '{"a":1} trailing',
        "NaN",
        "undefined",
        '{"max_tokens": 1e999, "temperature": -1e999}',
        '{"n": 123456789012345678901234567890}',
        '{"__proto__": {"admin": true}}',
        '{"constructor": {"prototype": {"admin": true}}}',
        '{"a": "\\ud800"}',
        '{"a": "\\u0000"}',
        '{"a": "\\x00"}',
        "\ufeff{}",
        '{"model":"sibyl-baseline","messages":[{"role":"user","content":"x"}],"model":1}',
        deepText(257),
        deepText(10_000),
        deepText(200_000),
        `{"a":${"1".repeat(100_000)}}`,
        "model=sibyl-baseline&messages=x",
        '--xyz\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--xyz--\r\n',
      ),
    },
    { weight: 3, arbitrary: fc.constant(validJson) },
    // The valid body cut short at any point.
    {
      weight: 3,
      arbitrary: fc.nat({ max: validJson.length }).map((end) => validJson.slice(0, end)),
    },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
        Buffer.from('{"a":"\xc3\x28 \xed\xa0\x80"}', "latin1"),
      ),
    },
    { weight: 1, arbitrary: fc.constant(OVERSIZED) },
  );
}
