import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { jsonOf } from "./support/json.js";

const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const INDEX = `<!doctype html><html><head><script type="module" src="/dashboard/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = "console.log('dashboard');\n";
const STYLE = "body { color: black; }\n";
const ICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';

/** A dashboard build as vite lays one out: index.html and hashed assets. */
function writeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sibyl-dashboard-build-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), INDEX);
  writeFileSync(path.join(dir, "assets", "index-Ab12Cd34.js"), SCRIPT);
  writeFileSync(path.join(dir, "assets", "index-Ef56Gh78.css"), STYLE);
  writeFileSync(path.join(dir, "assets", "favicon-Xy90.svg"), ICON);
  return dir;
}

function expectSecurityHeaders(response: Response) {
  expect(response.headers.get("content-security-policy")).toBe(STRICT_CSP);
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("a built dashboard", () => {
  let build: string;
  let server: TestServer;

  beforeAll(async () => {
    build = writeBuild();
    server = await startTestServer({ app: { dashboard: { dir: build } } });
  });

  afterAll(async () => {
    await server.close();
    rmSync(build, { recursive: true, force: true });
  });

  it("answers /dashboard and /dashboard/ with index.html, revalidated on every use", async () => {
    for (const route of ["/dashboard", "/dashboard/"]) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("etag")).toMatch(/^"[\w-]+"$/);
      expectSecurityHeaders(response);
      expect(await response.text()).toBe(INDEX);
    }
  });

  it("answers the page's own routes with index.html, so a reload or a shared link works", async () => {
    for (const route of ["/dashboard/keys", "/dashboard/usage", "/dashboard/batches/extra"]) {
      const response = await fetch(`${server.url}${route}?from=2025-01-01`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toBe(INDEX);
    }
  });

  it("serves hashed assets with their content types, cached for a year as immutable", async () => {
    const cases = [
      ["assets/index-Ab12Cd34.js", "text/javascript; charset=utf-8", SCRIPT],
      ["assets/index-Ef56Gh78.css", "text/css; charset=utf-8", STYLE],
      ["assets/favicon-Xy90.svg", "image/svg+xml", ICON],
    ];
    for (const [file, type, body] of cases) {
      const response = await fetch(`${server.url}/dashboard/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expectSecurityHeaders(response);
      expect(await response.text()).toBe(body);
    }
  });

  it("answers a matching If-None-Match with 304 and no body, for assets and the page", async () => {
    for (const route of ["/dashboard/assets/index-Ab12Cd34.js", "/dashboard/"]) {
      const first = await fetch(`${server.url}${route}`);
      const etag = first.headers.get("etag") ?? "";
      await first.arrayBuffer();
      const again = await fetch(`${server.url}${route}`, { headers: { "if-none-match": etag } });
      expect(again.status, route).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
      const listed = await fetch(`${server.url}${route}`, {
        headers: { "if-none-match": `"other", W/${etag}` },
      });
      expect(listed.status).toBe(304);
      const stale = await fetch(`${server.url}${route}`, { headers: { "if-none-match": '"x"' } });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
    }
  });

  it("gives the script and the style different ETags, each stable across requests", async () => {
    const tag = async (file: string) =>
      (await fetch(`${server.url}/dashboard/assets/${file}`)).headers.get("etag");
    const script = await tag("index-Ab12Cd34.js");
    expect(await tag("index-Ab12Cd34.js")).toBe(script);
    expect(await tag("index-Ef56Gh78.css")).not.toBe(script);
  });

  it("answers an unknown asset with 404, never with the page", async () => {
    const response = await fetch(`${server.url}/dashboard/assets/index-OLD.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await jsonOf(response)).error.code).toBe("route_not_found");
  });

  it("never serves a file outside the build", async () => {
    for (const route of [
      "/dashboard/../package.json",
      "/dashboard/%2e%2e/package.json",
      "/dashboard/assets/..%2f..%2fpackage.json",
    ]) {
      const response = await fetch(`${server.url}${route}`);
      const text = await response.text();
      expect(text, route).not.toContain('"devDependencies"');
    }
  });

  it("answers HEAD like GET, without a body", async () => {
    const response = await fetch(`${server.url}/dashboard/assets/index-Ab12Cd34.js`, {
      method: "HEAD",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("keeps the dashboard and its sign-in out of /openapi.json", async () => {
    const document = await jsonOf<{ paths: Record<string, unknown> }>(
      await fetch(`${server.url}/openapi.json`),
    );
    const paths = Object.keys(document.paths);
    expect(paths.some((route) => route.includes("dashboard"))).toBe(false);
    expect(paths).toContain("/v1/balance");
  });
});

describe("a server whose dashboard is not built", () => {
  let empty: string;
  let server: TestServer;

  beforeAll(async () => {
    empty = mkdtempSync(path.join(tmpdir(), "sibyl-dashboard-none-"));
    server = await startTestServer({ app: { dashboard: { dir: path.join(empty, "web") } } });
  });

  afterAll(async () => {
    await server.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it("answers 503 saying to run the build, and still serves the API", async () => {
    for (const route of ["/dashboard", "/dashboard/keys", "/dashboard/assets/index-Ab12Cd34.js"]) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(503);
      const body = await jsonOf(response);
      expect(body.error.code).toBe("dashboard_not_built");
      expect(body.error.message).toContain("npm run build");
    }
    const org = await server.createOrg("1");
    const balance = await fetch(`${server.url}/v1/balance`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(await jsonOf<unknown>(balance)).toEqual({ balance_dollars: 1 });
  });
});
