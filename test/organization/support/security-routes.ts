import type { RouteSecurity } from "../../support/route-checks.js";
import type { TestOrg, TestServer } from "../../support/server.js";

const ownedKey = async (server: TestServer, owner: TestOrg) => ({
  key_id: (await server.services.apiKeys.issue(owner.organizationId)).api_key_id,
});

/** The owner's newest ledger entry: its first top-up. */
const ownedEntry = async (server: TestServer, owner: TestOrg) => {
  const page = await server.services.ledgerHistory.page(owner.organizationId, { limit: 1 });
  return { entry_id: page.entries[0]?.id ?? "" };
};

const startTime = () => String(Math.floor(Date.now() / 1000) - 3 * 86_400);

/** The organization routes under `prefix`, as the route security checks send them. */
export function organizationSecurityRoutes(prefix: string): RouteSecurity[] {
  const keys = `${prefix}/organization/api_keys`;
  return [
    { method: "GET", path: keys },
    {
      method: "GET",
      path: keys,
      query: (ids) => ({ after: ids.key_id ?? "" }),
      ownedBy: ownedKey,
    },
    {
      method: "POST",
      path: keys,
      body: () => ({ name: "security", scope: "inference", spend_limit_usd: 1 }),
    },
    { method: "GET", path: `${keys}/{key_id}`, ownedBy: ownedKey },
    {
      method: "POST",
      path: `${keys}/{key_id}`,
      body: () => ({ name: "renamed", spend_limit_usd: 3 }),
      ownedBy: ownedKey,
    },
    { method: "DELETE", path: `${keys}/{key_id}`, ownedBy: ownedKey },
    {
      method: "GET",
      path: `${prefix}/organization/usage/completions`,
      query: () => ({ start_time: startTime() }),
    },
    {
      method: "GET",
      path: `${prefix}/organization/usage/completions`,
      query: (ids) => ({ start_time: startTime(), api_key_ids: ids.key_id ?? "" }),
      ownedBy: ownedKey,
    },
    {
      method: "GET",
      path: `${prefix}/organization/costs`,
      query: () => ({ start_time: startTime(), group_by: "line_item" }),
    },
    { method: "GET", path: `${prefix}/organization/ledger` },
    {
      method: "GET",
      path: `${prefix}/organization/ledger`,
      query: (ids) => ({ after: ids.entry_id ?? "" }),
      ownedBy: ownedEntry,
    },
  ];
}
