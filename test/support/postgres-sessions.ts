import type pg from "pg";

/**
 * A pool resolves `end()` before its sockets close; a forced drop would hit those sessions
 * mid-goodbye and surface as uncaught errors, and a rename refuses while any is open, so wait
 * (briefly) for them to go first.
 */
export async function waitForNoSessions(
  admin: pg.Client,
  name: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const result = await admin.query<{ sessions: string }>(
      "SELECT count(*) AS sessions FROM pg_stat_activity WHERE datname = $1",
      [name],
    );
    if (Number(result.rows[0]?.sessions ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
