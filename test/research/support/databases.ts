import { createTestDatabase } from "../../support/postgres.js";

/** The database a test server runs on: its own SQLite file (no URL) or a fresh PostgreSQL one. */
export async function startTestDatabase(
  kind: "sqlite" | "postgres",
): Promise<{ url: string | null; dispose(): Promise<void> }> {
  if (kind === "sqlite") return { url: null, dispose: async () => {} };
  const database = await createTestDatabase();
  return { url: database.url, dispose: () => database.drop() };
}
