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

  async run<T>(userId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(userId) ?? Promise.resolve();
    const result = previous.then(task);
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
