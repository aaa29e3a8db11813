/**
 * Runs tasks one after another for each user, within this process. A rule that reads a count and then
 * writes (posts per month, connected profiles, one post per network in a slot) runs its check and its
 * write as one task, so two concurrent requests of a user cannot both pass a check only one of them
 * may pass. Tasks of different users still run side by side.
 *
 * This makes those limits exact for one service process per store, which is how the server runs (it
 * holds an exclusive lock on its database).
 */
export class PerUserQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly across: (<T>(userId: string, task: () => Promise<T>) => Promise<T>) | null;

  /**
   * @param across where several instances share the store, also runs each task under the store's lock
   *   for the user (Store.exclusivelyForUser), so the rules hold across instances; tasks queue here
   *   first, so an instance holds at most one such lock per user.
   */
  constructor(across?: <T>(userId: string, task: () => Promise<T>) => Promise<T>) {
    this.across = across ?? null;
  }

  async run<T>(userId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(userId) ?? Promise.resolve();
    const across = this.across;
    const result = previous.then(across ? () => across(userId, task) : task);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(userId, tail);
    try {
      return await result;
    } finally {
      // The last task of a user removes the entry, so the map holds only users with work queued.
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    }
  }
}
