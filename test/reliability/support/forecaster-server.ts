import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import { startTestServer, type TestOrg, type TestServer } from "../../support/server.js";

/** Sibyl with one free model, "forecaster", over a fake model server, and an organization. */
export interface ForecasterServer {
  upstream: FakeUpstream;
  server: TestServer;
  org: TestOrg;
  close(): Promise<void>;
}

/**
 * For the loop-stall tests: the model takes any prompt and answers at length, for nothing, and
 * the rate limit is out of reach, so only reading the replies is measured.
 */
export async function startForecasterServer(): Promise<ForecasterServer> {
  const upstream = await startFakeUpstream();
  const server = await startTestServer({
    config: {
      limits: { requests_per_minute: 100_000 },
      models: [
        {
          id: "forecaster",
          provider: "openai",
          base_url: upstream.url,
          context_length: 1_000_000,
          max_completion_tokens: 4096,
          pricing: { prompt: "0", completion: "0" },
        },
      ],
    },
  });
  const org = await server.createOrg("5");
  return {
    upstream,
    server,
    org,
    close: async () => {
      await server.close();
      await upstream.close();
    },
  };
}
