import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SearchRequest {
  path: string;
  query: URLSearchParams;
}

/**
 * A loopback search API speaking GDELT DOC 2.0 (`GET /api/v2/doc/doc?mode=artlist&format=json`)
 * and SearXNG (`GET /search?format=json`): each answers with the JSON the test sets.
 */
export interface SearchServer {
  url: string;
  requests: SearchRequest[];
  gdeltArticles: Record<string, unknown>[];
  searxngResults: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startSearchServer(): Promise<SearchServer> {
  const state: Omit<SearchServer, "url" | "close"> = {
    requests: [],
    gdeltArticles: [],
    searxngResults: [],
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    state.requests.push({ path: url.pathname, query: url.searchParams });
    const body =
      url.pathname === "/api/v2/doc/doc"
        ? { articles: state.gdeltArticles }
        : url.pathname === "/search"
          ? { query: url.searchParams.get("q"), results: state.searxngResults }
          : null;
    if (body === null) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
