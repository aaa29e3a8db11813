/** A write that claims an Idempotency-Key found it taken by another request; nothing was written. */
export class IdempotencyKeyTaken extends Error {
  constructor(userId: string, key: string) {
    super(`Idempotency-Key ${JSON.stringify(key)} of user ${userId} is taken by another request.`);
    this.name = "IdempotencyKeyTaken";
  }
}
