export { PostgresSchemaTooNewError } from "./migrate.ts";
export { openPostgresStore, PostgresStore, type PostgresStoreOptions } from "./postgres-store.ts";
