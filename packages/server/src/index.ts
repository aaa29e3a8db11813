// Public surface of @socialpub/server: run the reference service in a process of your own, or embed
// its SQLite or PostgreSQL store.

export {
  KEY_FILE_NAME,
  keyringFrom,
  type SecretKeySources,
  type ServerKeySource,
  serverKeyring,
  serverKeySource,
} from "./live/secret-key.ts";
export { createLogger, type LoggerOptions, type LogLevel } from "./logging.ts";
export { DEFAULT_BODY_LIMIT, type RunningServer, type StartServerOptions, startServer } from "./server.ts";
export { SchemaTooNewError } from "./store/migrate.ts";
export {
  openPostgresStore,
  PostgresSchemaTooNewError,
  PostgresStore,
  type PostgresStoreOptions,
} from "./store/postgres/index.ts";
export {
  openSqliteStore,
  SqliteStore,
  type SqliteStoreOptions,
  type Synchronous,
} from "./store/sqlite/sqlite-store.ts";
