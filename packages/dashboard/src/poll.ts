import { useCallback, useEffect, useRef, useState } from "preact/hooks";

/** How often a live view asks again. Each request counts against the key's monthly API calls. */
export const POLL_INTERVAL_MS = 5000;

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or error) for the current inputs. */
  loading: boolean;
  refresh(): Promise<void>;
}

/**
 * Loads data now and whenever `key` changes, then again every few seconds while `live` is on and the
 * tab is visible. Answers that arrive after a newer request started are dropped, so a slow response
 * never overwrites a fresher one.
 */
export function usePoll<T>(load: () => Promise<T>, key: string, live: boolean): Polled<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown; loading: boolean }>({
    key,
    loading: true,
  });
  const sequence = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const refresh = useCallback(async () => {
    const mine = ++sequence.current;
    try {
      const data = await loadRef.current();
      if (mine === sequence.current) setState({ key, data, loading: false });
    } catch (error) {
      if (mine === sequence.current) setState((old) => ({ ...old, key, error, loading: false }));
    }
  }, [key]);

  useEffect(() => {
    setState((old) => (old.key === key ? old : { key, loading: true }));
    void refresh();
  }, [refresh, key]);

  useEffect(() => {
    if (!live) return;
    const tick = () => {
      if (document.visibilityState === "visible") void refresh();
    };
    const timer = setInterval(tick, POLL_INTERVAL_MS);
    document.addEventListener("visibilitychange", tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [live, refresh]);

  const current = state.key === key ? state : { loading: true, data: undefined, error: undefined };
  return { data: current.data, error: current.error, loading: current.loading, refresh };
}
