import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless Chromium, or an error that says what is missing (the test fails; it never skips). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `headless Chromium is needed at ${CHROMIUM_PATH} to open report.html, and it is not there: install it (Debian: apt-get install chromium)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--headless", "--no-sandbox"] });
}
