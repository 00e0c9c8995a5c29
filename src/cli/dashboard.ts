import { DEFAULT_LINK_MINUTES } from "../auth/sign-in-links.js";
import { createServices } from "../services.js";
import { type Command, UsageError } from "./command.js";

/** `sibyl dashboard link --org ORG [--minutes N]`: a one-time sign-in link to the dashboard. */
export const DASHBOARD_LINK: Command = {
  words: ["dashboard", "link"],
  summary: "print a one-time sign-in link to the web dashboard",
  details:
    "Open the printed URL in a browser; the link works once, within --minutes. The session's key expires with the session.",
  flags: [
    {
      flag: "org",
      value: "ORG_ID",
      description: "the organization to sign in to (see orgs list)",
      required: true,
    },
    {
      flag: "minutes",
      value: "N",
      description: `how long the link stays valid (default ${DEFAULT_LINK_MINUTES})`,
    },
  ],
  examples: ['sibyl dashboard link --org org_…   → {"url","expires_at"}'],
  usesDatabase: true,
  run: async ({ values, config, io }) => {
    const organizationId = values.org;
    if (organizationId === undefined || organizationId.trim() === "") {
      throw new UsageError("--org is required");
    }
    const minutes =
      values.minutes === undefined ? DEFAULT_LINK_MINUTES : wholeMinutes(values.minutes);
    const services = await createServices(config);
    try {
      const link = await services.signInLinks.create(organizationId, minutes);
      // The token rides in the fragment, which browsers never send: it stays out of every log.
      const url = new URL("dashboard/", withTrailingSlash(config.server.public_url));
      url.hash = `sign-in=${link.token}`;
      io.stdout(JSON.stringify({ url: url.toString(), expires_at: link.expiresAt }));
      return 0;
    } finally {
      await services.close();
    }
  },
};

function wholeMinutes(text: string): number {
  const minutes = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(minutes)) {
    throw new UsageError(`--minutes must be a whole number, not "${text}"`);
  }
  return minutes;
}

const withTrailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
