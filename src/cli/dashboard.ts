import { DEFAULT_LINK_MINUTES, SignInLinks } from "../auth/sign-in-links.js";
import type { Config } from "../config/index.js";
import { createServices } from "../services.js";
import { type CliIo, type CliValues, UsageError } from "./run.js";

/** `sibyl dashboard link --org ORG [--minutes N]`: a one-time sign-in link to the dashboard. */
export async function dashboardCommand(
  args: string[],
  values: CliValues,
  config: Config,
  io: CliIo,
): Promise<number> {
  if (args[0] !== "link" || args.length > 1) {
    throw new UsageError(`unknown command "${["dashboard", ...args].join(" ")}"`);
  }
  const organizationId = values.org;
  if (organizationId === undefined || organizationId.trim() === "") {
    throw new UsageError("--org is required");
  }
  const minutes =
    values.minutes === undefined ? DEFAULT_LINK_MINUTES : wholeMinutes(values.minutes);
  const services = await createServices(config);
  try {
    const links = new SignInLinks(
      services.database.db,
      services.clock,
      services.organizations,
      services.apiKeys,
    );
    const link = await links.create(organizationId, minutes);
    // The token rides in the fragment, which browsers never send: it stays out of every log.
    const url = new URL("dashboard/", withTrailingSlash(config.server.public_url));
    url.hash = `sign-in=${link.token}`;
    io.stdout(JSON.stringify({ url: url.toString(), expires_at: link.expiresAt }));
    return 0;
  } finally {
    await services.close();
  }
}

function wholeMinutes(text: string): number {
  const minutes = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(minutes)) {
    throw new UsageError(`--minutes must be a whole number, got "${text}"`);
  }
  return minutes;
}

const withTrailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
