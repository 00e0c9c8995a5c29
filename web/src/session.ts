/** The signed-in key lives in this tab's session storage only: never in a URL or a cookie. */
const STORAGE_KEY = "sibyl.dashboard.api_key";

export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/**
 * A one-time sign-in token from the URL fragment (`#sign-in=…`), removed from the address bar
 * and history at once so it cannot be reused from there or leak through a shared screen.
 */
export function takeSignInToken(): string | null {
  const match = /^#sign-in=([A-Za-z0-9]+)$/.exec(window.location.hash);
  if (!match) return null;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return match[1] ?? null;
}
