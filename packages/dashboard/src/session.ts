/*
 * The API key lives in sessionStorage: it survives a reload of this tab, is not shared with other
 * tabs, and is gone when the tab closes. It never goes in the URL. Signing out removes it.
 */
const STORAGE_KEY = "socialpub.api_key";

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
