import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { PollClock } from "./lib/poll-clock.ts";

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or error) for the current inputs. */
  loading: boolean;
  refresh(): Promise<void>;
}

export interface PollOptions {
  /**
   * Whether a new answer counts as a change that keeps the clock at its shortest interval. False for
   * what changes on every call (the month's call count), so it cannot keep an idle page busy.
   */
  countsAsChange?: boolean;
}

/**
 * Loads data now and whenever `key` changes, then again on each tick of the page's poll clock (which
 * is silent while the tab is hidden or live updates are off). Answers that arrive after a newer
 * request started are dropped, so a slow response never overwrites a fresher one.
 */
export function usePoll<T>(
  load: () => Promise<T>,
  key: string,
  clock: PollClock,
  { countsAsChange = true }: PollOptions = {},
): Polled<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown; loading: boolean }>({
    key,
    loading: true,
  });
  const sequence = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  /** The last answer for `key`, serialized, to tell a change from the same answer again. */
  const last = useRef<{ key: string; json: string } | null>(null);

  /** Asks again; true when the answer differs from the last one for the same inputs. */
  const reload = useCallback(async (): Promise<boolean> => {
    const mine = ++sequence.current;
    try {
      const data = await loadRef.current();
      if (mine !== sequence.current) return false;
      const json = JSON.stringify(data);
      const before = last.current;
      last.current = { key, json };
      if (before?.key === key && before.json === json) {
        // The same answer: keep the rendered data, only clear an earlier error.
        setState((old) => (old.key === key && old.error === undefined ? old : { key, data, loading: false }));
        return false;
      }
      setState({ key, data, loading: false });
      return before?.key === key;
    } catch (error) {
      if (mine === sequence.current) setState((old) => ({ ...old, key, error, loading: false }));
      return false;
    }
  }, [key]);

  useEffect(() => {
    setState((old) => (old.key === key ? old : { key, loading: true }));
    void reload();
  }, [reload, key]);

  useEffect(
    () => clock.subscribe(async () => (await reload()) && countsAsChange),
    [clock, reload, countsAsChange],
  );

  const refresh = useCallback(async () => {
    await reload();
  }, [reload]);

  const current = state.key === key ? state : { loading: true, data: undefined, error: undefined };
  return { data: current.data, error: current.error, loading: current.loading, refresh };
}
