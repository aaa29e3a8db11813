/**
 * Statements of one transaction sent together: the driver writes each to the connection as it is made
 * (pipelining), the database runs them in the order sent, and the transaction waits one round trip for
 * all of them instead of one each. Where instance and database share busy cores, a round trip costs
 * far more than the statement it carries (docs/performance.md measured the database executing
 * statements for about 5 % of a scheduled post's time).
 *
 * Answers every result once every statement has settled, or throws the failure that caused the others,
 * after every one has settled. Waiting for all matters: work that sends a further statement after an
 * await must not send it once the transaction has rolled back, or it would run outside the transaction,
 * on a connection already handed to someone else. */
export async function together<T extends readonly unknown[] | []>(
  work: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = (await Promise.allSettled(work)) as PromiseSettledResult<unknown>[];
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  // After one statement fails, the database refuses the rest of the transaction ("current transaction
  // is aborted", 25P02): the cause is the failure that is not that one.
  const cause = failed.find((f) => (f.reason as { code?: unknown } | null)?.code !== "25P02") ?? failed[0];
  if (cause) throw cause.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
