import * as fc from "fast-check";

/**
 * Requests broken below HTTP semantics: request lines, header syntax, framing. Each aims at
 * `path` with a valid key, so whatever answers is the server's handling of the breakage.
 */
export function malformedRequests(
  method: string,
  path: string,
  authorization: string,
): fc.Arbitrary<string> {
  const line = `${method} ${path} HTTP/1.1`;
  const auth = `Authorization: ${authorization}\r\n`;
  const message = (requestLine: string, headers = "", body = "") =>
    `${requestLine}\r\nHost: sibyl\r\n${auth}${headers}\r\n${body}`;
  const json = '{"model":"sibyl-baseline"}';
  const chunked = "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n";
  return fc.constantFrom(
    "GARBAGE\r\n\r\n",
    "\r\n\r\n",
    message(`${method} ${path}`),
    message(`${method} ${path} HTTP/9.9`),
    message(`${line} extra`),
    message(`${method.toLowerCase()} ${path} HTTP/1.1`),
    message(`${method}  ${path} HTTP/1.1`),
    message(`${method} http://evil.example${path} HTTP/1.1`),
    message(`${method} * HTTP/1.1`),
    message(`${method} ${path}#fragment HTTP/1.1`),
    message(`${method} ${path}/\u00e9\u00ff HTTP/1.1`),
    message(`${method} ${path}/${"a".repeat(20_000)} HTTP/1.1`),
    `${line}\r\n${auth}\r\n`,
    message(`${method} ${path} HTTP/1.0`),
    message(line, "Bad Header: x\r\n"),
    message(line, "NoColon\r\n"),
    message(line, "X-Ctl: a\u0001b\r\n"),
    message(line, "X-Folded: a\r\n  folded\r\n"),
    message(line, `X-Big: ${"h".repeat(20_000)}\r\n`),
    message(line, "Content-Length: -1\r\n"),
    message(line, "Content-Length: abc\r\n"),
    message(line, "Content-Length: 1\r\nContent-Length: 2\r\n", "ab"),
    message(line, `${chunked}Content-Length: ${json.length}\r\n`, json),
    message(line, chunked, "zz\r\n{}\r\n0\r\n\r\n"),
    message(line, chunked, `${json.length.toString(16)}\r\n${json}\r\n`),
    message(line, "Transfer-Encoding: gzip, chunked\r\n", "2\r\n{}\r\n0\r\n\r\n"),
    message(line, "Content-Type: application/json\r\nContent-Length: 100\r\n", json),
    message(line, "Expect: 100-continue\r\nContent-Length: 2\r\n", "{}"),
    message(line, "Expect: kittens\r\n"),
    message(line, "Upgrade: websocket\r\nConnection: Upgrade\r\n"),
    message(line, "Connection: close\r\n", message(`GET ${path} HTTP/1.1`)),
  );
}
