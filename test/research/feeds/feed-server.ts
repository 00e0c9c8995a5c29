import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How one path answers; a function is called per request. */
export interface FeedRoute {
  status?: number;
  contentType?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Waits this long before answering. */
  delayMs?: number;
}

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/**
 * A feed publisher on 127.0.0.1: each path answers as its route says, honouring If-None-Match
 * and If-Modified-Since against the route's ETag and Last-Modified headers with a 304.
 */
export class FeedServer {
  readonly routes = new Map<string, FeedRoute | ((request: SeenRequest) => FeedRoute)>();
  readonly requests: SeenRequest[] = [];
  /** Most requests ever in progress at once, per path. */
  readonly maxConcurrent = new Map<string, number>();
  private readonly inProgress = new Map<string, number>();
  private server: Server | null = null;
  private base = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const seen = { path: request.url ?? "/", headers: request.headers };
      this.requests.push(seen);
      const current = (this.inProgress.get(seen.path) ?? 0) + 1;
      this.inProgress.set(seen.path, current);
      this.maxConcurrent.set(seen.path, Math.max(current, this.maxConcurrent.get(seen.path) ?? 0));
      response.on("close", () =>
        this.inProgress.set(seen.path, (this.inProgress.get(seen.path) ?? 1) - 1),
      );
      const found = this.routes.get(seen.path);
      const route =
        typeof found === "function" ? found(seen) : (found ?? { status: 404, body: "" });
      const answer = () => {
        const headers = route.headers ?? {};
        const etag = headers.ETag;
        const lastModified = headers["Last-Modified"];
        const unchanged =
          (etag !== undefined && request.headers["if-none-match"] === etag) ||
          (etag === undefined &&
            lastModified !== undefined &&
            request.headers["if-modified-since"] === lastModified);
        if (unchanged) {
          response.writeHead(304, headers).end();
          return;
        }
        response
          .writeHead(route.status ?? 200, {
            "Content-Type": route.contentType ?? "application/rss+xml; charset=utf-8",
            ...headers,
          })
          .end(route.body ?? "");
      };
      if (route.delayMs) setTimeout(answer, route.delayMs);
      else answer();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${port}`;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  requestsTo(path: string): SeenRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
