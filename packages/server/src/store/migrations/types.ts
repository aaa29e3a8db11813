/** One step of the schema. Versions start at 1 and grow by one; a released migration never changes. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Statements run in one transaction, together with the bump of `PRAGMA user_version`. */
  readonly sql: string;
}
