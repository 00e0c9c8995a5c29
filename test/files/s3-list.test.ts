import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3BlobStore } from "../../src/files/s3-store.js";

/** ListObjectsV2 pages keyed by continuation token ("" for the first request). */
const pages: Record<string, { keys: string[]; next?: string }> = {
  "": { keys: ["file-a", "nested/object"], next: "page-2" },
  "page-2": { keys: ["file-b"], next: "page-3" },
  "page-3": { keys: ["file-c"] },
};

const listing = (token: string) => {
  const page = pages[token];
  if (!page) return null;
  const contents = page.keys
    .map(
      (key) =>
        `<Contents><Key>${key}</Key><LastModified>2024-01-02T03:04:05.000Z</LastModified></Contents>`,
    )
    .join("");
  const more = page.next
    ? `<IsTruncated>true</IsTruncated><NextContinuationToken>${page.next}</NextContinuationToken>`
    : "<IsTruncated>false</IsTruncated>";
  return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket</Name><KeyCount>${page.keys.length}</KeyCount>${more}${contents}</ListBucketResult>`;
};

// s3rver cannot issue continuation tokens on Node ≥ 17 (it encrypts them with DES), so paging is
// checked against canned responses instead.
describe("S3 blob store listing", () => {
  let server: Server;
  let endpoint: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const body = listing(url.searchParams.get("continuation-token") ?? "");
      response.writeHead(body ? 200 : 400, { "content-type": "application/xml" });
      response.end(body ?? "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("follows continuation tokens to the last page and skips keys that are not blob keys", async () => {
    const store = new S3BlobStore({
      bucket: "bucket",
      client: {
        endpoint,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
      },
    });
    const blobs = [];
    for await (const blob of store.list()) blobs.push(blob);
    await store.close();
    const lastModified = Date.parse("2024-01-02T03:04:05.000Z");
    expect(blobs).toEqual([
      { key: "file-a", lastModified },
      { key: "file-b", lastModified },
      { key: "file-c", lastModified },
    ]);
  });
});
