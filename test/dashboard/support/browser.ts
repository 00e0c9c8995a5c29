import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../evaluation/support/chromium.js";

export { launchChromium };

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Content-Security-Policy violations and script errors seen so far. */
  problems: string[];
}

/** A page that records every CSP violation, console error and uncaught exception. */
export async function openWatchedPage(
  browser: Browser,
  options: { colorScheme?: "light" | "dark"; width?: number; height?: number } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? "light",
    acceptDownloads: true,
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const problems: string[] = [];
  await page.exposeFunction("reportCspViolation", (text: string) => problems.push(text));
  // Text, not a function: this file is compiled without DOM types.
  await page.addInitScript(`
    document.addEventListener("securitypolicyviolation", (event) => {
      window.reportCspViolation(
        "CSP " + event.violatedDirective + " blocked " + event.blockedURI + " (" + event.sample + ")",
      );
    });
  `);
  page.on("console", (message) => {
    // A refused request is logged as "Failed to load resource"; the page shows those itself.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}
