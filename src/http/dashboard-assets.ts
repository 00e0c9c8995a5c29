import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where `npm run build` puts the dashboard; `src/` and `dist/` sit side by side. */
export const BUILT_DASHBOARD_DIR = fileURLToPath(new URL("../../dist/web/", import.meta.url));

export interface DashboardAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** The built dashboard held in memory: its page and its assets by URL path below `/dashboard/`. */
export interface DashboardBundle {
  index: DashboardAsset;
  assets: ReadonlyMap<string, DashboardAsset>;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** The whole build is a few hundred kilobytes; anything far larger is not a dashboard build. */
const MAX_BUNDLE_BYTES = 20 * 1024 * 1024;

function asset(file: string): DashboardAsset {
  const body = readFileSync(file);
  return {
    body,
    contentType: CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
    etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
  };
}

/** Reads a dashboard build once, at startup; null when `dir` holds no build. */
export function loadDashboard(dir: string): DashboardBundle | null {
  const indexFile = path.join(dir, "index.html");
  if (!existsSync(indexFile)) return null;
  const assets = new Map<string, DashboardAsset>();
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry);
    if (entry === "index.html" || !statSync(file).isFile()) continue;
    const loaded = asset(file);
    total += loaded.body.length;
    if (total > MAX_BUNDLE_BYTES) {
      throw new Error(`${dir} holds more than ${MAX_BUNDLE_BYTES} bytes: not a dashboard build`);
    }
    assets.set(entry.split(path.sep).join("/"), loaded);
  }
  return { index: asset(indexFile), assets };
}
