import { type DestinationStream, type LevelWithSilent, type Logger, pino } from "pino";
import { turnBatchedStandardOutput } from "./log-destination.ts";
import { prettyDestination } from "./pretty-log.ts";

export type { Logger } from "pino";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number] & LevelWithSilent;

/**
 * Anything that could carry a credential, wherever it appears in a log object. Request lines are built
 * from an allow-list of fields (see `RequestLogFields`) and skip this pass; for every other line it is the second line of defence.
 */
const REDACT_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "apiKey",
  "*.apiKey",
  "key",
  "*.key",
  "secret",
  "*.secret",
  "token",
  "*.token",
  "password",
  "*.password",
];

export const LOG_FORMATS = ["json", "pretty"] as const;
/** json: one object a line, for programs; pretty: one readable line an event, for a person. */
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; standard output by default. Tests pass a stream to read them back. */
  destination?: DestinationStream;
  /** JSON by default; `start` picks pretty when standard output is a terminal (logFormatFor). */
  format?: LogFormat;
}

/** Structured logs: JSON, one object a line, or the same events as readable lines (pretty-log.ts). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? turnBatchedStandardOutput();
  return pino(
    {
      level: options.level ?? "info",
      base: { service: "socialpub-server" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    options.format === "pretty" ? prettyDestination(destination) : destination,
  );
}

/**
 * The format `auto` means: readable lines when standard output is a terminal (a person reads them),
 * JSON when it is a file, a pipe or a log collector.
 */
export function logFormatFor(chosen: LogFormat | "auto", stdoutIsTerminal: boolean): LogFormat {
  return chosen === "auto" ? (stdoutIsTerminal ? "pretty" : "json") : chosen;
}

/** What one request line holds. No headers, no query string, no body: none can leak a key. */
export interface RequestLogFields {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}
