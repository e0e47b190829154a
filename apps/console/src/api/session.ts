/**
 * The signed-in API key lives in this tab's sessionStorage only: never a cookie (so no request carries
 * it unasked) and never the URL (so it is not in history, logs or Referer). Closing the tab signs out.
 */
const STORAGE_KEY = 'pylon.console.api-key';

export function storedApiKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function storeApiKey(apiKey: string): void {
  sessionStorage.setItem(STORAGE_KEY, apiKey);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
