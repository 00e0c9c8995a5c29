import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless Chromium, or an error that says what is missing (the test fails; it never skips). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `headless Chromium is needed at ${CHROMIUM_PATH} for the browser tests, and it is not there: install it (Debian: apt-get install chromium)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--headless", "--no-sandbox"] });
}

export interface PageOptions {
  colorScheme?: "light" | "dark";
  width?: number;
  height?: number;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Content-Security-Policy violations and script errors seen so far. */
  problems: string[];
}

/** A page that records every CSP violation, console error and uncaught exception. */
export async function openWatchedPage(
  browser: Browser,
  options: PageOptions = {},
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

/** Launching Chromium takes a second or two; a loaded machine may take many more. */
const LAUNCH_TIMEOUT_MS = 60_000;

/**
 * Chromium for the calling test file: launched before its tests and closed after them. Every
 * page opened through `open` is checked after each test (nothing the CSP blocked, no script
 * error) and then closed.
 */
export function watchedBrowser(): { open(options?: PageOptions): Promise<Page> } {
  let browser: Browser | null = null;
  const opened: WatchedPage[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, LAUNCH_TIMEOUT_MS);
  afterEach(async () => {
    for (const watched of opened.splice(0)) {
      expect(watched.problems, watched.problems.join("\n")).toEqual([]);
      await watched.context.close();
    }
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    open: async (options = {}) => {
      if (!browser) throw new Error("watchedBrowser().open() is used before its beforeAll ran");
      const watched = await openWatchedPage(browser, options);
      opened.push(watched);
      return watched.page;
    },
  };
}
